/**
 * PostgreSQL: every process hears at once when content or settings changed (decision 032). A
 * trigger on the two revision rows (`content_revision`, migration 011; `system_setting_revision`,
 * migration 024) sends `pg_notify('lumen_revision', <table name>)` after each update; PostgreSQL
 * delivers it when the writing transaction commits, and not at all when it rolls back. Processes
 * LISTEN on a connection of their own (`server/db/revision-listener.ts`) and re-read the revision
 * at once instead of at their next one-second poll, which stays as the fallback. SQLite: nothing
 * (processes on one SQLite file keep polling).
 */
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./column-types.ts";
import { columnTypes } from "./column-types.ts";

const TABLES = ["content_revision", "system_setting_revision"] as const;

export const migration: Migration = {
  async up(db: AnyDb) {
    if (!columnTypes(db).pg) return;
    await sql`
      create or replace function "lumen_notify_revision"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('lumen_revision', TG_TABLE_NAME);
        return null;
      end $$`.execute(db);
    for (const table of TABLES) {
      await sql`
        create trigger ${sql.id(`${table}_notify`)} after update on ${sql.table(table)}
        for each row execute function "lumen_notify_revision"()`.execute(db);
    }
  },
  async down(db: AnyDb) {
    if (!columnTypes(db).pg) return;
    for (const table of TABLES) {
      await sql`drop trigger if exists ${sql.id(`${table}_notify`)} on ${sql.table(table)}`.execute(db);
    }
    await sql`drop function if exists "lumen_notify_revision"()`.execute(db);
  },
};
