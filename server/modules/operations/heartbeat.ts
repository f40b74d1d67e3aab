/**
 * The process heartbeat (migration 030): this process upserts its `process_heartbeat` row every
 * `intervalMs` (an unref'd timer that never keeps the process alive, stopped on close), with its
 * memory, event-loop lag, request rate, page-cache counters, cache figures and jobs. Rows not seen for
 * `GONE_AFTER_MS` are shown as gone; rows older than `PRUNE_AFTER_MS` are deleted by one live
 * process per minute (the `heartbeat-prune` job's lease, decision 028).
 * A process that stops cleanly deletes its own row.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { JobRegistry, JobTrack, SharedJobTrack } from "./job-registry.ts";
import type { ProcessMetrics } from "./process-metrics.ts";

export const HEARTBEAT_INTERVAL_MS = 5000;
/** A row older than this is a process that is gone (crashed, killed, or its host is down). */
export const GONE_AFTER_MS = 60_000;
/** Gone rows stay visible this long, then are deleted. */
export const PRUNE_AFTER_MS = 10 * 60_000;

export interface HeartbeatDeps {
  db: Kysely<DB>;
  metrics: ProcessMetrics;
  jobs: JobRegistry;
  version: string;
  startedAt: Date;
  now?: () => number;
  /** This process's id (default: a new `newProcessId()`); job leases are held under it. */
  processId?: string;
  /** Runs the deletion of gone rows (the shared `heartbeat-prune` job); default every beat. */
  prune?: SharedJobTrack;
}

/** An id for this process: host, pid and a random suffix (pids are reused across restarts). */
export function newProcessId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
}

export interface Heartbeat {
  readonly processId: string;
  /** Writes this process's row now (and prunes old rows). */
  beat(): Promise<void>;
  /** Beats every `intervalMs` through `track` (the jobs registry). */
  start(options: { intervalMs?: number; track?: JobTrack; onError?(error: unknown): void }): {
    /** The first beat written (or failed and reported): the process is listed from then on. */
    ready: Promise<void>;
    stop(): Promise<void>;
  };
}

export function createHeartbeat(deps: HeartbeatDeps): Heartbeat {
  const now = deps.now ?? Date.now;
  const host = hostname();
  const processId = deps.processId ?? newProcessId();
  const prune = deps.prune ?? ((pass) => pass());
  const startedAt = deps.startedAt.toISOString();

  async function beat(): Promise<void> {
    const at = now();
    const memory = process.memoryUsage();
    const lag = deps.metrics.takeLoopLag();
    const cache = deps.metrics.pageCache();
    const figures = {
      hostname: host,
      pid: process.pid,
      version: deps.version,
      startedAt,
      lastSeenAt: new Date(at).toISOString(),
      lastSeenEpoch: at,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      lagP50Us: lag.p50Us,
      lagP99Us: lag.p99Us,
      requestsLastMinute: deps.metrics.requestsLastMinute(),
      pageCacheHits: cache.hits,
      pageCacheMisses: cache.misses,
      jobs: JSON.stringify(deps.jobs.snapshot()),
      caches: JSON.stringify(deps.metrics.caches()),
    };
    await deps.db
      .insertInto("process_heartbeat")
      .values({ processId, ...figures })
      .onConflict((oc) => oc.column("processId").doUpdateSet(figures))
      .execute();
    await prune(() =>
      deps.db
        .deleteFrom("process_heartbeat")
        .where("lastSeenEpoch", "<", at - PRUNE_AFTER_MS)
        .execute(),
    );
  }

  return {
    processId,
    beat,
    start(options) {
      const track: JobTrack = options.track ?? ((pass) => pass());
      let running: Promise<void> | null = null;
      let stopped = false;
      const tick = () => {
        if (running || stopped) return;
        running = track(beat)
          .catch((error: unknown) => options.onError?.(error))
          .finally(() => {
            running = null;
          });
      };
      tick();
      const ready = running ?? Promise.resolve();
      const timer = setInterval(tick, options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
      timer.unref();
      return {
        ready,
        async stop() {
          stopped = true;
          clearInterval(timer);
          await running;
          await deps.db
            .deleteFrom("process_heartbeat")
            .where("processId", "=", processId)
            .execute()
            .catch(() => {});
        },
      };
    },
  };
}
