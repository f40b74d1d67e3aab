/**
 * The API rate limits on HTTP (decision 014): every REST request under `/api/*` (except Better
 * Auth's `/api/auth/*`, which has its own limits and lockout, and the health check), every
 * `/graphql` request, page data (`*.data`) and page actions are charged to the caller and the
 * client address before anything else runs. Over a limit → 429 with Retry-After and RateLimit
 * headers, in the REST error envelope (`{error:{code:"RATE_LIMITED"}}`) or, on `/graphql`, as a
 * GraphQL error with `extensions.code` RATE_LIMITED. GraphQL cost and mutations are charged later,
 * once the document is known (`server/graphql/yoga.ts`), to the caller stored here.
 *
 * The caller is found without the full identity check, and cached: a session cookie (its
 * signature verified) → the session's user; a bearer token → its verified subject; an API key →
 * a hash of the key. A credential that turns out invalid is refused by the handler anyway.
 */
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { normaliseIp } from "../auth/client-ip.ts";
import { bearerToken } from "../auth/identity.ts";
import { API_VERSION } from "../graphql/limits.ts";
import { type RateCaller, type RateVerdict, rateLimitMessage } from "../modules/rate-limits/rate-limits.ts";
import type { Runtime } from "../runtime.ts";
import { errorEnvelope } from "./toolkit.ts";

export type { RateCaller };

/** The variable the caller is kept in for `/graphql` (Hono context). */
export const RATE_CALLER = "rateCaller";

const CACHE_MAX = 10_000;
const POSITIVE_TTL_MS = 5 * 60_000;
const NEGATIVE_TTL_MS = 10_000;

const digest = (value: string) => createHash("sha256").update(value).digest("base64url").slice(0, 32);

/** A bounded map whose entries expire (oldest dropped first when full). */
function expiringCache<V>() {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(key: string): V | undefined {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.until <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return hit.value;
    },
    set(key: string, value: V, ttlMs: number): void {
      if (entries.size >= CACHE_MAX) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, until: Date.now() + ttlMs });
    },
  };
}

/** Finds who a request is charged to: a verified user or key, or null (a visitor). */
export function createRateCallers(runtime: Pick<Runtime, "tokens" | "authSecurity" | "accounts">) {
  const sessions = expiringCache<string | null>();
  const tokens = expiringCache<string>();
  const guard = runtime.authSecurity.guard;

  async function sessionUser(headers: Headers): Promise<string | null> {
    const token = await guard.tokenFrom(headers);
    if (!token) return null;
    const key = digest(token);
    const cached = sessions.get(key);
    if (cached !== undefined) return cached;
    const userId = await runtime.accounts.sessionUserId(token);
    const user = userId ? `u:${userId}` : null;
    sessions.set(key, user, user ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS);
    return user;
  }

  async function tokenSubject(token: string): Promise<string> {
    const key = digest(token);
    const cached = tokens.get(key);
    if (cached !== undefined) return cached;
    let subject = `t:${key}`;
    const id = await runtime.tokens.verify(token, "id");
    if (id && typeof id.sub === "string") subject = `u:${id.sub}`;
    else {
      const service = await runtime.tokens.verify(token, "service");
      if (service && typeof service.client_id === "string") subject = `s:${service.client_id}`;
    }
    tokens.set(key, subject, POSITIVE_TTL_MS);
    return subject;
  }

  return {
    async identify(headers: Headers, clientIp: string): Promise<RateCaller> {
      const address = normaliseIp(clientIp);
      const token = bearerToken(headers.get("authorization"));
      if (token !== null) return { user: token ? await tokenSubject(token) : null, address };
      const apiKey = headers.get("x-api-key");
      if (apiKey !== null) return { user: `k:${digest(apiKey.trim())}`, address };
      if (!headers.get("cookie")?.includes(guard.cookieName)) return { user: null, address };
      try {
        return { user: await sessionUser(headers), address };
      } catch {
        return { user: null, address };
      }
    },
  };
}

/** What a request costs: a read, a write, or nothing (Better Auth, health, pages, static files). */
export function requestKind(method: string, path: string): "read" | "write" | null {
  const reading = method === "GET" || method === "HEAD" || method === "OPTIONS";
  if (path === "/graphql") return "read"; // mutations are charged as writes once the document is known
  if (path.startsWith("/api/")) {
    if (path.startsWith("/api/auth/") || path === "/api/health") return null;
    // The editor's live preview is a POST (the body is large) but changes nothing: a read.
    if (path === "/api/studio/render") return "read";
    return reading ? "read" : "write";
  }
  if (path.endsWith(".data")) return reading ? "read" : "write";
  return reading ? null : "write"; // page actions
}

/** RateLimit headers (IETF draft: limit, remaining, seconds to reset) and Retry-After. */
export function rateLimitHeaders(verdict: RateVerdict): Record<string, string> {
  if (!verdict.ok) {
    return {
      "Retry-After": String(verdict.retryAfterS),
      "RateLimit-Limit": String(verdict.limit),
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": String(verdict.retryAfterS),
    };
  }
  if (verdict.limit === 0) return {};
  return {
    "RateLimit-Limit": String(verdict.limit),
    "RateLimit-Remaining": String(verdict.remaining),
    "RateLimit-Reset": String(verdict.resetS),
  };
}

/** The 429 answer: the GraphQL error shape on `/graphql`, the REST envelope elsewhere. */
export function tooManyRequests(path: string, verdict: Extract<RateVerdict, { ok: false }>): Response {
  const message = rateLimitMessage(verdict);
  const body =
    path === "/graphql"
      ? {
          errors: [{ message, extensions: { code: "RATE_LIMITED", retryAfter: verdict.retryAfterS } }],
          extensions: { apiVersion: API_VERSION },
        }
      : errorEnvelope("RATE_LIMITED", message);
  return new Response(JSON.stringify(body), {
    status: 429,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...rateLimitHeaders(verdict),
    },
  });
}

/** The middleware; `clientIp` must already be set on the context (app.ts). */
export function rateLimitMiddleware(
  runtime: Pick<Runtime, "tokens" | "authSecurity" | "accounts" | "rateLimits">,
  // biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
): MiddlewareHandler<any> {
  const callers = createRateCallers(runtime);
  return async (c: Context, next) => {
    const kind = requestKind(c.req.method, c.req.path);
    if (!kind) return next();
    const caller = await callers.identify(c.req.raw.headers, c.get("clientIp") ?? "unknown");
    const verdict = await runtime.rateLimits.charge(caller, kind === "read" ? { read: 1 } : { write: 1 });
    if (!verdict.ok) return tooManyRequests(c.req.path, verdict);
    c.set(RATE_CALLER, caller);
    await next();
    const headers = rateLimitHeaders(verdict);
    try {
      for (const [name, value] of Object.entries(headers)) {
        if (!c.res.headers.has(name)) c.res.headers.set(name, value);
      }
    } catch {
      // immutable headers (a fetched response passed through): left without RateLimit headers
    }
  };
}
