/**
 * Full-text search over content (issue 4 item 6). `content_search` holds one row per content item
 * (the key is `contentId`, deleted with the content by its foreign key) with the text that is
 * searched: title, excerpt, tags (joined) and the body as plain text (markdown stripped, read from
 * object storage when the item is indexed). Metadata and body stay separately matchable, so a
 * reader who may not open an item matches it on its metadata only.
 *
 * SQLite: two FTS5 indexes (porter stemming over unicode61 without diacritics) over the columns of
 * `content_search` as their external content, kept in step by triggers: `content_search_fts`
 * (title, excerpt, tags, body) and `content_search_meta_fts` (title, excerpt, tags), whose bm25 does
 * not even see the body's length. FTS5 keys rows by an integer rowid, so `content_search` has an
 * integer `docId` beside its `contentId`.
 *
 * PostgreSQL: generated tsvectors (english configuration) with GIN indexes: `metaVector` (title
 * weight A, tags and excerpt B) and `documentVector` (the same plus the body, weight C). Body-only
 * matches are those of `documentVector` that `metaVector` does not have.
 */
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./column-types.ts";
import { columnTypes } from "./column-types.ts";

const META_VECTOR = sql.raw(`setweight(to_tsvector('english'::regconfig, "title"), 'A')
  || setweight(to_tsvector('english'::regconfig, "tags"), 'B')
  || setweight(to_tsvector('english'::regconfig, "excerpt"), 'B')`);
const BODY_VECTOR = sql.raw(`setweight(to_tsvector('english'::regconfig, "body"), 'C')`);

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    if (t.pg) {
      await db.schema
        .createTable("content_search")
        .addColumn("contentId", "text", (c) =>
          c.primaryKey().notNull().references("content.id").onDelete("cascade"),
        )
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("excerpt", "text", (c) => c.notNull())
        .addColumn("tags", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("indexedAt", "text", (c) => c.notNull())
        .addColumn("metaVector", sql`tsvector`, (c) => c.generatedAlwaysAs(META_VECTOR).stored().notNull())
        .addColumn("documentVector", sql`tsvector`, (c) =>
          c.generatedAlwaysAs(sql`${META_VECTOR} || ${BODY_VECTOR}`).stored().notNull(),
        )
        .execute();
      await sql`create index "content_search_metaVector_idx" on "content_search" using gin ("metaVector")`.execute(
        db,
      );
      await sql`create index "content_search_documentVector_idx" on "content_search" using gin ("documentVector")`.execute(
        db,
      );
      return;
    }

    await db.schema
      .createTable("content_search")
      .addColumn("docId", "integer", (c) => c.primaryKey().notNull())
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("excerpt", "text", (c) => c.notNull())
      .addColumn("tags", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("indexedAt", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("content_search_contentId_uidx")
      .on("content_search")
      .column("contentId")
      .unique()
      .execute();
    const indexes = [
      { table: "content_search_fts", columns: ["title", "excerpt", "tags", "body"] },
      { table: "content_search_meta_fts", columns: ["title", "excerpt", "tags"] },
    ];
    for (const { table, columns } of indexes) {
      await sql
        .raw(`create virtual table "${table}" using fts5(
          ${columns.map((c) => `"${c}"`).join(", ")},
          content = 'content_search', content_rowid = 'docId',
          tokenize = 'porter unicode61 remove_diacritics 2'
        )`)
        .execute(db);
    }
    // External-content FTS5: the indexes follow the table through triggers (a cascade delete of
    // the content fires the delete trigger too).
    const insertNew = indexes
      .map(
        ({ table, columns }) =>
          `insert into "${table}" ("rowid", ${columns.map((c) => `"${c}"`).join(", ")})
          values (new."docId", ${columns.map((c) => `new."${c}"`).join(", ")});`,
      )
      .join(" ");
    const deleteOld = indexes
      .map(
        ({ table, columns }) =>
          `insert into "${table}" ("${table}", "rowid", ${columns.map((c) => `"${c}"`).join(", ")})
          values ('delete', old."docId", ${columns.map((c) => `old."${c}"`).join(", ")});`,
      )
      .join(" ");
    await sql
      .raw(`create trigger "content_search_ai" after insert on "content_search" begin ${insertNew} end`)
      .execute(db);
    await sql
      .raw(`create trigger "content_search_ad" after delete on "content_search" begin ${deleteOld} end`)
      .execute(db);
    await sql
      .raw(
        `create trigger "content_search_au" after update on "content_search" begin ${deleteOld} ${insertNew} end`,
      )
      .execute(db);
  },

  async down(db: AnyDb) {
    if (!columnTypes(db).pg) {
      for (const trigger of ["content_search_au", "content_search_ad", "content_search_ai"]) {
        await sql`drop trigger if exists ${sql.ref(trigger)}`.execute(db);
      }
      await sql`drop table if exists "content_search_meta_fts"`.execute(db);
      await sql`drop table if exists "content_search_fts"`.execute(db);
    }
    await db.schema.dropTable("content_search").execute();
  },
};
