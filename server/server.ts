import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import type { Env } from "./env.ts";
import { cachedApiResponder, createVisitorApiCache } from "./http/api-fast-path.ts";
import { createHttpApp, createVisitorPageCache } from "./http/app.ts";
import { cachedPageResponder } from "./http/page-fast-path.ts";
import { createRuntime, type Runtime, type RuntimeOptions } from "./runtime.ts";

export interface RunningServer {
  url: string;
  port: number;
  runtime: Runtime;
  close(): Promise<void>;
}

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");
export const BUILD_DIR = path.join(PROJECT_ROOT, "build");

/**
 * The server bundle (`scripts/build-server.ts`) carries the React Router build inside itself and
 * hands it over here before the server starts; from source, the build is imported from `build/`.
 */
let bundledBuild: ServerBuild | undefined;
export function provideServerBuild(build: ServerBuild): void {
  bundledBuild = build;
}

export async function loadServerBuild(buildDir = BUILD_DIR): Promise<ServerBuild> {
  if (bundledBuild && buildDir === BUILD_DIR) return bundledBuild;
  const entry = path.join(buildDir, "server", "index.js");
  if (!existsSync(entry)) throw new Error(`No production build at ${entry}: run \`npm run build\` first`);
  return (await import(pathToFileURL(entry).href)) as ServerBuild;
}

/** Start the production server: runtime (migrated, seeded if empty), HTTP app, listening socket. */
export async function startServer(
  env: Env,
  options: RuntimeOptions & { buildDir?: string } = {},
): Promise<RunningServer> {
  const buildDir = options.buildDir ?? BUILD_DIR;
  const build = await loadServerBuild(buildDir);
  const runtime = await createRuntime(env, options);
  const mode = env.NODE_ENV === "development" ? "development" : "production";
  const pageCache = mode === "production" ? createVisitorPageCache(runtime) : undefined;
  const api = mode === "production" ? createVisitorApiCache(runtime) : undefined;
  const app = createHttpApp({
    runtime,
    build,
    clientDir: path.relative(process.cwd(), path.join(buildDir, "client")) || ".",
    mode,
    pageCache,
    apiCache: api?.cache,
  });
  // Visitors' cached pages are answered before the Hono app (server/http/page-fast-path.ts).
  const cachedPage = pageCache
    ? cachedPageResponder(pageCache, () => {
        runtime.processMetrics.countRequest();
        runtime.metrics.countFastPathHit("pages");
      })
    : () => false;
  // Visitors' content reads and GraphQL queries likewise (server/http/api-fast-path.ts).
  const cachedApi = api
    ? cachedApiResponder({
        cache: api.cache,
        replay: api.replay,
        rateLimits: runtime.rateLimits,
        countRequest: () => {
          runtime.processMetrics.countRequest();
          runtime.metrics.countFastPathHit("api");
        },
        trustProxy: env.TRUST_PROXY === "1",
        logger: runtime.logger,
      })
    : () => false;
  const server = serve({
    fetch: app.fetch,
    createServer: ((
      serverOptions: Parameters<typeof createServer>[0],
      listener: (req: IncomingMessage, res: ServerResponse) => void,
    ) =>
      createServer(serverOptions, (req, res) => {
        const target = req.url ?? "";
        if (target.startsWith("/api/") || target === "/graphql") {
          if (!cachedApi(req, res, listener)) listener(req, res);
        } else if (!cachedPage(req, res)) listener(req, res);
      })) as typeof createServer,
    // Keep the platform's Request/Response: libraries (Shiki's WASM loader) rely on them.
    overrideGlobalObjects: false,
    port: env.PORT,
    hostname: env.HOST,
    serverOptions: { maxHeaderSize: 16 * 1024, requestTimeout: 30_000 },
  });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) resolve();
    server.once("listening", () => resolve());
    server.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
  return {
    url: `http://${host}:${port}`,
    port,
    runtime,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await runtime.close();
    },
  };
}
