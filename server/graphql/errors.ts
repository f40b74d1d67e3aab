/**
 * GraphQL errors of the data API: every error a client sees carries `extensions.code`, one of
 * UNAUTHENTICATED, FORBIDDEN, BAD_USER_INPUT, NOT_FOUND, CONFLICT, RATE_LIMITED (ours), or
 * GraphQL's own for parse and validation errors; never a stack trace. Typed service errors
 * (`server/db/errors.ts`, `ServiceError`) are mapped here once; anything else is logged and
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

/** The data API code of a typed service or database error; null for anything unexpected. */
export function codeOf(error: unknown): ErrorCode | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (ERROR_CODES as readonly string[]).includes(code)
    ? (code as ErrorCode)
    : null;
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
