/**
 * Errors of the repository sources. Unknown branches and paths are the database layer's
 * NotFoundError and malformed ones its BadInputError (the transports already map those codes);
 * a source that refuses for now (rate limit) or cannot be reached has its own types here.
 */
import { AppError } from "../../../errors.ts";

export { BadInputError, NotFoundError } from "../../../errors.ts";

/**
 * GitHub answered 403/429 with its rate-limit headers (or a success with none left): no request is
 * sent before `resetAt`.
 */
export class RateLimitedError extends Error {
  readonly code = "RATE_LIMITED";
  readonly resetAt: Date;

  constructor(resetAt: Date, options?: { cause?: unknown }) {
    super(`GitHub rate limit reached; retry after ${resetAt.toISOString()}`, options);
    this.name = "RateLimitedError";
    this.resetAt = resetAt;
  }
}

/** The source could not be reached or answered with an unexpected status (never a client's fault). */
export class SourceUnavailableError extends Error {
  readonly code = "SOURCE_UNAVAILABLE";
  readonly status: number | null;

  constructor(message: string, options?: { status?: number | null; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SourceUnavailableError";
    this.status = options?.status ?? null;
  }
}

/**
 * A local repository's folder is not on this process's disk (decision 028): with several app
 * processes, only those that have the folder can sync it, and none of them records this over a
 * good sync made elsewhere.
 */
export class LocalFolderMissingError extends SourceUnavailableError {
  constructor(options?: { cause?: unknown }) {
    super("local repository folder not found", options);
    this.name = "LocalFolderMissingError";
  }
}

/** A short, safe description of a sync failure for the `lastSyncError` column (no stack, no token). */
export function describeSourceError(error: unknown): string {
  if (error instanceof RateLimitedError) return error.message;
  if (error instanceof SourceUnavailableError) return error.message;
  if (error instanceof AppError) return error.message;
  return "the source could not be read";
}
