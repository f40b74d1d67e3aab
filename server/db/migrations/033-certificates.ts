/**
 * Course completion (issue 15): a completion rule per course and the certificates issued when a
 * reader meets it.
 * - `course_rule`: one row per course (absent: the default rule, every lesson completed).
 *   `minLessonsPercent` 1..100 of the course's lessons; `minSeconds` optional reading time spent on
 *   the course and its lessons (reading_activity).
 * - `certificate`: one per user and course (unique), with an unguessable id (the verification URL).
 *   The course title and recipient name are copied at issue so a later rename does not change a
 *   certificate; `courseRevision` is the course's revision at issue. `revokedAt`/`revokedReason`
 *   mark a revoked certificate (it still verifies, as Revoked).
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("course_rule")
      .addColumn("courseId", "text", (c) =>
        c.primaryKey().notNull().references("content.id").onDelete("cascade"),
      )
      .addColumn("minLessonsPercent", "integer", (c) => c.notNull().defaultTo(100))
      .addColumn("minSeconds", "integer")
      .addColumn("updatedBy", "text")
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("certificate")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("courseId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("courseTitle", "text", (c) => c.notNull())
      .addColumn("recipientName", "text", (c) => c.notNull())
      .addColumn("courseRevision", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("issuedAt", "text", (c) => c.notNull())
      .addColumn("revokedAt", "text")
      .addColumn("revokedReason", "text")
      .execute();
    await db.schema
      .createIndex("certificate_userId_courseId_uidx")
      .on("certificate")
      .columns(["userId", "courseId"])
      .unique()
      .execute();
    await db.schema.createIndex("certificate_courseId_idx").on("certificate").column("courseId").execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropTable("certificate").execute();
    await db.schema.dropTable("course_rule").execute();
  },
};
