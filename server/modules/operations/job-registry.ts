/**
 * The registry of this process's background jobs (/super-admin/infrastructure): every periodic
 * job the runtime starts is registered here with its period, and its passes run through `track`,
 * which records the last run (start, duration, outcome), the last error, the failure counts and
 * when the next pass is due. The heartbeat copies the snapshot into this process's row, so the
 * screen shows the jobs of every process.
 */

/** Runs one pass of a job and records it; the pass's result or error passes through unchanged. */
export type JobTrack = <T>(pass: () => Promise<T>) => Promise<T>;

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
}

export interface JobRegistry {
  register(definition: JobDefinition): JobTrack;
  snapshot(): JobStatus[];
}

const errorText = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

export function createJobRegistry(now: () => number = Date.now): JobRegistry {
  const jobs = new Map<string, JobStatus & { registeredAt: number; startedMs: number | null }>();
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
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
}
