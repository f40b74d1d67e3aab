/**
 * The registry of this process's background jobs (/super-admin/infrastructure): every periodic
 * job the runtime starts is registered here with its period, and its passes run through `track`,
 * which records the last run (start, duration, outcome), the last error, the failure counts and
 * when the next pass is due. The heartbeat copies the snapshot into this process's row, so the
 * screen shows the jobs of every process.
 *
 * Jobs registered with `registerExclusive` run each tick on one process only (./job-lease.ts,
 * decision 028): a tick whose lease another process holds is counted as `skipped`, not as a run,
 * so the screen's last run is the one that really happened (on the process that ran it).
 */
import type { JobLeases, LeaseControl } from "./job-lease.ts";

/** Runs one pass of a job and records it; the pass's result or error passes through unchanged. */
export type JobTrack = <T>(pass: () => Promise<T>) => Promise<T>;

/**
 * Runs one pass of a job shared across processes when this process takes its lease; answers
 * undefined (and runs nothing) when another process has this tick.
 */
export type SharedJobTrack = <T>(pass: (lease?: LeaseControl) => Promise<T>) => Promise<T | undefined>;

export interface JobDefinition {
  name: string;
  /** What it does, for the screen. */
  label: string;
  /** Period in ms; null for a job that runs once (at start-up). */
  intervalMs: number | null;
}

export interface JobStatus extends JobDefinition {
  runs: number;
  failures: number;
  /** Failures in a row since the last success. */
  consecutiveFailures: number;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastDurationMs: number | null;
  lastOutcome: "ok" | "error" | "running" | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** When the next pass is due (null for a one-off job). */
  nextRunAt: string | null;
  /** Runs on one process per tick (a lease in the shared database). */
  exclusive?: boolean;
  /** Ticks another process ran (exclusive jobs). */
  skipped?: number;
}

export interface JobRegistry {
  register(definition: JobDefinition): JobTrack;
  /**
   * A periodic job that must run once per tick across processes: each pass runs only when this
   * process takes the job's lease (held at most `leaseMs` without renewal, and until one period
   * after the pass started). Without leases (a registry made without them) it is `register`.
   */
  registerExclusive(definition: JobDefinition & { leaseMs: number }): SharedJobTrack;
  snapshot(): JobStatus[];
}

const errorText = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** Timer drift allowed between processes' ticks of one exclusive job. */
const SPACING_SLACK = 0.1;

export function createJobRegistry(
  now: () => number = Date.now,
  options: { leases?: JobLeases } = {},
): JobRegistry {
  const jobs = new Map<string, JobStatus & { registeredAt: number; startedMs: number | null }>();
  const iso = (ms: number) => new Date(ms).toISOString();
  const registry: JobRegistry = {
    registerExclusive({ leaseMs, ...definition }) {
      const track = registry.register(definition);
      const leases = options.leases;
      if (!leases) return track;
      const job = jobs.get(definition.name)!;
      job.exclusive = true;
      job.skipped = 0;
      const spacingMs =
        definition.intervalMs === null ? 0 : Math.floor(definition.intervalMs * (1 - SPACING_SLACK));
      return async <T>(pass: (lease?: LeaseControl) => Promise<T>): Promise<T | undefined> => {
        let ran = false;
        const outcome = await leases
          .runExclusive(
            definition.name,
            leaseMs,
            (lease) => {
              ran = true;
              return track(() => pass(lease));
            },
            { spacingMs },
          )
          .catch((error: unknown) => {
            // The lease could not be taken (database unreachable): recorded as a failed pass.
            if (!ran) return track(() => Promise.reject(error));
            throw error;
          });
        if (outcome.ran) return outcome.value;
        job.skipped = (job.skipped ?? 0) + 1;
        if (job.intervalMs !== null) job.nextRunAt = iso(now() + job.intervalMs);
        return undefined;
      };
    },
    register(definition) {
      const job = {
        ...definition,
        runs: 0,
        failures: 0,
        consecutiveFailures: 0,
        lastStartedAt: null,
        lastFinishedAt: null,
        lastDurationMs: null,
        lastOutcome: null,
        lastError: null,
        lastErrorAt: null,
        nextRunAt: definition.intervalMs === null ? null : iso(now() + definition.intervalMs),
        registeredAt: now(),
        startedMs: null,
      } as JobStatus & { registeredAt: number; startedMs: number | null };
      jobs.set(definition.name, job);
      return async <T>(pass: () => Promise<T>): Promise<T> => {
        const started = now();
        const t0 = performance.now();
        job.startedMs = started;
        job.lastStartedAt = iso(started);
        job.lastOutcome = "running";
        if (job.intervalMs !== null) job.nextRunAt = iso(started + job.intervalMs);
        const finish = () => {
          job.runs += 1;
          job.lastDurationMs = Math.round((performance.now() - t0) * 100) / 100;
          job.lastFinishedAt = iso(now());
        };
        try {
          const result = await pass();
          finish();
          job.lastOutcome = "ok";
          job.consecutiveFailures = 0;
          return result;
        } catch (error) {
          finish();
          job.lastOutcome = "error";
          job.failures += 1;
          job.consecutiveFailures += 1;
          job.lastError = errorText(error);
          job.lastErrorAt = job.lastFinishedAt;
          throw error;
        }
      };
    },
    snapshot() {
      return [...jobs.values()].map(({ registeredAt: _r, startedMs: _s, ...status }) => ({ ...status }));
    },
  };
  return registry;
}
