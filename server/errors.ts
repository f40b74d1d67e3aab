/**
 * The one error family of the server. Operations (services, repositories, the database layer,
 * the HTTP toolkit) throw these; the transports map them once each: HTTP in
 * `server/http/toolkit.ts` (`sendError`), GraphQL in `server/graphql/errors.ts` (`maskError`).
 *
 * Each error carries a stable `code`, the HTTP `status` it answers with, a `message` safe to show
 * to a client (it names the entity and the field, never SQL or values) and, for bad input, an
 * optional `field` map (field name → what is wrong with it).
 */
import type { z } from "zod";

/** HTTP status of each code. 500 codes are never shown to a client (answered as INTERNAL). */
export const STATUS_BY_CODE = {
  BAD_USER_INPUT: 400,
  INVALID_JSON: 400,
  INVALID_BODY: 400,
  INVALID_PASSWORD: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  FORBIDDEN_ORIGIN: 403,
  SESSION_NOT_FRESH: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  STALE_VERSION: 409,
  INVALID_TRANSITION: 409,
  NO_SEATS: 409,
  PAYMENT_PENDING: 409,
  PLAN_UNAVAILABLE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  TOO_MANY_ATTEMPTS: 429,
  DATA_INTEGRITY: 500,
  PROVIDER_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;
export type ErrorStatus = (typeof STATUS_BY_CODE)[ErrorCode];

/** Field name → what is wrong with it (a message for the form next to that field). */
export type FieldErrors = Record<string, string>;

export interface AppErrorOptions {
  field?: FieldErrors;
  details?: unknown;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  /** For bad input: the fields at fault, each with its problem. */
  readonly field: FieldErrors | undefined;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options?: AppErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.field = options?.field;
    this.details = options?.details;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The addressed record does not exist. */
export class NotFoundError extends AppError {
  declare readonly code: "NOT_FOUND";
  readonly entity: string;

  constructor(entity: string, key?: string, options?: { cause?: unknown }) {
    super("NOT_FOUND", key === undefined ? `${entity} not found` : `${entity} not found: ${key}`, options);
    this.entity = entity;
  }
}

/**
 * A write lost a race or broke a uniqueness rule: a stale `version` (optimistic concurrency) or a
 * duplicate natural key such as a slug. The stored record is unchanged.
 */
export class ConflictError extends AppError {
  declare readonly code: "CONFLICT";

  constructor(message: string, options?: AppErrorOptions) {
    super("CONFLICT", message, options);
  }
}

/**
 * A save carried a `version` that is no longer the stored one: someone else saved in between. The
 * message names who and when; the stored record is unchanged and the caller keeps their text.
 */
export class StaleVersionError extends AppError {
  declare readonly code: "STALE_VERSION";

  constructor(message: string, options?: AppErrorOptions) {
    super("STALE_VERSION", message, options);
  }
}

/** A workflow action that cannot start from the item's current state (decision 017). */
export class InvalidTransitionError extends AppError {
  declare readonly code: "INVALID_TRANSITION";

  constructor(message: string, options?: AppErrorOptions) {
    super("INVALID_TRANSITION", message, options);
  }
}

/** The caller passed something malformed: a cursor, a JSON field, a reference to nothing. */
export class BadInputError extends AppError {
  declare readonly code: "BAD_USER_INPUT";

  constructor(message: string, options?: AppErrorOptions) {
    super("BAD_USER_INPUT", message, options);
  }
}

/** A stored value failed validation on read (for example a JSON column holding the wrong shape). */
export class DataIntegrityError extends AppError {
  declare readonly code: "DATA_INTEGRITY";

  constructor(message: string, options?: AppErrorOptions) {
    super("DATA_INTEGRITY", message, options);
  }
}

/** The actor is known but may not do this (a service access rule refused it). */
export class ForbiddenError extends AppError {
  declare readonly code: "FORBIDDEN";

  constructor(message = "not allowed", options?: AppErrorOptions) {
    super("FORBIDDEN", message, options);
  }
}

/** The operation needs a signed-in user (a session or a bearer ID token) and there is none. */
export class UnauthenticatedError extends AppError {
  declare readonly code: "UNAUTHENTICATED";

  constructor(message = "sign in first", options?: AppErrorOptions) {
    super("UNAUTHENTICATED", message, options);
  }
}

/** Too many requests: the caller may retry after `retryAfterS` seconds. */
export class RateLimitedError extends AppError {
  declare readonly code: "RATE_LIMITED";
  readonly retryAfterS: number;

  constructor(message: string, retryAfterS: number, options?: AppErrorOptions) {
    super("RATE_LIMITED", message, options);
    this.retryAfterS = retryAfterS;
  }
}

/** The request body is larger than the endpoint accepts. */
export class PayloadTooLargeError extends AppError {
  declare readonly code: "PAYLOAD_TOO_LARGE";

  constructor(message: string, options?: AppErrorOptions) {
    super("PAYLOAD_TOO_LARGE", message, options);
  }
}

/** The request body is of a type the endpoint does not read. */
export class UnsupportedMediaTypeError extends AppError {
  declare readonly code: "UNSUPPORTED_MEDIA_TYPE";

  constructor(message: string, options?: AppErrorOptions) {
    super("UNSUPPORTED_MEDIA_TYPE", message, options);
  }
}

/** The codes of the organisation and profile operations (besides the common ones above). */
export type ServiceErrorCode =
  | "BAD_USER_INPUT"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "SESSION_NOT_FRESH"
  | "INVALID_PASSWORD"
  | "NO_SEATS"
  | "PAYMENT_PENDING"
  | "PLAN_UNAVAILABLE"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "TOO_MANY_ATTEMPTS";

/**
 * An error of the organisations, profile and engagement operations named by its code
 * (SESSION_NOT_FRESH, INVALID_PASSWORD, NO_SEATS, TOO_MANY_ATTEMPTS, or a common one), with the
 * field map for BAD_USER_INPUT.
 */
export class ServiceError extends AppError {
  declare readonly code: ServiceErrorCode;

  constructor(code: ServiceErrorCode, message: string, field?: FieldErrors) {
    super(code, message, field ? { field } : undefined);
  }
}

/**
 * A zod failure as a BadInputError naming its first issue's field; `format` words the message
 * (each API keeps its own wording) and the field map carries the issue's problem under the field
 * (or under each unknown key).
 */
export function badInputFromZod(
  error: z.ZodError,
  format: {
    /** The field named when the issue has no path ("body", "query"). */
    fallback: string;
    /** The message for the issue, given its field and problem. */
    message: (field: string, problem: string) => string;
    /** The problem of an unknown key (default "unknown field <keys>"). */
    unknownKey?: (keys: string[]) => string;
  },
): BadInputError {
  const issue = error.issues[0]!;
  const unknownKey = issue.code === "unrecognized_keys" ? issue.keys : null;
  const field = issue.path.map(String).join(".") || format.fallback;
  const problem = unknownKey
    ? (format.unknownKey?.(unknownKey) ?? `unknown field ${unknownKey.join(", ")}`)
    : issue.message;
  // An unknown key is the field at fault (the message keeps naming where it was found).
  const fieldMap = unknownKey
    ? Object.fromEntries(unknownKey.map((key) => [key, problem]))
    : { [field]: problem };
  return new BadInputError(format.message(field, problem), { field: fieldMap });
}

// --- Database driver errors ----------------------------------------------------------------------

interface DriverError {
  code?: unknown;
  errcode?: unknown;
  message?: unknown;
}

function asDriverError(error: unknown): DriverError | undefined {
  return typeof error === "object" && error !== null ? (error as DriverError) : undefined;
}

// SQLite extended result codes (https://sqlite.org/rescode.html).
const SQLITE_CONSTRAINT_UNIQUE = 2067;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_FOREIGNKEY = 787;

/** A unique or primary-key violation, on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const e = asDriverError(error);
  if (!e) return false;
  if (e.code === "23505") return true; // PostgreSQL unique_violation
  return e.errcode === SQLITE_CONSTRAINT_UNIQUE || e.errcode === SQLITE_CONSTRAINT_PRIMARYKEY;
}

/** A foreign-key violation, on either dialect. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = asDriverError(error);
  if (!e) return false;
  if (e.code === "23503") return true; // PostgreSQL foreign_key_violation
  return e.errcode === SQLITE_CONSTRAINT_FOREIGNKEY;
}

/**
 * Translates constraint violations into typed errors; anything else is rethrown unchanged.
 * `entity` names the record being written, for the message.
 */
export function rethrowConstraintError(error: unknown, entity: string): never {
  if (isUniqueViolation(error)) {
    throw new ConflictError(`${entity} already exists (a unique field is taken)`, { cause: error });
  }
  if (isForeignKeyViolation(error)) {
    throw new BadInputError(`${entity} refers to a record that does not exist`, { cause: error });
  }
  throw error;
}

/**
 * The payment provider could not be reached or answered with a server error: nothing was done
 * (decision 019). Answered 503 with a message the reader can act on.
 */
export class ProviderUnavailableError extends AppError {
  declare readonly code: "PROVIDER_UNAVAILABLE";

  constructor(
    message = "The payment provider can't be reached right now; nothing was charged. Try again in a few minutes.",
    options?: AppErrorOptions,
  ) {
    super("PROVIDER_UNAVAILABLE", message, options);
  }
}

/** A webhook whose signature does not verify (forged, altered or too old): answered 400. */
export class BadSignatureError extends AppError {
  declare readonly code: "BAD_USER_INPUT";

  constructor(message = "The webhook signature does not verify.", options?: AppErrorOptions) {
    super("BAD_USER_INPUT", message, options);
  }
}
