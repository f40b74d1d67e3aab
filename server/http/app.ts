import { createHash, timingSafeEqual } from "node:crypto";
import { readdirSync } from "node:fs";
import { getConnInfo } from "@hono/node-server/conninfo";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { AppContexts, RequestMeta } from "../../app/lib/context.ts";
import { CLIENT_IP_HEADER } from "../auth/auth.ts";
import { normaliseIp } from "../auth/client-ip.ts";
import { registerGraphQL } from "../graphql/http.ts";
import { registerSchemaSdl } from "../graphql/sdl.ts";
import type { Runtime } from "../runtime.ts";
import { registerAccountApi } from "./account-api.ts";
import { registerAdminContentApi } from "./admin-content-api.ts";
import { registerAdminRepositoriesApi } from "./admin-repositories-api.ts";
import { registerAdminSubscriptionsApi } from "./admin-subscriptions-api.ts";
import { registerAdminUsersApi } from "./admin-users-api.ts";
import { registerAnalyticsApi } from "./analytics-api.ts";
import { type ApiCache, storeVisitorContentReads } from "./api-fast-path.ts";
import {
  audiencePageKey,
  audiencePageRequest,
  backgroundRenders,
  renderAudiencePage,
} from "./audience-pages.ts";
import { registerAuditApi } from "./audit-api.ts";
import { registerBillingApi } from "./billing-api.ts";
import { registerBookmarksApi } from "./bookmarks-api.ts";
import { isClientAbort, logRequestFailure } from "./client-abort.ts";
import { registerCommentsApi } from "./comments-api.ts";
import { compression } from "./compression.ts";
import { registerContentApi } from "./content-api.ts";
import { registerContentWriteApi } from "./content-write-api.ts";
import { registerCredentialsApi } from "./credentials-api.ts";
import { registerEngagementApi } from "./engagement-api.ts";
import { registerFreshnessApi } from "./freshness-api.ts";
import { registerLearningApi } from "./learning-api.ts";
import { registerMediaApi } from "./media-api.ts";
import { registerModerationApi } from "./moderation-api.ts";
import { registerNotificationsApi } from "./notifications-api.ts";
import { registerObjectsApi } from "./objects-api.ts";
import { registerApiReference } from "./openapi.ts";
import { registerOperationsApi } from "./operations-api.ts";
import { registerOrgApi } from "./org-api.ts";
import { answerFromCache, createPageCache, headersOf, type PageCache } from "./page-cache.ts";
import { anonymousPageRequest } from "./page-fast-path.ts";
import { filterManifestPaths, MANIFEST_PATH, markPrivate, refuseMethod } from "./page-guards.ts";
import { registerPlansApi } from "./plans-api.ts";
import { registerProfileApi } from "./profile-api.ts";
import { rateLimitMiddleware } from "./rate-limit.ts";
import { registerRepositoriesApi } from "./repositories-api.ts";
import { REQUEST_ID_HEADER, requestIdFor, withRequestId } from "./request-context.ts";
import { registerSearchApi } from "./search-api.ts";
import { registerSecurityAdminApi } from "./security-admin-api.ts";
import { createNonce, securityHeaders } from "./security-headers.ts";
import { registerSeoRoutes } from "./seo-routes.ts";
import { registerSettingsApi } from "./settings-api.ts";
import { isPrecompressedCopy, listPrecompressed, staticFiles } from "./static-files.ts";
import { registerStudioApi } from "./studio-api.ts";
import { registerStudioListApi } from "./studio-list-api.ts";
import { registerStudioRenderApi } from "./studio-render-api.ts";
import { allowedOrigins, errorResponse, fail, readLimited, tooLargeMessage } from "./toolkit.ts";
import { registerWebhooksApi } from "./webhooks-api.ts";

/** Sign-in with a verified phone number and password (spec §5: login names are e-mail or phone). */
const PHONE_SIGN_IN_PATH = "/api/auth/sign-in/phone";
/** Code endpoints that also accept `username` instead of `email`. */
const CODE_BY_USERNAME_PATHS = new Set([
  "/api/auth/email-otp/verify-email",
  "/api/auth/email-otp/send-verification-otp",
]);

type Env = { Variables: { nonce: string; clientIp: string } };

/** Largest request body accepted by the auth, account and admin APIs. */
export const AUTH_BODY_LIMIT = 64 * 1024;

/**
 * An answer of ours on a Better Auth endpoint (/api/auth/*): the shape of Better Auth's own errors,
 * `{code, message}`, which its client reads. Every other API answers the toolkit's envelope.
 */
const authError = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ code, message }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });

/** Removes session tokens from Better Auth's JSON answers (sign-in, get-session): cookies carry them. */
function stripTokens(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  delete out.token;
  if (out.session && typeof out.session === "object") {
    const session = { ...(out.session as Record<string, unknown>) };
    delete session.token;
    delete session.fingerprint;
    out.session = session;
  }
  return out;
}

export interface HttpAppOptions {
  runtime: Runtime;
  /** The React Router server build (production build, or a loader for the dev server). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Folder of built client assets; omitted in development (Vite serves them). */
  clientDir?: string;
  mode: "production" | "development" | "test";
  /**
   * The visitors' page cache (`createVisitorPageCache`); the server passes the one its
   * `node:http` fast path answers from. Created here when omitted.
   */
  pageCache?: PageCache;
  /**
   * The visitors' API cache (`createVisitorApiCache`, decision 025) the server's fast path answers
   * from; without it (development, tests of the app alone) API answers are not stored.
   */
  apiCache?: ApiCache;
  /** The signed-in readers' audience pages (`createAudiencePageCache`); created here when omitted. */
  audiencePageCache?: PageCache;
}

/**
 * The visitors' page cache of an app process: 30 s per page, dropped on every content change
 * (on any replica), replayed with the same security headers as a rendered page.
 */
export function createVisitorPageCache(runtime: Runtime): PageCache {
  const pageCache = createRenderedPageCache(runtime, { maxEntries: 500 });
  runtime.processMetrics.attachPageCache(() => pageCache.stats());
  runtime.processMetrics.registerCache("page-cache", "Visitors' pages (rendered HTML, every coding)", () =>
    pageCache.stats(),
  );
  return pageCache;
}

/**
 * The signed-in readers' audience pages (decision 039): one render per audience and content page,
 * 30 s, dropped on every content change like the visitors' pages.
 */
export function createAudiencePageCache(runtime: Runtime): PageCache {
  const pageCache = createRenderedPageCache(runtime, { maxEntries: 1000 });
  runtime.processMetrics.registerCache(
    "audience-pages",
    "Signed-in readers' content pages, one per audience (rendered HTML, every coding)",
    () => pageCache.stats(),
  );
  return pageCache;
}

function createRenderedPageCache(runtime: Runtime, options: { maxEntries: number }): PageCache {
  const https = runtime.env.PUBLIC_URL?.startsWith("https://") ?? false;
  const pageCache = createPageCache({
    ttlMs: 30_000,
    maxEntries: options.maxEntries,
    replayHeaders: (scriptSources, frameSelf) => {
      const headers = securityHeaders("", { https, frameSelf });
      headers["Content-Security-Policy"] = headers["Content-Security-Policy"]!.replace(
        "script-src 'self' 'nonce-'",
        `script-src 'self' ${scriptSources.join(" ")}`,
      );
      return headers;
    },
  });
  runtime.contentChanges.subscribe(() => pageCache.invalidate());
  return pageCache;
}

/** The socket address; a configured trusted proxy's X-Forwarded-For only when TRUST_PROXY=1. */
/**
 * The route a request's metrics are filed under: the pattern of the handler that answered
 * (`/api/content/:idOrSlug`), never the raw path. The catch-all and the middleware that answer
 * early (rate limits, size limits) are filed as page, page data or API by the path's shape.
 */
function metricsRoute(c: Context): string {
  const pattern = matchedRoutes(c)[c.req.routeIndex]?.path ?? "*";
  if (pattern !== "*" && pattern !== "/*") return pattern;
  const path = c.req.path;
  if (path.startsWith("/api/") || path === "/graphql") return "api (other)";
  if (path.endsWith(".data")) return "page data";
  return "page";
}

/** `Authorization: Bearer <token>` with exactly this token (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer ([\x21-\x7e]+)$/.exec(header ?? "")?.[1];
  if (!given) return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(token).digest();
  return timingSafeEqual(a, b);
}

function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

export function createHttpApp(options: HttpAppOptions): Hono<Env> {
  const { runtime } = options;
  const app = new Hono<Env>();
  const https = runtime.env.PUBLIC_URL?.startsWith("https://") ?? false;

  app.onError((error, c) => {
    // A client that went away mid-body (an aborted upload) is one info line, without the stack.
    logRequestFailure(runtime.logger, c, error, "unhandled error");
    if (isClientAbort(error, c)) return c.body(null, 400);
    return fail(c, 500, "INTERNAL", "An unexpected error occurred");
  });

  // First of all: the request's id (its log lines carry it) and, once answered, its metrics.
  const trustProxy = runtime.env.TRUST_PROXY === "1";
  app.use("*", async (c, next) => {
    const requestId = requestIdFor(c.req.header(REQUEST_ID_HEADER), trustProxy);
    const started = performance.now();
    await withRequestId(requestId, next);
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
    runtime.metrics.observeRequest(
      metricsRoute(c),
      c.req.method,
      c.res.status,
      (performance.now() - started) / 1000,
    );
  });

  // Outermost: sees every final response (br/gzip per Accept-Encoding, Vary, ETag/304 on JSON reads).
  app.use("*", compression());

  app.use("*", async (c, next) => {
    runtime.processMetrics.countRequest(); // requests per minute on /super-admin/infrastructure
    // Reject paths that are not valid percent-encoding before anything parses them.
    let decodedPath: string;
    try {
      decodedPath = decodeURIComponent(c.req.path);
    } catch {
      return c.text("Bad request: the URL path is not valid percent-encoding", 400);
    }
    if (decodedPath.includes("\u0000")) {
      return c.text("Bad request: the URL path contains a NUL character (%00)", 400);
    }
    const nonce = createNonce();
    c.set("nonce", nonce);
    c.set("clientIp", clientAddress(c, runtime.env.TRUST_PROXY === "1"));
    await next();
    // A page that asked to be framed by our own pages (a writer's preview) keeps that, nothing more.
    const frameSelf = c.res.headers.get("X-Frame-Options") === "SAMEORIGIN";
    for (const [name, value] of Object.entries(securityHeaders(nonce, { https, frameSelf }))) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
  });

  // Rate limits per user and address on the APIs, page data and page actions (decision 014).
  app.use("*", rateLimitMiddleware(runtime));

  // Visitors' content reads are stored for the server's fast path (server/http/api-fast-path.ts).
  if (options.apiCache) {
    const store = storeVisitorContentReads(options.apiCache);
    app.use("/api/content", store);
    app.use("/api/content/:idOrSlug", store);
  }

  // Prometheus (decision 030): only with METRICS_TOKEN set, and only for its bearer.
  app.get("/metrics", async (c) => {
    c.header("Cache-Control", "no-store");
    const token = runtime.env.METRICS_TOKEN;
    if (!token) return fail(c, 404, "NOT_FOUND", "Metrics are off on this server (set METRICS_TOKEN).");
    if (!bearerMatches(c.req.header("authorization"), token)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      return fail(c, 401, "UNAUTHENTICATED", "Send the metrics token as Authorization: Bearer <token>.");
    }
    const { contentType, body } = await runtime.metrics.render();
    return c.body(body, 200, { "Content-Type": contentType });
  });

  app.get("/api/health", async (c) => {
    const health = await runtime.services.diagnostics.health();
    c.header("Cache-Control", "no-store");
    return c.json(health, health.status === "ok" ? 200 : 503);
  });

  // Size limit for every identity API body (auth, account, admin): 413 with a clear message.
  for (const prefix of ["/api/auth/*", "/api/account/*", "/api/admin/*"]) {
    app.use(prefix, async (c, next) => {
      const declared = Number(c.req.header("content-length") ?? "0");
      if (declared > AUTH_BODY_LIMIT) {
        const message = tooLargeMessage(AUTH_BODY_LIMIT);
        return prefix === "/api/auth/*"
          ? authError(413, "PAYLOAD_TOO_LARGE", message)
          : errorResponse(413, "PAYLOAD_TOO_LARGE", message);
      }
      await next();
    });
  }

  registerCredentialsApi(app, runtime); // before the Better Auth catch-all: owns /api/auth/service-token and /api/auth/jwks

  app.on(["GET", "POST"], "/api/auth/*", async (c) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, normaliseIp(c.get("clientIp")));
    let body: Uint8Array | undefined;
    let authUrl = c.req.url;
    if (c.req.method === "POST") {
      const origin = c.req.header("origin");
      if (origin && origin !== "null" && !allowedOrigins(c, runtime).has(origin)) {
        return authError(
          403,
          "FORBIDDEN_ORIGIN",
          "This request did not come from this site, so it was refused.",
        );
      }
      const read = await readLimited(c.req.raw, AUTH_BODY_LIMIT);
      if (read === null) {
        return authError(413, "PAYLOAD_TOO_LARGE", tooLargeMessage(AUTH_BODY_LIMIT));
      }
      body = read;
      const type = c.req.header("content-type") ?? "";
      if (type.includes("json") && body.byteLength > 0) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
        } catch {
          return authError(400, "INVALID_JSON", "The request body is not valid JSON.");
        }
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
          return authError(400, "INVALID_BODY", "The request body must be a JSON object.");
        }
        const fields = parsed as Record<string, unknown>;
        if (
          CODE_BY_USERNAME_PATHS.has(c.req.path) &&
          fields.email === undefined &&
          typeof fields.username === "string"
        ) {
          // Confirmation codes by username (spec: "e-mail or username + code"): the account's
          // e-mail is looked up here; an unknown username gets the same answer as an unknown e-mail.
          const { username, ...rest } = fields;
          const email = await runtime.accounts.emailForUsername(username);
          body = new TextEncoder().encode(JSON.stringify({ ...rest, email }));
          headers.delete("content-length");
        }
        if (c.req.path === PHONE_SIGN_IN_PATH) {
          // Sign-in by a verified phone number: resolved to the account's e-mail on the server,
          // then the e-mail sign-in runs with its lockout, confirmation and second-factor rules.
          const { phoneNumber, password, ...rest } = parsed as Record<string, unknown>;
          if (typeof phoneNumber !== "string" || !/^\+?[0-9 ()-]{6,24}$/.test(phoneNumber)) {
            return authError(
              400,
              "VALIDATION_ERROR",
              "Enter the phone number in international format, e.g. +15550100.",
            );
          }
          // An unknown number signs in as an address no account has: the same answer and cost.
          const email = await runtime.accounts.emailForVerifiedPhone(phoneNumber);
          body = new TextEncoder().encode(JSON.stringify({ ...rest, email, password }));
          headers.delete("content-length");
          authUrl = new URL("/api/auth/sign-in/email", c.req.url).toString();
        }
      }
    }
    // The session rules (time-outs, device binding) apply to Better Auth's own endpoints too:
    // a session that fails them is revoked before Better Auth reads it.
    if (headers.get("cookie")?.includes(runtime.authSecurity.guard.cookieName)) {
      await runtime.authSecurity.guard.check(headers);
    }
    let response: Response;
    try {
      response = await runtime.auth.handler(
        new Request(authUrl, { method: c.req.method, headers, body: body as BodyInit | undefined }),
      );
    } catch (error) {
      runtime.logger.warn({ err: error, path: c.req.path }, "auth request failed");
      return authError(400, "BAD_REQUEST", "The request could not be processed.");
    }
    if (response.status === 429 && !response.headers.has("retry-after")) {
      const retry = response.headers.get("x-retry-after");
      if (retry) response.headers.set("Retry-After", retry);
    }
    if (response.status >= 500) {
      runtime.logger.error({ path: c.req.path, status: response.status }, "auth endpoint failed");
    }
    const type = response.headers.get("content-type") ?? "";
    if (response.ok && type.includes("application/json")) {
      const text = await response.text();
      let out = text;
      try {
        out = JSON.stringify(stripTokens(JSON.parse(text)));
      } catch {
        // not JSON after all: pass through
      }
      const headersOut = new Headers(response.headers);
      headersOut.delete("content-length");
      return new Response(out, { status: response.status, headers: headersOut });
    }
    return response;
  });

  registerAccountApi(app, runtime);
  registerOrgApi(app, runtime);
  registerBillingApi(app, runtime); // /api/billing/*, /api/admin/billing/*, the Stripe webhook
  registerAdminRepositoriesApi(app, runtime); // /api/admin/repositories*: platform admins
  registerAdminSubscriptionsApi(app, runtime); // /api/admin/subscriptions* (platform admins)
  registerAdminUsersApi(app, runtime); // /api/admin/users* (admins; organisation admins: own members)
  registerSettingsApi(app, runtime); // /api/admin/settings: platform admins read, the owner changes
  registerAdminContentApi(app, runtime); // /api/admin/content/*: featured, categories, collections (platform admins)
  registerAuditApi(app, runtime); // /api/admin/audit, /api/admin/audit/export: platform admins
  registerWebhooksApi(app, runtime); // /api/admin/webhooks*: endpoints, deliveries, replay (platform admins)
  registerModerationApi(app, runtime); // /api/moderation/*: content managers, platform admins, the owner
  registerOperationsApi(app, runtime); // /api/admin/operations/*: processes, jobs, database (the owner only)
  registerAnalyticsApi(app, runtime); // /api/admin/analytics*, /api/admin/overview: platform admins
  registerSecurityAdminApi(app, runtime); // /api/admin/security*, service credential rotation: the platform owner
  registerPlansApi(app, runtime); // /api/plans, /api/plans/unlocks (public), /api/admin/plans* (platform admins)
  registerProfileApi(app, runtime);
  registerContentApi(app, runtime);
  registerContentWriteApi(app, runtime); // POST/PATCH/DELETE /api/content, workflow, versions
  registerStudioApi(app, runtime); // /api/studio/*: content writers
  registerStudioListApi(app, runtime); // GET /api/studio/content: the management table (writers)
  registerFreshnessApi(app, runtime); // the review queue and "Mark reviewed" (decision 038)
  registerStudioRenderApi(app, runtime); // POST /api/studio/render (the editor's live preview)
  registerSearchApi(app, runtime);
  registerSeoRoutes(app, runtime); // /robots.txt, /sitemap.xml, /ai-news/rss.xml: before static files and pages
  registerEngagementApi(app, runtime);
  registerBookmarksApi(app, runtime);
  registerCommentsApi(app, runtime);
  registerLearningApi(app, runtime); // completion rules, certificates, /api/me/certificates, /api/reports/*
  registerNotificationsApi(app, runtime); // /api/me/notifications, /api/me/follows*, POST /unsubscribe (signed)
  registerMediaApi(app, runtime); // /api/media*: uploads and the studio's media library
  registerObjectsApi(app, runtime);
  registerRepositoriesApi(app, runtime); // GET /api/repositories/:slug/raw (repository browser)
  registerGraphQL(app, runtime, options.mode, options.apiCache); // POST /graphql (GraphiQL on GET outside production)
  // The API reference (decision 034): /api/openapi.json and /api/docs (public: routes, never data);
  // the GraphQL SDL at /graphql/schema.graphql (in production for callers with a credential).
  registerApiReference(app, { sdlServed: options.mode !== "production" });
  registerSchemaSdl(app, options.mode, runtime.identity);

  app.all("/api/*", (c) => fail(c, 404, "NOT_FOUND", `No API at ${c.req.path}`));

  if (options.clientDir) {
    const root = options.clientDir;
    // Brotli and gzip copies written by the build (scripts/precompress.ts), listed once.
    const precompressed = listPrecompressed(root);
    /** Static files with a Cache-Control, in the client's preferred coding when a copy exists. */
    const cached = (cacheControl: string): MiddlewareHandler =>
      staticFiles(root, cacheControl, precompressed);
    app.use("/assets/*", cached("public, max-age=31536000, immutable"));
    // Top-level files of the client build (favicon …), listed once: other paths skip the file
    // system entirely instead of costing a stat on every page request.
    const topLevelFiles = new Set(
      readdirSync(root, { withFileTypes: true })
        .filter((entry) => entry.isFile() && !isPrecompressedCopy(entry.name))
        .map((entry) => `/${entry.name}`),
    );
    const topLevelStatic = cached("public, max-age=3600");
    app.use("*", (c, next) => (topLevelFiles.has(c.req.path) ? topLevelStatic(c, next) : next()));
  }

  let handler: ((request: Request, context: RouterContextProvider) => Promise<Response>) | null = null;
  const getHandler = () => {
    if (options.mode === "development" && typeof options.build === "function") {
      return createRequestHandler(options.build, "development");
    }
    handler ??= createRequestHandler(
      options.build,
      options.mode === "development" ? "development" : "production",
    );
    return handler;
  };

  // Visitors' pages (no session cookie, no credentials) are the same for everyone: serve them
  // from a short-lived cache. Cached pages carry a hash-based CSP instead of the stale nonce, and
  // are kept in every coding with their final headers. In production the server answers hits
  // before the app (server/http/page-fast-path.ts); the same rules apply here.
  const pageCache = options.pageCache ?? createVisitorPageCache(runtime);
  const audiencePages = options.audiencePageCache ?? createAudiencePageCache(runtime);
  const audienceRenders = backgroundRenders(runtime.logger);
  /** What a stored page's answer sends: the request's own CSP (its nonce) and X-Cache replace the replay's. */
  const RENDERED_OWN = new Set(["content-security-policy", "x-cache"]);

  app.all("*", async (c) => {
    const cacheKey =
      options.mode !== "development" &&
      anonymousPageRequest(c.req.method, c.req.path, (name) => c.req.header(name))
        ? new URL(c.req.url).pathname + new URL(c.req.url).search
        : null;
    if (cacheKey) {
      const hit = pageCache.get(cacheKey);
      if (hit) {
        const answer = answerFromCache(
          hit,
          c.req.header("accept-encoding"),
          c.req.header("if-none-match"),
          c.req.method === "HEAD",
        );
        return new Response(answer.body, { status: answer.status, headers: headersOf(answer.head) });
      }
    }
    const renderedAt = pageCache.generation;
    const build = typeof options.build === "function" ? await options.build() : options.build;
    const refused = refuseMethod(build, c.req.method, c.req.path);
    if (refused) {
      runtime.logger.debug(refused.detail, "page request with a method the page does not accept");
      return refused.response;
    }
    const contexts = (build.entry.module as { appContexts?: AppContexts }).appContexts;
    if (!contexts) throw new Error("The server build does not export appContexts from entry.server");
    const context = new RouterContextProvider();
    context.set(contexts.services, runtime.services);
    // Pages count as activity and may rotate the session token (the new cookie goes out here).
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, normaliseIp(c.get("clientIp")));
    const resolved = await runtime.identity.resolveRequest(headers, { rotate: true, markActivity: true });
    // A signed-in reader's content page: the stored render of the reader's audience (decision 039).
    const audienceKey =
      options.mode !== "development" && audiencePageRequest(c.req.method, c.req.url, resolved.context)
        ? audiencePageKey(c.req.path, resolved.context)
        : null;
    if (audienceKey) {
      const hit = audiencePages.get(audienceKey);
      if (hit) {
        const answer = answerFromCache(
          hit,
          c.req.header("accept-encoding"),
          c.req.header("if-none-match"),
          false,
        );
        const out = headersOf(answer.head);
        if (resolved.setCookie) out.append("Set-Cookie", resolved.setCookie);
        return new Response(answer.body, { status: answer.status, headers: out });
      }
    }
    const meta: RequestMeta = { nonce: c.get("nonce"), clientIp: c.get("clientIp") };
    if (audienceKey) meta.audience = { shareable: false };
    context.set(contexts.user, resolved.context);
    context.set(contexts.actor, resolved.actor);
    context.set(contexts.requestMeta, meta);
    let request = c.req.raw;
    if (c.req.path === MANIFEST_PATH) {
      // Lazy route discovery answers only for the routes this caller may reach.
      const { url } = filterManifestPaths(new URL(c.req.url), resolved.context);
      request = new Request(url, { method: c.req.method, headers: c.req.raw.headers });
    }
    let response = await getHandler()(request, context);
    if (c.req.path === MANIFEST_PATH || resolved.context.userId) {
      // A signed-in reader's page or data (gated bodies included), or a per-caller manifest.
      response = markPrivate(response);
    }
    if (audienceKey && response.status === 200 && meta.audience?.shareable) {
      // This reader had their own render; the audience's neutral one is made once, after it.
      audienceRenders.schedule(audienceKey, (key) =>
        renderAudiencePage({
          key,
          url: c.req.url,
          context: resolved.context,
          services: runtime.services,
          contexts,
          handler: getHandler(),
          cache: audiencePages,
        }),
      );
    }
    if (cacheKey && c.req.method === "GET" && !resolved.setCookie && response.status === 200) {
      const { body, page } = await pageCache.put(cacheKey, response, renderedAt, c.get("nonce"));
      if (!page) {
        const fresh = new Response(body, response);
        fresh.headers.set("X-Cache", "miss");
        return fresh;
      }
      // This render's answer: the stored coding and validators, with its own nonce CSP (added by
      // the first middleware) in place of the replay's hashes.
      const answer = answerFromCache(
        page,
        c.req.header("accept-encoding"),
        c.req.header("if-none-match"),
        false,
      );
      const headers = headersOf(answer.head, RENDERED_OWN);
      headers.set("X-Cache", "miss");
      return new Response(answer.body, { status: answer.status, headers });
    }
    if (resolved.setCookie) {
      try {
        response.headers.append("Set-Cookie", resolved.setCookie);
      } catch {
        const copy = new Response(response.body, response);
        copy.headers.append("Set-Cookie", resolved.setCookie);
        return copy;
      }
    }
    return response;
  });

  return app;
}
