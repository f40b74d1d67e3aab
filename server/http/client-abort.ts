import type { Context } from "hono";
import type { Logger } from "pino";

/**
 * A client that closes the connection before its request body arrived (an aborted upload) is
 * not a server failure: it is logged once per request at `info`, without a stack, instead of as
 * an error with one.
 */
export function isClientAbort(error: unknown, c: Context): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    (code === "ECONNRESET" && error.message === "aborted") ||
    (error.name === "AbortError" && c.req.raw.signal.aborted)
  );
}

/** Logs a request that failed: one info line for a client abort, else an error with the stack. */
export function logRequestFailure(logger: Logger, c: Context, error: unknown, message: string): void {
  if (isClientAbort(error, c)) {
    logger.info({ path: c.req.path, method: c.req.method }, "request aborted by the client");
  } else {
    logger.error({ err: error, path: c.req.path }, message);
  }
}
