/**
 * Typed errors raised by the database layer and the repositories.
 *
 * Each carries a stable `code` that the transports map once (HTTP status, GraphQL error code).
 * Messages are safe to show to a client: they name the entity and the field, never SQL or values.
 */

export type DbErrorCode =
  | "NOT_FOUND"
  | "CONFLICT"
  | "BAD_USER_INPUT"
  | "DATA_INTEGRITY"
  | "FORBIDDEN"
  | "UNAUTHENTICATED";

export class DbError extends Error {
  readonly code: DbErrorCode;
  readonly details: unknown;

  constructor(code: DbErrorCode, message: string, options?: { details?: unknown; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options?.details;
  }
}

/** The addressed record does not exist. */
export class NotFoundError extends DbError {
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
export class ConflictError extends DbError {
  declare readonly code: "CONFLICT";

  constructor(message: string, options?: { details?: unknown; cause?: unknown }) {
    super("CONFLICT", message, options);
  }
}

/** The caller passed something malformed: a cursor, a JSON field, a reference to nothing. */
export class BadInputError extends DbError {
  declare readonly code: "BAD_USER_INPUT";

  constructor(message: string, options?: { details?: unknown; cause?: unknown }) {
    super("BAD_USER_INPUT", message, options);
  }
}

/** A stored value failed validation on read (for example a JSON column holding the wrong shape). */
export class DataIntegrityError extends DbError {
  declare readonly code: "DATA_INTEGRITY";

  constructor(message: string, options?: { details?: unknown; cause?: unknown }) {
    super("DATA_INTEGRITY", message, options);
  }
}

/** The actor is known but may not do this (a service access rule refused it). */
export class ForbiddenError extends DbError {
  declare readonly code: "FORBIDDEN";

  constructor(message = "not allowed", options?: { details?: unknown; cause?: unknown }) {
    super("FORBIDDEN", message, options);
  }
}

/** The operation needs a signed-in user (a session or a bearer ID token) and there is none. */
export class UnauthenticatedError extends DbError {
  declare readonly code: "UNAUTHENTICATED";

  constructor(message = "sign in first", options?: { details?: unknown; cause?: unknown }) {
    super("UNAUTHENTICATED", message, options);
  }
}

export function isDbError(error: unknown): error is DbError {
  return error instanceof DbError;
}

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
