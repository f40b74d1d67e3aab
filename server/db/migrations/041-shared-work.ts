/**
 * Work shared across app processes (issue 17, decision 028):
 *
 * - `job_lease`: one row per periodic job. A process runs a pass only while it holds the lease
 *   (taken by one conditional UPDATE when free or expired, renewed during long passes, released at
 *   the end), so each tick runs on one process. The row also keeps the last run (who ran it, when,
 *   the outcome) for /super-admin/infrastructure.
 * - `github_response`: the GitHub client's conditional-request cache (ETag and the answer it
 *   validates), so a restart or another process sends `If-None-Match` instead of spending rate limit.
 * - Triggers: renaming a user (`name`, `displayName`: the author name shown on items) bumps the
 *   content revision, so every process drops the names and pages it cached within a second.
 */
import { type Migration, sql } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

const NAME_COLUMNS = `"name", "displayName"`;
const TRIGGER = "content_revision_user_names";
const FUNCTION = "bump_content_revision_on_user_names";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("job_lease")
      .addColumn("name", "text", (c) => c.primaryKey().notNull())
      .addColumn("holder", "text")
      .addColumn("leaseUntil", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("lastHolder", "text")
      .addColumn("lastStartedAt", "text")
      .addColumn("lastFinishedAt", "text")
      .addColumn("lastOutcome", "text")
      .addColumn("lastError", "text")
      .addColumn("runs", t.bigint, (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable("github_response")
      .addColumn("key", "text", (c) => c.primaryKey().notNull())
      .addColumn("etag", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("bytes", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("usedEpoch", t.bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("github_response_used").on("github_response").column("usedEpoch").execute();

    if (t.pg) {
      await sql
        .raw(
          `create or replace function "${FUNCTION}"() returns trigger language plpgsql as $$
           begin
             update "content_revision" set "revision" = "revision" + 1,
               "changedAt" = (extract(epoch from clock_timestamp()) * 1000)::bigint where "id" = 1;
             return null;
           end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger "${TRIGGER}" after update of ${NAME_COLUMNS} on "user"
           for each row when (old."name" is distinct from new."name"
             or old."displayName" is distinct from new."displayName")
           execute function "${FUNCTION}"()`,
        )
        .execute(db);
      return;
    }
    await sql
      .raw(
        `create trigger "${TRIGGER}" after update of ${NAME_COLUMNS} on "user"
         when old."name" is not new."name" or old."displayName" is not new."displayName"
         begin
           update "content_revision" set "revision" = "revision" + 1,
             "changedAt" = cast((julianday('now') - 2440587.5) * 86400000 as integer) where "id" = 1;
         end`,
      )
      .execute(db);
  },

  async down(db: AnyDb) {
    const t = columnTypes(db);
    await sql.raw(`drop trigger if exists "${TRIGGER}"${t.pg ? ` on "user"` : ""}`).execute(db);
    if (t.pg) await sql.raw(`drop function if exists "${FUNCTION}"()`).execute(db);
    await db.schema.dropTable("github_response").execute();
    await db.schema.dropTable("job_lease").execute();
  },
};
