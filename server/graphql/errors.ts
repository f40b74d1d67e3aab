/**
 * GraphQL errors of the data API: every error a client sees carries `extensions.code`, one of
 * UNAUTHENTICATED, FORBIDDEN, BAD_USER_INPUT, NOT_FOUND, CONFLICT, RATE_LIMITED (ours), or
 * GraphQL's own for parse and validation errors; never a stack trace. The server's error family
 * (`server/errors.ts`) is mapped here once (codes other than these are masked); anything else is logged and
 * answered as INTERNAL_SERVER_ERROR "Unexpected error." (Yoga's error masking calls `maskError`).
 */
import { GraphQLError } from "graphql";

export const ERROR_CODES = [
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "BAD_USER_INPUT",
  "NOT_FOUND",
  "CONFLICT",
  "RATE_LIMITED",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export function gqlError(code: ErrorCode, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

/**
 * Codes of the service layer that the data API answers as one of its own (an upload's wrong type
 * or size is bad input: the message names the type found or the limit).
 */
const CODE_ALIASES: Readonly<Record<string, ErrorCode>> = {
  STALE_VERSION: "CONFLICT",
  INVALID_TRANSITION: "CONFLICT",
  PAYLOAD_TOO_LARGE: "BAD_USER_INPUT",
  UNSUPPORTED_MEDIA_TYPE: "BAD_USER_INPUT",
};

/** The data API code of a typed service or database error; null for anything unexpected. */
export function codeOf(error: unknown): ErrorCode | null {
  const raw = (error as { code?: unknown } | null)?.code;
  const code = typeof raw === "string" ? (CODE_ALIASES[raw] ?? raw) : raw;
  return typeof code === "string" && (ERROR_CODES as readonly string[]).includes(code)
    ? (code as ErrorCode)
    : null;
}

/** How graphql-js words a variable that does not coerce (`Variable "$n" got invalid value …`). */
const VARIABLE_ERROR = /^Variable "\$[_A-Za-z][_0-9A-Za-z]*"/;
/** How graphql-armor words a refused document (`… Aliases limit of 15 exceeded, found 21.`). */
const LIMIT_ERROR = /\blimit of \d+ exceeded\b/i;

/**
 * Gives graphql-js's variable coercion errors (wrong types in `variables`, answered by Yoga as
 * HTTP 400 before execution and never masked) and graphql-armor's limit refusals (depth, cost,
 * aliases, directives, tokens) the BAD_USER_INPUT code; other errors unchanged.
 */
export function withVariableErrorCode<E extends { message: string; extensions?: Record<string, unknown> }>(
  error: E,
): E {
  if (error.extensions?.code !== undefined) return error;
  if (!VARIABLE_ERROR.test(error.message) && !LIMIT_ERROR.test(error.message)) return error;
  if (error instanceof GraphQLError) {
    return new GraphQLError(error.message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      extensions: { ...error.extensions, code: "BAD_USER_INPUT" },
    }) as unknown as E;
  }
  return { ...error, extensions: { ...(error.extensions ?? {}), code: "BAD_USER_INPUT" } };
}

/**
 * Yoga's `maskError`: GraphQL errors of our own (and parse/validation errors) pass unchanged;
 * a resolver's typed error becomes its message with its code; anything else is masked.
 */
export function maskError(
  error: unknown,
  message: string,
  onUnexpected: (error: unknown) => void = () => {},
): GraphQLError {
  if (error instanceof GraphQLError) {
    const original = error.originalError;
    // GraphQL's own (parse, validation) and ours (thrown as GraphQLError with a code): unchanged.
    if (!original || original instanceof GraphQLError) return error;
    const code = codeOf(original);
    if (code) {
      return new GraphQLError(original.message, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        extensions: { code },
      });
    }
    onUnexpected(original ?? error);
    return new GraphQLError(message, {
      nodes: error.nodes,
      positions: error.positions,
      source: error.source,
      path: error.path,
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    });
  }
  const code = codeOf(error);
  if (code) return gqlError(code, (error as Error).message);
  onUnexpected(error);
  return new GraphQLError(message, { extensions: { code: "INTERNAL_SERVER_ERROR" } });
}
