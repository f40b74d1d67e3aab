/**
 * The reader-facing content list (`status = 'published'`, newest published first, keyset on
 * `publishedAt, id`) as one index range scan: without it, the planner may take the status index
 * ordered by `updatedAt` and sort every published row (seconds at a million items).
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createIndex("content_status_publishedAt_idx")
      .on("content")
      .columns(["status", "publishedAt", "id"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("content_status_publishedAt_idx").execute();
  },
};
