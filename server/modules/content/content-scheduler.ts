/**
 * The scheduling job (decision 017): scheduled items go live at their `publishedAt` with nobody
 * visiting. One app process runs each tick (the job's lease, decision 028); each due row is released by one conditional UPDATE
 * (still scheduled, due, not yet published), so exactly one process wins each row and records the
 * one `auto_publish` event, in the same transaction. The content revision is bumped with it, so
 * every process drops its page cache on its next revision poll and visitors see the item.
 */
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import type { ContentWriteHooks } from "./content.repo.ts";
import { bumpContentRevision } from "./content-revision.ts";

export interface ContentSchedulerDeps {
  db: Kysely<DB>;
  now?: () => number;
  hooks?: ContentWriteHooks;
  logger?: { error(details: object, message: string): void; info?(details: object, message: string): void };
  /**
   * Records each pass in the background jobs registry (/super-admin/infrastructure); a shared job's
   * track answers undefined for a tick another process ran (decision 028).
   */
  track?: <T>(pass: () => Promise<T>) => Promise<T | undefined>;
}

/** Releases every scheduled item whose time has come; answers the ids this process published. */
export async function publishDueContent(deps: ContentSchedulerDeps): Promise<string[]> {
  const nowMs = (deps.now ?? Date.now)();
  const due = await deps.db
    .selectFrom("content")
    .select(["id", "publishedAt"])
    .where("workflowStatus", "=", "scheduled")
    .where("publishedEpoch", "<=", nowMs)
    .where("status", "<>", "published")
    .limit(100)
    .execute();
  const published: string[] = [];
  for (const item of due) {
    if (await releaseIfDue(deps, item, nowMs)) published.push(item.id);
  }
  return published;
}

/**
 * Publishes one scheduled item if it is still scheduled and due at `nowMs`: one conditional
 * UPDATE, so of several processes that saw it due exactly one wins (true) and records the
 * auto_publish event in the same transaction; the others change nothing (false).
 */
export async function releaseIfDue(
  deps: Pick<ContentSchedulerDeps, "db" | "hooks">,
  item: { id: string; publishedAt: string | null },
  nowMs: number,
): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    const at = new Date(nowMs).toISOString();
    const result = await trx
      .updateTable("content")
      .set({ status: "published", workflowStatus: "published", updatedAt: at, updatedEpoch: nowMs })
      .set((eb) => ({ version: eb("version", "+", 1) }))
      .where("id", "=", item.id)
      .where("workflowStatus", "=", "scheduled")
      .where("publishedEpoch", "<=", nowMs)
      .where("status", "<>", "published")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false; // another process released it
    await trx
      .insertInto("content_workflow_event")
      .values({
        id: uuidv7(),
        contentId: item.id,
        action: "auto_publish",
        fromState: "scheduled",
        toState: "published",
        actorId: null,
        at,
        notes: null,
        publishedAt: item.publishedAt,
      })
      .execute();
    await bumpContentRevision(trx);
    await deps.hooks?.afterWrite?.({ kind: "upsert", id: item.id }, trx);
    return true;
  });
}

export interface ContentScheduler {
  /** Runs one pass now (tests; the timer runs them otherwise). */
  runOnce(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Runs `publishDueContent` every `intervalMs` on an unref'd timer (it never keeps the process
 * alive); a failing pass is logged and the next one tries again. `stop` waits for a running pass.
 */
export function startContentScheduler(
  deps: ContentSchedulerDeps & { intervalMs?: number },
): ContentScheduler {
  let running: Promise<string[]> | null = null;
  let stopped = false;
  const runOnce = async (): Promise<string[]> => {
    if (running) return running;
    const track = deps.track ?? ((pass) => pass());
    running = track(() => publishDueContent(deps))
      .then((ids = []) => {
        if (ids.length) deps.logger?.info?.({ ids }, "scheduled content published");
        return ids;
      })
      .catch((error: unknown) => {
        deps.logger?.error({ err: error }, "scheduled content: publishing due items failed");
        return [];
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) void runOnce();
  }, deps.intervalMs ?? 1000);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
