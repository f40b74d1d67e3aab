import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { AppContexts } from "../../app/lib/context.ts";
import { CLIENT_IP_HEADER } from "../auth/auth.ts";
import type { Runtime } from "../runtime.ts";
import { registerContentApi } from "./content-api.ts";
import { createNonce, securityHeaders } from "./security-headers.ts";

type Env = { Variables: { nonce: string; clientIp: string } };

export interface HttpAppOptions {
  runtime: Runtime;
  /** The React Router server build (production build, or a loader for the dev server). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Folder of built client assets; omitted in development (Vite serves them). */
  clientDir?: string;
  mode: "production" | "development" | "test";
}

/** The socket address; a configured trusted proxy's X-Forwarded-For only when TRUST_PROXY=1. */
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
    runtime.logger.error({ err: error, path: c.req.path }, "unhandled error");
    return c.json({ error: { code: "INTERNAL", message: "An unexpected error occurred" } }, 500);
  });

  app.use("*", async (c, next) => {
    // Reject paths that are not valid percent-encoding before anything parses them.
    try {
      decodeURIComponent(c.req.path);
    } catch {
      return c.text("Bad request: the URL path is not valid percent-encoding", 400);
    }
    const nonce = createNonce();
    c.set("nonce", nonce);
    c.set("clientIp", clientAddress(c, runtime.env.TRUST_PROXY === "1"));
    await next();
    for (const [name, value] of Object.entries(securityHeaders(nonce, { https }))) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
  });

  app.get("/api/health", async (c) => {
    const health = await runtime.services.diagnostics.health();
    c.header("Cache-Control", "no-store");
    return c.json(health, health.status === "ok" ? 200 : 503);
  });

  app.on(["GET", "POST"], "/api/auth/*", async (c) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, c.get("clientIp"));
    const body =
      c.req.method === "GET" || c.req.method === "HEAD" ? undefined : await c.req.raw.arrayBuffer();
    return runtime.auth.handler(new Request(c.req.url, { method: c.req.method, headers, body }));
  });

  registerContentApi(app, runtime);

  app.all("/api/*", (c) => c.json({ error: { code: "NOT_FOUND", message: `No API at ${c.req.path}` } }, 404));

  if (options.clientDir) {
    const root = options.clientDir;
    app.use(
      "/assets/*",
      serveStatic({
        root,
        onFound: (_path, c) => {
          c.header("Cache-Control", "public, max-age=31536000, immutable");
        },
      }),
    );
    app.use(
      "*",
      serveStatic({
        root,
        onFound: (_path, c) => {
          c.header("Cache-Control", "public, max-age=3600");
        },
      }),
    );
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

  app.all("*", async (c) => {
    const build = typeof options.build === "function" ? await options.build() : options.build;
    const contexts = (build.entry.module as { appContexts?: AppContexts }).appContexts;
    if (!contexts) throw new Error("The server build does not export appContexts from entry.server");
    const context = new RouterContextProvider();
    context.set(contexts.services, runtime.services);
    context.set(contexts.user, await runtime.resolveUser(c.req.raw.headers));
    context.set(contexts.requestMeta, { nonce: c.get("nonce"), clientIp: c.get("clientIp") });
    return getHandler()(c.req.raw, context);
  });

  return app;
}
