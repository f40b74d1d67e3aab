/**
 * This process's figures in the Prometheus text format (`GET /metrics`, decision 030), with
 * `prom-client`, one registry per runtime:
 * - `lumen_http_requests_total` and `lumen_http_request_duration_seconds` by route pattern
 *   (never the raw path: ids and slugs would make every item its own series), method and status,
 *   for every request the app handled;
 * - `lumen_fast_path_hits_total`: visitors' pages and API reads answered from the caches before
 *   the app (they are not timed: a hit costs microseconds);
 * - `lumen_cache_*`: every bounded in-memory cache's entries, bytes, hits and misses;
 * - `lumen_db_pool_connections` (PostgreSQL: open, idle, waiting, max);
 * - `lumen_job_*`: each background job's runs and failures, last duration and whether it runs now;
 * - `lumen_auth_failures_total` by reason (failed sign-ins and password checks, lockouts, second
 *   factor failures, device mismatches);
 * - the process figures `prom-client` collects (CPU, memory, heap, event-loop delay, GC), prefixed.
 * Counters read from their sources at scrape time cost nothing per request.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { SecurityAction } from "../../auth/security-audit.ts";
import type { PoolStats } from "../../db/database.ts";
import type { JobRegistry } from "./job-registry.ts";
import type { ProcessMetrics } from "./process-metrics.ts";

const AUTH_FAILURES: ReadonlySet<SecurityAction> = new Set([
  "sign_in_failure",
  "password_check_failure",
  "lockout",
  "mfa_failure",
  "device_mismatch",
]);

export interface MetricsSources {
  processMetrics: ProcessMetrics;
  jobs: JobRegistry;
  poolStats: () => PoolStats | null;
}

export interface Metrics {
  /** One request the app answered: its route pattern, method, status and time taken. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** A visitor's page or API read answered before the app (an integer increment). */
  countFastPathHit(path: "pages" | "api"): void;
  /** A security event as recorded; failures are counted by reason. */
  countSecurityEvent(action: SecurityAction): void;
  /** The exposition: content type and text. */
  render(): Promise<{ contentType: string; body: string }>;
  stop(): void;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  const fastPathHits = { pages: 0, api: 0 };
  collectDefaultMetrics({ register: registry, prefix: "lumen_", eventLoopMonitoringPrecision: 20 });

  const requests = new Counter({
    name: "lumen_http_requests_total",
    help: "HTTP requests the app answered, by route pattern, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "lumen_http_request_duration_seconds",
    help: "Time from the request reaching the app to its response headers, by route pattern and method",
    labelNames: ["route", "method"] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const authFailures = new Counter({
    name: "lumen_auth_failures_total",
    help: "Failed sign-ins, password checks and second factors, lockouts and device mismatches",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  for (const reason of AUTH_FAILURES) authFailures.inc({ reason }, 0);

  new Counter({
    name: "lumen_fast_path_hits_total",
    help: "Visitors' pages and API reads answered from the caches before the app",
    labelNames: ["path"] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ path: "pages" }, fastPathHits.pages);
      this.inc({ path: "api" }, fastPathHits.api);
    },
  });

  const cacheGauge = (name: string, help: string, pick: (c: CacheRow) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["cache"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const row of cacheRows()) this.set({ cache: row.name }, pick(row));
      },
    });
  type CacheRow = { name: string; entries: number; bytes: number | null; hits: number; misses: number };
  /** Every registered cache (the page cache among them), as /super-admin/infrastructure lists them. */
  const cacheRows = (): CacheRow[] =>
    sources.processMetrics.caches().map((c) => ({
      name: c.name,
      entries: c.entries,
      bytes: c.bytes,
      hits: c.hits ?? 0,
      misses: c.misses ?? 0,
    }));
  cacheGauge("lumen_cache_entries", "Entries in each in-memory cache", (c) => c.entries);
  new Gauge({
    name: "lumen_cache_bytes",
    help: "Estimated bytes in each in-memory cache (caches that can tell)",
    labelNames: ["cache"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of cacheRows()) if (row.bytes !== null) this.set({ cache: row.name }, row.bytes);
    },
  });
  // Hits and misses are counters kept by the caches themselves; exposed as counters.
  for (const [name, help, pick] of [
    ["lumen_cache_hits_total", "Look-ups each in-memory cache answered", (c: CacheRow) => c.hits],
    ["lumen_cache_misses_total", "Look-ups each in-memory cache could not answer", (c: CacheRow) => c.misses],
  ] as const) {
    new Counter({
      name,
      help,
      labelNames: ["cache"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const row of cacheRows()) this.inc({ cache: row.name }, pick(row));
      },
    });
  }

  new Gauge({
    name: "lumen_db_pool_connections",
    help: "PostgreSQL pool: connections open, idle, queries waiting for one, and the pool's size",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const pool = sources.poolStats();
      this.reset();
      if (!pool) return;
      this.set({ state: "open" }, pool.total);
      this.set({ state: "idle" }, pool.idle);
      this.set({ state: "waiting" }, pool.waiting);
      this.set({ state: "max" }, pool.max);
    },
  });

  new Counter({
    name: "lumen_job_runs_total",
    help: "Passes of each background job on this process, by outcome",
    labelNames: ["job", "outcome"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const job of sources.jobs.snapshot()) {
        this.inc({ job: job.name, outcome: "ok" }, Math.max(0, job.runs - job.failures));
        this.inc({ job: job.name, outcome: "error" }, job.failures);
      }
    },
  });
  new Gauge({
    name: "lumen_job_last_duration_seconds",
    help: "How long each background job's last pass took",
    labelNames: ["job"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const job of sources.jobs.snapshot()) {
        if (job.lastDurationMs !== null) this.set({ job: job.name }, job.lastDurationMs / 1000);
      }
    },
  });
  new Gauge({
    name: "lumen_job_running",
    help: "1 while a pass of the job runs on this process",
    labelNames: ["job"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const job of sources.jobs.snapshot())
        this.set({ job: job.name }, job.lastOutcome === "running" ? 1 : 0);
    },
  });

  return {
    observeRequest(route, method, status, seconds) {
      const m = METHODS.has(method) ? method : "OTHER";
      requests.inc({ route, method: m, status: String(status) });
      duration.observe({ route, method: m }, seconds);
    },
    countFastPathHit(path) {
      fastPathHits[path] += 1;
    },
    countSecurityEvent(action) {
      if (AUTH_FAILURES.has(action)) authFailures.inc({ reason: action });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    stop() {
      registry.clear();
    },
  };
}
