/**
 * Public display names of users (shown as the author on every content item), by id: one indexed
 * query per call, never cached across requests (a renamed user shows their new name at once).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";

export function displayNamesByIds(db: Kysely<DB>, ids: readonly (string | null)[]) {
  return namesByIds(db, ids, (r) => r.displayName ?? r.name ?? null);
}

/**
 * Account names (the person, not their public byline), by id: who did what in the content
 * studio's history and workflow, shown to content writers only. Falls back to the display name.
 */
export function accountNamesByIds(db: Kysely<DB>, ids: readonly (string | null)[]) {
  return namesByIds(db, ids, (r) => r.name || r.displayName || null);
}

async function namesByIds(
  db: Kysely<DB>,
  ids: readonly (string | null)[],
  pick: (row: { displayName: string | null; name: string | null }) => string | null,
): Promise<Map<string, string | null>> {
  const unique = [...new Set(ids.filter((id): id is string => !!id))];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom("user")
    .select(["id", "displayName", "name"])
    .where("id", "in", unique)
    .execute();
  return new Map(rows.map((r) => [r.id, pick(r)]));
}
