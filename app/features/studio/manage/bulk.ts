/**
 * Bulk actions of the management table: one request for the selected rows
 * (`POST /api/studio/bulk`); the server runs each row through the same operations as a single
 * change and answers per row.
 */
import type { BulkAction, BulkResult } from "../../../../server/services.ts";
import { api } from "../../../lib/api.ts";

export type { BulkAction, BulkResult };

/** The outcome shown next to a row after a bulk action. */
export type RowOutcome = { ok: true; message: string } | { ok: false; message: string };

const DONE: Record<BulkAction, string> = {
  publish: "Published",
  archive: "Archived",
  set_category: "Category changed",
  set_tier: "Plan changed",
};

export async function runBulk(ids: readonly string[], action: BulkAction, value?: string) {
  const { results } = await api.post<{ results: BulkResult[] }>("/api/studio/bulk", {
    ids,
    action,
    ...(value === undefined ? {} : { value }),
  });
  const outcomes = new Map<string, RowOutcome>();
  for (const r of results) {
    outcomes.set(
      r.id,
      r.ok ? { ok: true, message: DONE[action] } : { ok: false, message: r.error?.message ?? "Not changed" },
    );
  }
  return outcomes;
}

/** "3 published, 1 not changed" for the live region. */
export function summarize(outcomes: ReadonlyMap<string, RowOutcome>, action: BulkAction): string {
  const done = [...outcomes.values()].filter((o) => o.ok).length;
  const failed = outcomes.size - done;
  const verb = DONE[action].toLowerCase();
  return failed === 0
    ? `${done} ${done === 1 ? "item" : "items"}: ${verb}.`
    : `${done} of ${outcomes.size} ${verb}; ${failed} not changed (see the rows).`;
}
