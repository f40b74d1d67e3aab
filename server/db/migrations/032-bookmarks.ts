/**
 * The reader's dashboard (issue 15):
 * - `bookmark`: the items a reader saved, one row per user and item (newest first by createdAt).
 * - `user_visit`: when the reader last opened /dashboard (`lastDashboardAt`) and the visit before
 *   that (`previousDashboardAt`), so the dashboard can show what is new since the last visit.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("bookmark")
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("bookmark_pk", ["userId", "contentId"])
      .execute();
    await db.schema
      .createIndex("bookmark_userId_createdAt_idx")
      .on("bookmark")
      .columns(["userId", "createdAt"])
      .execute();
    await db.schema
      .createTable("user_visit")
      .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
      .addColumn("lastDashboardAt", "text", (c) => c.notNull())
      .addColumn("previousDashboardAt", "text")
      .execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropTable("user_visit").execute();
    await db.schema.dropTable("bookmark").execute();
  },
};
