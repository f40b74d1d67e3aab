/**
 * The HTTP toolkit of the REST modules: the one error envelope and the one mapping of the error
 * family (`server/errors.ts`) to it, body reading with a size limit, the same-origin check for
 * cookie-authenticated writes, and the request wrapper that ties them together.
 *
 * Every REST error answer is `{ "error": { "code", "message", "field"?: {name: problem},
 * "retryAfterS"? } }` with `Cache-Control: no-store`.
 */
import type { Context } from "hono";
import type { Logger } from "pino";
import { normaliseIp } from "../auth/client-ip.ts";
import type { ActorResult } from "../auth/identity.ts";
import { CLIENT_IP_HEADER } from "../auth/session-guard.ts";
import {
  AppError,
  type FieldErrors,
  PayloadTooLargeError,
  RateLimitedError,
  STATUS_BY_CODE,
  UnsupportedMediaTypeError,
} from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import { logRequestFailure } from "./client-abort.ts";

/** Largest JSON body of the REST APIs unless an endpoint says otherwise. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** The statuses an error answer takes. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 429 | 500 | 503;

/** The REST error envelope. */
export interface ErrorEnvelope {
  error: { code: string; message: string; field?: FieldErrors; retryAfterS?: number };
}

export function errorEnvelope(
  code: string,
  message: string,
  extra: { field?: FieldErrors; retryAfterS?: number } = {},
): ErrorEnvelope {
  const error: ErrorEnvelope["error"] = { code, message };
  if (extra.field && Object.keys(extra.field).length) error.field = extra.field;
  if (extra.retryAfterS !== undefined) error.retryAfterS = extra.retryAfterS;
  return { error };
}

/** The envelope as a Response, for code that has no Hono context (or sets its own headers). */
export function errorResponse(
  status: ErrorStatus,
  code: string,
  message: string,
  options: { field?: FieldErrors; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(errorEnvelope(code, message, { field: options.field })), {
    status,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      ...options.headers,
    },
  });
}

/** Answers the envelope (no-store). */
export function fail(c: Context, status: ErrorStatus, code: string, message: string, field?: FieldErrors) {
  c.header("Cache-Control", "no-store");
  return c.json(errorEnvelope(code, message, { field }), status);
}

/**
 * The one mapping of an error to an HTTP answer: an error of the family (or anything carrying a
 * known `code`) → its status and envelope; a rate limit adds Retry-After; anything else (and the
 * family's 500 codes) → 500 INTERNAL without details, logged.
 */
export function sendError(
  c: Context,
  error: unknown,
  logger: Logger,
  logMessage = "request failed",
): Response {
  const code = (error as { code?: unknown } | null)?.code;
  const status =
    error instanceof AppError
      ? error.status
      : typeof code === "string" && Object.hasOwn(STATUS_BY_CODE, code)
        ? STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE]
        : 500;
  if (status === 500) {
    logRequestFailure(logger, c, error, logMessage);
    return fail(c, 500, "INTERNAL", "An unexpected error occurred");
  }
  const field = error instanceof AppError ? error.field : undefined;
  const retryAfterS = error instanceof RateLimitedError ? error.retryAfterS : undefined;
  if (retryAfterS !== undefined) c.header("Retry-After", String(retryAfterS));
  c.header("Cache-Control", "no-store");
  return c.json(errorEnvelope(code as string, (error as Error).message, { field, retryAfterS }), status);
}

// --- Bodies --------------------------------------------------------------------------------------

/** Reads a request body up to `limit` bytes; null when it is larger (declared or streamed). */
export async function readLimited(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The "larger than N KB" message of a body limit. */
export const tooLargeMessage = (limit: number) => `The request body is larger than ${limit / 1024} KB.`;

/** The bytes of a body as a JSON object; throws INVALID_JSON or INVALID_BODY (400). */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new AppError("INVALID_JSON", "The request body is not valid JSON.");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new AppError("INVALID_BODY", "The request body must be a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

/**
 * The JSON object body of a request. Throws 415 when `requireJsonType` and the Content-Type is
 * not JSON, 413 past `limit` bytes, 400 INVALID_JSON / INVALID_BODY otherwise.
 */
export async function readJsonObject(
  c: Context,
  options: { limit?: number; requireJsonType?: boolean; tooLarge?: string } = {},
): Promise<Record<string, unknown>> {
  const limit = options.limit ?? JSON_BODY_LIMIT;
  if (options.requireJsonType) {
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().includes("application/json")) {
      throw new UnsupportedMediaTypeError("Send a JSON body.");
    }
  }
  const bytes = await readLimited(c.req.raw, limit);
  if (bytes === null) throw new PayloadTooLargeError(options.tooLarge ?? tooLargeMessage(limit));
  return parseJsonObject(bytes);
}

// --- Origin --------------------------------------------------------------------------------------

/** What the origin check needs: the configured public address. */
export interface OriginDeps {
  env: { PUBLIC_URL?: string };
}

/** The origins this app answers as: its own (from Host) and PUBLIC_URL. */
export function allowedOrigins(c: Context, deps: OriginDeps): Set<string> {
  const set = new Set<string>();
  const host = c.req.header("host");
  if (host) set.add(`${new URL(c.req.url).protocol}//${host}`);
  if (deps.env.PUBLIC_URL) set.add(new URL(deps.env.PUBLIC_URL).origin);
  return set;
}

/** Origin, or the origin of Referer, of a request (null when neither parses). */
export function requestOrigin(c: Context): string | null {
  const origin = c.req.header("origin");
  if (origin && origin !== "null") return origin;
  const referer = c.req.header("referer");
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

/** Whether a request comes from this app's pages (its Origin or Referer is one of ours). */
export function isSameOrigin(c: Context, deps: OriginDeps): boolean {
  const origin = requestOrigin(c);
  return origin !== null && allowedOrigins(c, deps).has(origin);
}

export const FOREIGN_ORIGIN_MESSAGE = "This request did not come from this site, so it was refused.";

/** null when the request comes from this app; else the 403 FORBIDDEN_ORIGIN answer (CSRF). */
export function refuseForeignOrigin(c: Context, deps: OriginDeps): Response | null {
  return isSameOrigin(c, deps) ? null : fail(c, 403, "FORBIDDEN_ORIGIN", FOREIGN_ORIGIN_MESSAGE);
}

// --- Requests ------------------------------------------------------------------------------------

/** The client address the app recorded for this request (normalised). */
export const ipOf = (c: Context) => normaliseIp(c.get("clientIp") as string | undefined);

/** The request's headers with the client address header identity reads. */
export function actorHeaders(c: Context): Headers {
  const headers = new Headers(c.req.raw.headers);
  headers.set(CLIENT_IP_HEADER, ipOf(c));
  return headers;
}

export type HandlerDeps = OriginDeps & { logger: Logger };

/**
 * The request wrapper of the REST modules: answers `no-store`, refuses state changes from another
 * Origin (`mutates`), and maps whatever `fn` throws through `sendError`.
 */
export function handler(
  deps: HandlerDeps,
  fn: (c: Context) => Promise<Response>,
  opts: { mutates?: boolean; logMessage?: string } = {},
) {
  return async (c: Context): Promise<Response> => {
    c.header("Cache-Control", "no-store");
    if (opts.mutates) {
      const refused = refuseForeignOrigin(c, deps);
      if (refused) return refused;
    }
    try {
      return await fn(c);
    } catch (error) {
      return sendError(c, error, deps.logger, opts.logMessage);
    }
  };
}

export type PersonHandlerDeps = HandlerDeps & {
  identity: { resolveActor(headers: Headers): Promise<ActorResult> };
};

export interface PersonHandlerOptions {
  /** A state change: a cookie-authenticated (or unauthenticated) request needs this app's Origin. */
  mutates: boolean;
  /** The 401 message for a visitor; null lets visitors through (a view beacon). */
  signIn: string | null;
  /** The 403 message for an API key or a service token, which act for no person. */
  notAPerson: string;
  logMessage?: string;
}

/**
 * The wrapper of a REST route that acts for a person (their plan, their likes, their
 * organisation): `no-store`; the Origin check on cookie writes (CSRF); the caller resolved once
 * (a bad credential: its 401 or 429); API keys and service tokens refused (403); visitors refused
 * (401) unless `signIn` is null; whatever `fn` throws mapped through `sendError`.
 */
export function personHandler(
  deps: PersonHandlerDeps,
  fn: (c: Context, actor: Actor) => Promise<Response>,
  opts: PersonHandlerOptions,
) {
  return async (c: Context): Promise<Response> => {
    c.header("Cache-Control", "no-store");
    const credentialed =
      c.req.header("authorization") !== undefined || c.req.header("x-api-key") !== undefined;
    if (opts.mutates && !credentialed) {
      const refused = refuseForeignOrigin(c, deps);
      if (refused) return refused;
    }
    try {
      const result = await deps.identity.resolveActor(actorHeaders(c));
      if (!result.ok) {
        if (result.retryAfterS !== undefined) c.header("Retry-After", String(result.retryAfterS));
        return fail(c, result.status, result.code, result.message);
      }
      const { actor } = result;
      if (actor.kind === "api-key" || actor.kind === "service")
        return fail(c, 403, "FORBIDDEN", opts.notAPerson);
      if (actor.kind === "visitor" && opts.signIn !== null)
        return fail(c, 401, "UNAUTHENTICATED", opts.signIn);
      return await fn(c, actor);
    } catch (error) {
      return sendError(c, error, deps.logger, opts.logMessage);
    }
  };
}
