/**
 * Readers and community (issue 15): the comment model grows moderation and threads, and reading
 * is remembered per day for the dashboard and reports.
 * - `comment`: status is published | pending | hidden | removed. `replyCount` counts published
 *   replies, `likeCount` the `comment_like` rows (the "top" sort), `reportCount` the open reports.
 *   `editedAt` when the author changed the body; `deletedAt` when the author deleted a comment that
 *   still has replies (the body is cleared and the thread kept). `moderatedAt`/`moderatedBy`/
 *   `moderationReason` record the last moderation decision. `requestKey` makes a create
 *   idempotent per author (a double-submit returns the first comment).
 * - `comment_report`: one open or resolved report per comment and reporter.
 * - `comment_like`: one row per comment and user.
 * - `commenter_restriction`: a muted (comments held for review) or banned (may not comment)
 *   user, optionally until a time.
 * - `reading_activity`: one row per user, item and UTC day with the seconds spent reading.
 */
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable("comment")
      .addColumn("replyCount", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable("comment")
      .addColumn("likeCount", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable("comment")
      .addColumn("reportCount", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    for (const column of [
      "editedAt",
      "deletedAt",
      "moderatedAt",
      "moderatedBy",
      "moderationReason",
      "requestKey",
    ]) {
      await db.schema.alterTable("comment").addColumn(column, "text").execute();
    }
    // Counts in step from here on: a comment's published direct replies, an item's published comments.
    await sql`update ${sql.table("comment")} set ${sql.ref("replyCount")} = (select count(*) from ${sql.table("comment")} as r where ${sql.ref("r.parentCommentId")} = ${sql.ref("comment.id")} and ${sql.ref("r.status")} = 'published')`.execute(
      db,
    );
    await sql`update ${sql.table("content")} set ${sql.ref("commentCount")} = (select count(*) from ${sql.table("comment")} as m where ${sql.ref("m.contentId")} = ${sql.ref("content.id")} and ${sql.ref("m.status")} = 'published')`.execute(
      db,
    );
    await db.schema
      .createIndex("comment_authorId_requestKey_uidx")
      .on("comment")
      .columns(["authorId", "requestKey"])
      .unique()
      .execute();
    await db.schema
      .createIndex("comment_status_createdAt_idx")
      .on("comment")
      .columns(["status", "createdAt", "id"])
      .execute();
    await db.schema
      .createIndex("comment_reportCount_idx")
      .on("comment")
      .columns(["reportCount", "createdAt"])
      .execute();

    await db.schema
      .createTable("comment_report")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("commentId", "text", (c) => c.notNull().references("comment.id").onDelete("cascade"))
      .addColumn("reporterId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("reason", "text", (c) => c.notNull())
      .addColumn("note", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("resolvedAt", "text")
      .addColumn("resolvedBy", "text")
      .addColumn("resolution", "text")
      .execute();
    await db.schema
      .createIndex("comment_report_commentId_reporterId_uidx")
      .on("comment_report")
      .columns(["commentId", "reporterId"])
      .unique()
      .execute();
    await db.schema
      .createIndex("comment_report_resolvedAt_createdAt_idx")
      .on("comment_report")
      .columns(["resolvedAt", "createdAt"])
      .execute();

    await db.schema
      .createTable("comment_like")
      .addColumn("commentId", "text", (c) => c.notNull().references("comment.id").onDelete("cascade"))
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("comment_like_pk", ["commentId", "userId"])
      .execute();
    await db.schema.createIndex("comment_like_userId_idx").on("comment_like").column("userId").execute();

    await db.schema
      .createTable("commenter_restriction")
      .addColumn("userId", "text", (c) => c.primaryKey().notNull().references("user.id").onDelete("cascade"))
      /** "muted": new comments are held as pending; "banned": may not comment at all. */
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("reason", "text")
      /** ISO time the restriction ends; null: until lifted. */
      .addColumn("until", "text")
      .addColumn("createdBy", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("reading_activity")
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      /** UTC day, YYYY-MM-DD. */
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("seconds", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("firstAt", "text", (c) => c.notNull())
      .addColumn("lastAt", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("reading_activity_pk", ["userId", "contentId", "day"])
      .execute();
    await db.schema
      .createIndex("reading_activity_userId_lastAt_idx")
      .on("reading_activity")
      .columns(["userId", "lastAt"])
      .execute();
    await db.schema
      .createIndex("reading_activity_userId_day_idx")
      .on("reading_activity")
      .columns(["userId", "day"])
      .execute();
  },

  async down(db: AnyDb) {
    for (const table of ["reading_activity", "commenter_restriction", "comment_like", "comment_report"]) {
      await db.schema.dropTable(table).execute();
    }
    for (const index of [
      "comment_reportCount_idx",
      "comment_status_createdAt_idx",
      "comment_authorId_requestKey_uidx",
    ]) {
      await db.schema.dropIndex(index).execute();
    }
    for (const column of [
      "requestKey",
      "moderationReason",
      "moderatedBy",
      "moderatedAt",
      "deletedAt",
      "editedAt",
      "reportCount",
      "likeCount",
      "replyCount",
    ]) {
      await db.schema.alterTable("comment").dropColumn(column).execute();
    }
  },
};
