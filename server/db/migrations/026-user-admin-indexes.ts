/**
 * Indexes for the users admin list (/admin/users, issue 14), so it stays fast with 100,000 users:
 *
 * - search is a case-insensitive prefix match on the e-mail, the username and the name: a range
 *   on `lower(col)` (PostgreSQL under COLLATE "C", so the range is exactly the prefix set; SQLite
 *   compares bytes already). The `id` column after it is the sort's tie-breaker;
 * - sorting by name / e-mail uses the same indexes, by creation or last sign-in the two below;
 * - the group, organisation and organisation-admin filters look members up by group name.
 */

import type { Migration } from "kysely";
import { sql } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

const LOWERED = [
  ["user_email_lower_idx", "email"],
  ["user_username_lower_idx", "username"],
  ["user_name_lower_idx", "name"],
] as const;

export const migration: Migration = {
  async up(db: AnyDb) {
    const { pg } = columnTypes(db);
    for (const [name, column] of LOWERED) {
      const expression = pg ? `lower("${column}") collate "C"` : `lower("${column}")`;
      await sql.raw(`create index "${name}" on "user" (${expression}, "id")`).execute(db);
    }
    await db.schema.createIndex("user_createdAt_idx").on("user").columns(["createdAt", "id"]).execute();
    // Last sign-in: never-signed-in accounts last when newest first (PostgreSQL sorts NULLs first
    // going down unless the index says otherwise; SQLite puts them last already).
    await sql
      .raw(
        pg
          ? `create index "user_lastLoginAt_idx" on "user" ("lastLoginAt" desc nulls last, "id" desc)`
          : `create index "user_lastLoginAt_idx" on "user" ("lastLoginAt", "id")`,
      )
      .execute(db);
    await db.schema
      .createIndex("user_group_groupName_userId_idx")
      .on("user_group")
      .columns(["groupName", "userId"])
      .execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropIndex("user_group_groupName_userId_idx").execute();
    await db.schema.dropIndex("user_lastLoginAt_idx").execute();
    await db.schema.dropIndex("user_createdAt_idx").execute();
    for (const [name] of LOWERED) await db.schema.dropIndex(name).execute();
  },
};
