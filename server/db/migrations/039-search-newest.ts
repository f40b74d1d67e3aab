/**
 * PostgreSQL: search candidates newest first (decision 022, later). `content_search` gains the
 * integer `docId` SQLite already has (an identity: the order documents were first indexed; a
 * re-index of changed text keeps it) with a btree index, so the candidate query
 * `where "documentVector" @@ q order by "docId" desc limit 500` can walk the newest documents
 * backwards and stop at the 500th match of a common word, or take the GIN index for a rare one,
 * whichever the planner's word statistics say is cheaper. Both dialects then look at the same
 * candidates: the newest 500 matching documents. SQLite: nothing to do.
 */
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./column-types.ts";
import { columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    if (!columnTypes(db).pg) return;
    await sql`alter table "content_search" add column "docId" bigint generated always as identity`.execute(
      db,
    );
    await sql`create unique index "content_search_docId_uidx" on "content_search" ("docId")`.execute(db);
  },
  async down(db: AnyDb) {
    if (!columnTypes(db).pg) return;
    await sql`drop index if exists "content_search_docId_uidx"`.execute(db);
    await sql`alter table "content_search" drop column "docId"`.execute(db);
  },
};
