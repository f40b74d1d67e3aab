import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { serialCheck } from "../../serial-check.ts";

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
  const check = serialCheck(run);
  void check();
  const timer = setInterval(() => void check(), options.intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
