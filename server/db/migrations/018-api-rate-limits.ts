/**
 * API rate limits (decision 014): one counter per key and fixed window, shared by every server
 * process. `key` names the bucket and the caller (`r:u:<userId>`, `w:a:<address>` …),
 * `windowStart` the window (epoch ms), `count` the units used in it. Old windows are deleted.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("api_rate_limit")
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("windowStart", t.bigint, (c) => c.notNull())
      .addColumn("count", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("api_rate_limit_pk", ["key", "windowStart"])
      .execute();
    await db.schema
      .createIndex("api_rate_limit_window_idx")
      .on("api_rate_limit")
      .column("windowStart")
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("api_rate_limit").execute();
  },
};
