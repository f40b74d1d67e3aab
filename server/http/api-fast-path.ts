/**
 * Visitors' API reads answered at the `node:http` level (decision 025), like visitors' pages
 * (`page-fast-path.ts`): `GET /api/content`, `GET /api/content/{id or slug}` and GraphQL queries
 * (`POST /graphql` with a JSON body) from a caller with no credential at all are the same for
 * every visitor, so the app's 200 answer is stored once (every coding, final headers) and replayed.
 *
 * What the app does per request still happens on a hit: the request is counted, charged to the
 * client address's rate limits (one read, and a GraphQL query's cost as the app charged it on the
 * miss), answered with the RateLimit headers of those charges or with the app's 429, and carries
 * the security headers. Stored answers are dropped on every content revision and after 30 s.
 *
 * A visitor here is stricter than the app's rule: no `Authorization` or `X-API-Key` header at
 * all (even empty) and no session cookie. Everything else (credentials, misses, HEAD, other
 * routes, other body types, a body over 8 KiB or without a Content-Length) goes to the app.
 */
import { createHash } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { normaliseIp } from "../auth/client-ip.ts";
import type { RateUnits, RateVerdict } from "../modules/rate-limits/rate-limits.ts";
import type { Runtime } from "../runtime.ts";
import {
  answerFromCache,
  type CachedPage,
  createPageCache,
  headersOf,
  type PageCache,
} from "./page-cache.ts";
import { rateLimitHeaders, tooManyRequests } from "./rate-limit.ts";
import { securityHeaders } from "./security-headers.ts";

/** Largest GraphQL body whose answer is stored (and looked up). */
export const GRAPHQL_CACHE_MAX_BODY = 8 * 1024;

export type ApiCache = PageCache;

/** `/api/content` or `/api/content/<one segment>` (not `/api/content/<id>/body`). */
const CONTENT_READ = /^\/api\/content(?:\/[^/?#]+)?(?:\?|$)/;
const JSON_REQUEST = /^application\/json\s*(?:;|$)/i;

/** Whether these request headers carry no credential of any kind (the visitors' API cache rule). */
export function visitorHeaders(header: (name: "cookie" | "authorization" | "x-api-key") => unknown): boolean {
  const cookie = header("cookie");
  return (
    header("authorization") == null &&
    header("x-api-key") == null &&
    !(typeof cookie === "string" && cookie.includes("session_token"))
  );
}

/** Whether a GET target is one of the cached content reads. */
export const isContentRead = (target: string) => CONTENT_READ.test(target);

/** Whether a GraphQL POST may be looked up in (and stored to) the cache: JSON, small, exact target. */
export function graphqlCacheable(contentType: string | null | undefined, bodyBytes: number): boolean {
  return JSON_REQUEST.test(contentType ?? "") && bodyBytes > 0 && bodyBytes <= GRAPHQL_CACHE_MAX_BODY;
}

/** The cache key of a GraphQL request: its Accept (Yoga answers a media type by it) and body bytes. */
export function graphqlCacheKey(accept: string | null | undefined, body: Uint8Array): string {
  return `graphql:${createHash("sha256")
    .update(accept ?? "")
    .update("\n")
    .update(body)
    .digest("base64url")}`;
}

/**
 * The visitors' API cache: JSON answers, 30 s each, 2,000 entries and 16 MiB at most (every
 * coding counted), dropped on every content revision and on this process's content writes;
 * listed on /super-admin/infrastructure.
 */
export function createVisitorApiCache(
  runtime: Pick<Runtime, "env" | "contentChanges" | "processMetrics"> & {
    services: { contentModels: Pick<Runtime["services"]["contentModels"], "localWrites"> };
  },
) {
  const https = runtime.env.PUBLIC_URL?.startsWith("https://") ?? false;
  // JSON runs no scripts: the replayed policy allows none inline (no nonce).
  const replay = securityHeaders("", { https });
  replay["Content-Security-Policy"] = replay["Content-Security-Policy"]!.replace(" 'nonce-'", "");
  const cache = createPageCache({
    ttlMs: 30_000,
    maxEntries: 2_000,
    maxBytes: 256 * 1024,
    maxTotalBytes: 16 * 1024 * 1024,
    contentType: /^application\/(?:graphql-response\+)?json\s*(?:;|$)/i,
    replayHeaders: () => replay,
  });
  // Any process's content change (the polled revision), and this process's writes at once.
  runtime.contentChanges.subscribe(() => cache.invalidate());
  runtime.services.contentModels.localWrites.subscribe(() => cache.invalidate());
  runtime.processMetrics.registerCache(
    "api-cache",
    "Visitors' content API and GraphQL answers (JSON, every coding)",
    () => cache.stats(),
  );
  return { cache, replay };
}

export interface ApiFastPathDeps {
  cache: ApiCache;
  /** The security headers the app adds to every answer (for a 429 answered here). */
  replay: Record<string, string>;
  rateLimits: { charge(caller: { user: null; address: string }, units: RateUnits): Promise<RateVerdict> };
  countRequest: () => void;
  trustProxy: boolean;
  logger: Pick<Logger, "info">;
}

/** The client address as the app finds it (`clientAddress` in app.ts), normalised like the rate limits. */
function addressOf(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = (req.headers["x-forwarded-for"] as string | undefined)?.split(",").at(-1)?.trim();
    if (forwarded) return normaliseIp(forwarded);
  }
  return normaliseIp(req.socket.remoteAddress ?? "unknown");
}

const flat = (headers: Record<string, string>) => Object.entries(headers).flat();

/**
 * A `node:http` request listener step. Returns false when the request is not for this cache
 * (the caller hands it on untouched); true when it took the request: a hit is answered here, and a
 * GraphQL miss is handed to `app` with its body already read (`rawBody`, which the Hono adapter reads).
 */
export function cachedApiResponder(
  deps: ApiFastPathDeps,
): (
  req: IncomingMessage,
  res: ServerResponse,
  app: (req: IncomingMessage, res: ServerResponse) => void,
) => boolean {
  const { cache } = deps;

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    entry: CachedPage,
    path: "/graphql" | "/api/content",
  ): Promise<void> {
    const headers = req.headers;
    const caller = { user: null, address: addressOf(req, deps.trustProxy) };
    let verdict = await deps.rateLimits.charge(caller, { read: 1 });
    let limits = rateLimitHeaders(verdict);
    if (verdict.ok && entry.graphqlCost) {
      verdict = await deps.rateLimits.charge(caller, {
        graphqlCost: entry.graphqlCost,
        write: 0,
        comment: 0,
      });
      limits = { ...limits, ...rateLimitHeaders(verdict) };
    }
    deps.countRequest();
    if (!verdict.ok) {
      const refused = tooManyRequests(path, verdict);
      const body = new Uint8Array(await refused.arrayBuffer());
      const head: string[] = [];
      refused.headers.forEach((value, name) => {
        head.push(name, value);
      });
      head.push(...flat(deps.replay), "Vary", "Accept-Encoding", "Content-Length", String(body.byteLength));
      res.writeHead(429, head);
      res.end(body);
      return;
    }
    // A POST is never answered 304 (the app validates GET reads only).
    const cached = answerFromCache(
      entry,
      headers["accept-encoding"],
      path === "/graphql" ? undefined : headers["if-none-match"],
      false,
    );
    res.writeHead(cached.status, [...cached.head, ...flat(limits)]);
    res.end(cached.body ?? undefined);
  }

  const fail = (res: ServerResponse) => (error: unknown) => {
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end("Internal error");
    } else res.destroy(error as Error);
  };

  return (req, res, app) => {
    const target = req.url ?? "";
    const method = req.method;
    const headers: IncomingHttpHeaders = req.headers;
    if (method === "GET") {
      if (!isContentRead(target) || !visitorHeaders((name) => headers[name])) return false;
      const entry = cache.get(target);
      if (!entry) return false;
      answer(req, res, entry, "/api/content").catch(fail(res));
      return true;
    }
    if (method !== "POST" || target !== "/graphql" || !visitorHeaders((name) => headers[name])) return false;
    const declared = Number(headers["content-length"]);
    if (
      headers["transfer-encoding"] !== undefined ||
      !Number.isInteger(declared) ||
      !graphqlCacheable(headers["content-type"], declared)
    ) {
      return false;
    }
    // Small and of known length: read it here, look it up, and hand a miss to the app with the bytes.
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      chunks.push(chunk);
    });
    // A client that goes away mid-body is logged as the app logs it (`client-abort.ts`).
    req.once("error", () => {});
    req.once("close", () => {
      if (req.complete) return;
      deps.logger.info({ path: "/graphql", method: "POST" }, "request aborted by the client");
      res.destroy();
    });
    req.once("end", () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      const entry = size === declared ? cache.get(graphqlCacheKey(headers.accept, body)) : null;
      if (entry) {
        answer(req, res, entry, "/graphql").catch(fail(res));
        return;
      }
      (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
      app(req, res);
    });
    return true;
  };
}

/** What the app's answer of a stored miss sends: the cache's X-Cache is replaced by "miss". */
const STORED_OWN = new Set(["x-cache"]);

/**
 * The app's side for the REST reads: after the route answered a visitor's GET with 200 (and no
 * cookie), the answer is stored under the request's path and query and sent in the stored coding.
 * Registered after the rate-limit middleware, so the stored answer has no RateLimit headers.
 */
export function storeVisitorContentReads(cache: ApiCache): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "GET" || !visitorHeaders((name) => c.req.header(name))) return next();
    const url = new URL(c.req.url);
    const key = url.pathname + url.search;
    const renderedAt = cache.generation;
    await next();
    const res = c.res;
    if (res.status !== 200 || res.headers.has("set-cookie")) return;
    const { body, page } = await cache.put(key, res, renderedAt, "");
    const out = page
      ? answerFromCache(page, c.req.header("accept-encoding"), c.req.header("if-none-match"), false)
      : null;
    const headers = out ? headersOf(out.head, STORED_OWN) : new Headers(res.headers);
    headers.set("X-Cache", "miss");
    c.res = undefined as unknown as Response;
    c.res = out
      ? new Response(out.body, { status: out.status, headers })
      : new Response(body, { status: res.status, headers });
  };
}

/**
 * The app's side for GraphQL (`graphql/http.ts`): a visitor's query answered 200 without errors,
 * charged as `charged`, is stored under its body's key. Returns the answer to send (the body has
 * been read).
 */
export async function storeVisitorQuery(
  cache: ApiCache,
  key: string,
  response: Response,
  renderedAt: number,
  graphqlCost: number,
): Promise<Response> {
  const text = await response.text();
  let errors = true;
  try {
    const parsed = JSON.parse(text) as { errors?: unknown };
    errors = parsed === null || typeof parsed !== "object" || parsed.errors !== undefined;
  } catch {
    // not JSON: not stored
  }
  const copy = new Response(text, response);
  if (errors || response.status !== 200) return copy;
  await cache.put(key, new Response(text, response), renderedAt, "", { graphqlCost });
  copy.headers.set("X-Cache", "miss");
  return copy;
}
