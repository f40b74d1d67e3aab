import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, Server as NetServer } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import type { Env } from "./env.ts";
import { cachedApiResponder, createVisitorApiCache } from "./http/api-fast-path.ts";
import { createHttpApp, createVisitorPageCache } from "./http/app.ts";
import { healthProbeResponder } from "./http/health-probes.ts";
import { cachedPageResponder } from "./http/page-fast-path.ts";
import { createRuntime, type Runtime, type RuntimeOptions } from "./runtime.ts";

export interface RunningServer {
  url: string;
  port: number;
  runtime: Runtime;
  /** True from the start of `shutdown` on: readiness answers 503. */
  draining(): boolean;
  /**
   * Graceful shutdown (decision 027): readiness fails at once, the listening socket closes, idle
   * keep-alive connections are closed, requests in flight finish (their responses, and any later
   * request on their connection, carry `Connection: close`), the scheduled jobs stop after their
   * running tick, then the runtime closes. Resolves "clean", or "timeout" once `timeoutMs` passed:
   * the connections left are destroyed then (the runtime may still be closing).
   */
  shutdown(timeoutMs: number): Promise<"clean" | "timeout">;
  /** Closes at once: open connections are destroyed (tests). */
  close(): Promise<void>;
}

/** How long a draining process leaves idle keep-alive connections open (decision 027). */
export const IDLE_CLOSE_GRACE_MS = 1000;

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
  let draining = false;
  // Liveness and readiness before everything else (server/http/health-probes.ts).
  const probe = healthProbeResponder({
    draining: () => draining,
    ping: (timeoutMs) => runtime.database.ping(timeoutMs),
  });
  // Responses being written, so a shutdown can ask their connections to close.
  const inFlight = new Set<ServerResponse>();
  const server = serve({
    fetch: app.fetch,
    createServer: ((
      serverOptions: Parameters<typeof createServer>[0],
      listener: (req: IncomingMessage, res: ServerResponse) => void,
    ) =>
      createServer(serverOptions, (req, res) => {
        if (draining) res.setHeader("Connection", "close");
        else {
          inFlight.add(res);
          res.once("close", () => inFlight.delete(res));
        }
        if (probe(req, res)) return;
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
  const httpServer = server as unknown as {
    close(callback: () => void): void;
    closeIdleConnections(): void;
    closeAllConnections(): void;
  };
  let closed: Promise<void> | undefined;
  /**
   * Stops listening; resolves once every connection has ended. `net.Server`'s close, not
   * `http.Server`'s: since Node 19 the latter also closes every idle keep-alive connection at once,
   * which fails a request a client is writing on one at that moment (the drain closes them after
   * a grace instead).
   */
  const closeServer = () => {
    closed ??= new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    return closed;
  };
  let shuttingDown: Promise<"clean" | "timeout"> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    runtime,
    draining: () => draining,
    shutdown(timeoutMs) {
      shuttingDown ??= (async () => {
        draining = true;
        for (const res of inFlight) {
          if (!res.headersSent) res.setHeader("Connection", "close");
          else {
            // Its headers went out with keep-alive: end this connection once the answer is out
            // (only this one: closing every idle connection here would cut requests that other
            // clients are writing on theirs at this moment).
            const socket = res.socket;
            res.once("finish", () => setImmediate(() => socket?.end()));
          }
        }
        const connectionsClosed = closeServer();
        // Idle keep-alive connections are closed after a short grace, not at once: a client (a
        // proxy's pool) may be writing a request on one at this very moment, and a connection
        // closed under it fails that request. Within the grace such a request is answered, with
        // `Connection: close`; a busy client uses each of its idle connections once in that time.
        const idleTimer = setTimeout(() => httpServer.closeIdleConnections(), IDLE_CLOSE_GRACE_MS);
        idleTimer.unref();
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), timeoutMs);
        });
        const stopped = (async () => {
          await Promise.all([connectionsClosed, runtime.stopBackground()]);
          await runtime.close();
          return "clean" as const;
        })();
        stopped.catch(() => {}); // after a timeout nobody waits for it
        const outcome = await Promise.race([stopped, deadline]);
        clearTimeout(timer);
        clearTimeout(idleTimer);
        if (outcome === "timeout") httpServer.closeAllConnections();
        return outcome;
      })();
      return shuttingDown;
    },
    close: async () => {
      draining = true;
      const connectionsClosed = closeServer();
      httpServer.closeAllConnections();
      await connectionsClosed;
      await runtime.close();
    },
  };
}
