import type { Context } from "hono";
import type { Runtime } from "../runtime.ts";
import { logRequestFailure } from "./client-abort.ts";

const STATUS_BY_CODE: Record<string, 400 | 401 | 403 | 404 | 409 | 429> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
};

/** Map a typed service error (anything with a known `code`) to an HTTP response; others are 500 without details. */
export function errorResponse(c: Context, error: unknown, runtime: Runtime): Response {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string" && code in STATUS_BY_CODE) {
    return c.json({ error: { code, message: (error as Error).message } }, STATUS_BY_CODE[code]!);
  }
  logRequestFailure(runtime.logger, c, error, "request failed");
  return c.json({ error: { code: "INTERNAL", message: "An unexpected error occurred" } }, 500);
}
