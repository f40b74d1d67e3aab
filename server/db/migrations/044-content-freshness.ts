/**
 * Freshness of content (decision 038): an item's own review-by date (`reviewBy`, null = the
 * section's default period applies), when and by whom it was last marked reviewed
 * (`lastReviewedAt`, `lastReviewedBy`). Each timestamp has its epoch twin, like the other content
 * datetimes, so the review queue can order by the effective review-by date in SQL on both
 * dialects. All nullable: existing rows start unreviewed, due by their published date plus the
 * section's default.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";
import { columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema.alterTable("content").addColumn("reviewBy", "text").execute();
    await db.schema.alterTable("content").addColumn("reviewByEpoch", t.bigint).execute();
    await db.schema.alterTable("content").addColumn("lastReviewedAt", "text").execute();
    await db.schema.alterTable("content").addColumn("lastReviewedEpoch", t.bigint).execute();
    await db.schema.alterTable("content").addColumn("lastReviewedBy", "text").execute();
  },
  async down(db: AnyDb) {
    for (const column of [
      "lastReviewedBy",
      "lastReviewedEpoch",
      "lastReviewedAt",
      "reviewByEpoch",
      "reviewBy",
    ]) {
      await db.schema.alterTable("content").dropColumn(column).execute();
    }
  },
};
