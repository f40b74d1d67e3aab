/**
 * Public display names of users (shown as the author on every content item), by id: one indexed
 * query per call, never cached across requests (a renamed user shows their new name at once).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";

export async function displayNamesByIds(
  db: Kysely<DB>,
  ids: readonly (string | null)[],
): Promise<Map<string, string | null>> {
  const unique = [...new Set(ids.filter((id): id is string => !!id))];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom("user")
    .select(["id", "displayName", "name"])
    .where("id", "in", unique)
    .execute();
  return new Map(rows.map((r) => [r.id, r.displayName ?? r.name ?? null]));
}
