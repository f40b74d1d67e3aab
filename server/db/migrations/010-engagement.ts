/**
 * Engagement (issue 4 item 8 and course progress of item 3):
 * - `content_view`: one row per item, reader and UTC day (the dedup key of the view counter);
 *   `readerKey` is `u:<userId>` or a keyed hash of a visitor's address and browser for that day,
 *   never a raw address. Rows older than two days are pruned (only today's rows deduplicate).
 * - `content_like`: one row per item and user (the like toggle).
 * - `content_share`: one row per share; at most one per item, user, channel and UTC day.
 * - `course_progress`: one row per user, course and completed lesson.
 * The counters themselves stay on `content` (viewCount, likeCount, shareCount), changed in the
 * same transaction as these rows.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("content_view")
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("readerKey", "text", (c) => c.notNull())
      /** UTC day, YYYY-MM-DD. */
      .addColumn("day", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("content_view_pk", ["contentId", "readerKey", "day"])
      .execute();
    await db.schema.createIndex("content_view_day_idx").on("content_view").column("day").execute();

    await db.schema
      .createTable("content_like")
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("content_like_pk", ["contentId", "userId"])
      .execute();
    await db.schema
      .createIndex("content_like_userId_createdAt_idx")
      .on("content_like")
      .columns(["userId", "createdAt"])
      .execute();

    await db.schema
      .createTable("content_share")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("channel", "text", (c) => c.notNull())
      /** UTC day of createdAt, YYYY-MM-DD: the dedup key (one share per user, item, channel, day). */
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("createdAt", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("content_share_contentId_userId_channel_day_uidx")
      .on("content_share")
      .columns(["contentId", "userId", "channel", "day"])
      .unique()
      .execute();
    await db.schema
      .createIndex("content_share_userId_createdAt_idx")
      .on("content_share")
      .columns(["userId", "createdAt"])
      .execute();

    await db.schema
      .createTable("course_progress")
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("courseId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("lessonId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("completedAt", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("course_progress_pk", ["userId", "courseId", "lessonId"])
      .execute();
    await db.schema
      .createIndex("course_progress_lessonId_idx")
      .on("course_progress")
      .column("lessonId")
      .execute();
    await db.schema
      .createIndex("course_progress_courseId_idx")
      .on("course_progress")
      .column("courseId")
      .execute();
  },

  async down(db: AnyDb) {
    for (const table of ["course_progress", "content_share", "content_like", "content_view"]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
