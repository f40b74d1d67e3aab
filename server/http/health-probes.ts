/**
 * Liveness and readiness for load balancers and orchestrators (decision 027), answered at the
 * `node:http` level before the fast paths and the Hono app: no rate limit, no page cache, no
 * session look-up, not counted as requests.
 *
 * - `GET /health/live`: 200 while the process's event loop runs (also while it drains).
 * - `GET /health/ready`: 200 when the process may take traffic: it is not draining, and the
 *   database answers `select 1` within `READY_DB_TIMEOUT_MS`; otherwise 503 with the reason. The
 *   server only listens once migrations and the demo seed are done, so a process that answers
 *   is migrated and seeded. Probes arriving together share one database round trip, and a result
 *   is reused for `READY_REUSE_MS`.
 *
 * `/api/health` (the runtime contract's JSON with versions and storage) and the `/health-check`
 * page stay as they are.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PingResult } from "../db/database.ts";

export const LIVE_PATH = "/health/live";
export const READY_PATH = "/health/ready";
export const READY_DB_TIMEOUT_MS = 1000;
export const READY_REUSE_MS = 1000;

export interface HealthProbeDeps {
  /** True from the first shutdown signal on. */
  draining(): boolean;
  ping(timeoutMs: number): Promise<PingResult>;
  /** Epoch ms; tests move it. */
  now?: () => number;
}

export type Readiness =
  | { status: "ready"; db: { latencyMs: number } }
  | { status: "unavailable"; reason: "draining" | "database"; message: string };

/** Whether the process is ready; shares one ping among callers within `READY_REUSE_MS`. */
export function createReadiness(deps: HealthProbeDeps): () => Promise<Readiness> {
  const now = deps.now ?? Date.now;
  let last: { at: number; result: PingResult } | undefined;
  let pending: Promise<PingResult> | undefined;
  const ping = () => {
    pending ??= deps.ping(READY_DB_TIMEOUT_MS).then((result) => {
      last = { at: now(), result };
      pending = undefined;
      return result;
    });
    return pending;
  };
  return async () => {
    if (deps.draining()) {
      return { status: "unavailable", reason: "draining", message: "The process is shutting down." };
    }
    const result = last && now() - last.at < READY_REUSE_MS ? last.result : await ping();
    if (deps.draining()) {
      return { status: "unavailable", reason: "draining", message: "The process is shutting down." };
    }
    if (!result.ok) {
      return {
        status: "unavailable",
        reason: "database",
        message: `The database did not answer: ${result.error ?? "unknown error"}`,
      };
    }
    return { status: "ready", db: { latencyMs: result.latencyMs } };
  };
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, extra = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...extra,
  });
  res.end(req.method === "HEAD" ? undefined : text);
}

/**
 * The `node:http` responder: answers the two probe paths (any query string) and returns true,
 * or returns false for every other request.
 */
export function healthProbeResponder(
  deps: HealthProbeDeps,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const readiness = createReadiness(deps);
  return (req, res) => {
    const target = req.url ?? "";
    if (!target.startsWith("/health/")) return false;
    const query = target.indexOf("?");
    const pathname = query === -1 ? target : target.slice(0, query);
    if (pathname !== LIVE_PATH && pathname !== READY_PATH) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(
        req,
        res,
        405,
        { error: { code: "METHOD_NOT_ALLOWED", message: `${pathname} answers GET and HEAD only` } },
        { Allow: "GET, HEAD" },
      );
      return true;
    }
    if (pathname === LIVE_PATH) {
      send(req, res, 200, { status: "live" });
      return true;
    }
    readiness().then(
      (state) => send(req, res, state.status === "ready" ? 200 : 503, state),
      (error: unknown) =>
        send(req, res, 503, {
          status: "unavailable",
          reason: "database",
          message: `The readiness check failed: ${(error as Error).message}`,
        }),
    );
    return true;
  };
}
