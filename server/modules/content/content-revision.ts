import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";

/**
 * The content revision: a counter bumped by every content, category and content-item write
 * (migration 011). Readers compare it to decide whether cached pages are still current.
 */
export async function bumpContentRevision(db: Kysely<DB>): Promise<void> {
  await db
    .updateTable("content_revision")
    .set((eb) => ({ revision: eb("revision", "+", 1), changedAt: Date.now() }))
    .where("id", "=", 1)
    .execute();
}

export async function readContentRevision(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom("content_revision")
    .select("revision")
    .where("id", "=", 1)
    .executeTakeFirst();
  return Number(row?.revision ?? 0);
}

export interface RevisionWatcher {
  /** Reads the revision now and calls `onChange` when it moved since the last read. */
  check(): Promise<void>;
  stop(): void;
}

/**
 * Polls the revision every `intervalMs` (a primary-key read) and calls `onChange` when it moves,
 * whichever process or replica wrote. Errors are reported and polling continues.
 */
export function watchContentRevision(
  db: Kysely<DB>,
  options: {
    intervalMs: number;
    onChange(): void;
    onError?(error: unknown): void;
    /** Records each poll in the background jobs registry (/super-admin/infrastructure). */
    track?: <T>(pass: () => Promise<T>) => Promise<T>;
  },
): RevisionWatcher {
  let last: number | null = null;
  const run = async () => {
    try {
      const current = await (options.track ?? ((pass) => pass()))(() => readContentRevision(db));
      if (last !== null && current !== last) options.onChange();
      last = current;
    } catch (error) {
      options.onError?.(error);
    }
  };
  // One read at a time. A check asked for while one runs (a poll, a notification, a writer's own
  // check after its write) waits for it and then reads once more: the running read may have been
  // taken before the caller's write. Callers asking meanwhile share that one follow-up read.
  let running: Promise<void> | null = null;
  let followUp: Promise<void> | null = null;
  const check = (): Promise<void> => {
    if (!running) {
      running = run().finally(() => {
        running = null;
      });
      return running;
    }
    followUp ??= running.then(() => {
      followUp = null;
      return check();
    });
    return followUp;
  };
  void check();
  const timer = setInterval(() => void check(), options.intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
