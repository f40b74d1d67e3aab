/**
 * Periodic work shared by every app process on one database (migration 041, decision 028): a job
 * pass runs only on the process holding the job's lease (`job_lease`), so each tick runs once
 * across processes however many there are.
 *
 * - Taking the lease is one conditional UPDATE: it applies only when the row is free (no holder)
 *   or its lease has passed, so of processes trying at the same moment exactly one gets it.
 * - While the pass runs, the lease is renewed every third of `leaseMs`; a process that dies
 *   mid-pass leaves a lease that expires, and the next tick of any process takes it over.
 * - At the end it is released with the outcome. `spacingMs` keeps the row taken until that long
 *   after the pass started: processes tick on their own timers, so without it a one-second job
 *   would run once per process per second. With the job's period as spacing (less a little slack
 *   for timer drift) each period runs once, on whichever process ticks first.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";

export type ExclusiveOutcome<T> = { ran: true; value: T } | { ran: false; holder: string | null };

/** What a pass may say about its lease. */
export interface LeaseControl {
  /**
   * Frees the lease at the end without its spacing: the pass left work only another process can
   * do (a local repository folder this process does not have), so the next process to tick runs.
   */
  freeAtEnd(): void;
}

export interface ExclusiveOptions {
  /** The row stays taken until this long after the pass started (default 0: free at the end). */
  spacingMs?: number;
}

export interface JobLeaseRow {
  name: string;
  holder: string | null;
  leaseUntil: number;
  lastHolder: string | null;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastOutcome: string | null;
  lastError: string | null;
  runs: number;
}

export interface JobLeases {
  /** This process's id (the heartbeat's), written as the holder. */
  readonly holder: string;
  /**
   * Runs `fn` if this process takes the lease of `name` now; otherwise does nothing and answers
   * who holds it. `fn`'s error is recorded as the outcome and rethrown.
   */
  runExclusive<T>(
    name: string,
    leaseMs: number,
    fn: (lease: LeaseControl) => Promise<T>,
    options?: ExclusiveOptions,
  ): Promise<ExclusiveOutcome<T>>;
  /** Every job's lease row (who holds it, who ran it last and how it ended). */
  list(): Promise<JobLeaseRow[]>;
}

const errorText = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

export function createJobLeases(deps: {
  db: Kysely<DB>;
  holder: string;
  now?: () => number;
  onError?(error: unknown): void;
}): JobLeases {
  const { db, holder } = deps;
  const now = deps.now ?? Date.now;
  const known = new Set<string>();

  async function take(name: string, leaseMs: number, at: number): Promise<boolean> {
    if (!known.has(name)) {
      await db
        .insertInto("job_lease")
        .values({ name, holder: null, leaseUntil: 0 })
        .onConflict((oc) => oc.column("name").doNothing())
        .execute();
      known.add(name);
    }
    const result = await db
      .updateTable("job_lease")
      .set({
        holder,
        leaseUntil: at + leaseMs,
        lastHolder: holder,
        lastStartedAt: new Date(at).toISOString(),
        lastOutcome: "running",
      })
      .where("name", "=", name)
      // Free: released with its spacing over, or held by a process whose lease ran out.
      .where("leaseUntil", "<=", at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  return {
    holder,
    async runExclusive(name, leaseMs, fn, options = {}) {
      const started = now();
      if (!(await take(name, leaseMs, started))) {
        const row = await db
          .selectFrom("job_lease")
          .select("holder")
          .where("name", "=", name)
          .executeTakeFirst();
        return { ran: false, holder: row?.holder ?? null };
      }
      const renewal = setInterval(
        () => {
          db.updateTable("job_lease")
            .set({ leaseUntil: now() + leaseMs })
            .where("name", "=", name)
            .where("holder", "=", holder)
            .execute()
            .catch((error: unknown) => deps.onError?.(error));
        },
        Math.max(50, Math.floor(leaseMs / 3)),
      );
      renewal.unref();
      let spacingMs = options.spacingMs ?? 0;
      const control: LeaseControl = {
        freeAtEnd: () => {
          spacingMs = 0;
        },
      };
      const release = async (outcome: "ok" | "error", error: string | null) => {
        clearInterval(renewal);
        const at = now();
        await db
          .updateTable("job_lease")
          .set((eb) => ({
            holder: null,
            leaseUntil: Math.max(at, started + spacingMs),
            lastFinishedAt: new Date(at).toISOString(),
            lastOutcome: outcome,
            lastError: error,
            runs: eb("runs", "+", 1),
          }))
          .where("name", "=", name)
          .where("holder", "=", holder)
          .execute()
          .catch((failure: unknown) => deps.onError?.(failure));
      };
      try {
        const value = await fn(control);
        await release("ok", null);
        return { ran: true, value };
      } catch (error) {
        await release("error", errorText(error));
        throw error;
      }
    },
    async list() {
      const rows = await db.selectFrom("job_lease").selectAll().orderBy("name").execute();
      return rows.map((r) => ({ ...r, leaseUntil: Number(r.leaseUntil), runs: Number(r.runs) }));
    },
  };
}
