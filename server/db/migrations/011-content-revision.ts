/**
 * `content_revision`: one row whose counter goes up on every content, category or content-item
 * write. Each process polls it (a primary-key read) and drops its anonymous page cache when it
 * moves, so a publish reaches visitors on every replica within about a second.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("content_revision")
      .addColumn("id", "integer", (c) => c.primaryKey().notNull())
      .addColumn("revision", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("changedAt", t.bigint, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.insertInto("content_revision").values({ id: 1, revision: 0, changedAt: 0 }).execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("content_revision").execute();
  },
};
