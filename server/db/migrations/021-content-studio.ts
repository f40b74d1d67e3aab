/**
 * The content studio (decision 017):
 * - `content_version`: one row per save of an item (create, update, restore), numbered like the
 *   item's own `version` at that save; `snapshot` is JSON `{fields, body}` (the metadata as
 *   stored and the Markdown source), so any two saves can be compared and an old one restored.
 * - `content_workflow_event`: one row per workflow transition (who, when, from, to, notes, the
 *   publication time it set), and one `auto_publish` row when the scheduling job releases an item.
 * - `content_scheduled_idx`: the scheduling job's look-up of due items (workflowStatus, publishedEpoch).
 * Authors and actors are kept as ids that become null when the user is deleted: the history stays.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("content_version")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("authorId", "text", (c) => c.references("user.id").onDelete("set null"))
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("note", "text")
      .addColumn("snapshot", "text", (c) => c.notNull())
      .addUniqueConstraint("content_version_contentId_version_uq", ["contentId", "version"])
      .execute();

    await db.schema
      .createTable("content_workflow_event")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("action", "text", (c) => c.notNull())
      .addColumn("fromState", "text", (c) => c.notNull())
      .addColumn("toState", "text", (c) => c.notNull())
      .addColumn("actorId", "text", (c) => c.references("user.id").onDelete("set null"))
      .addColumn("at", "text", (c) => c.notNull())
      .addColumn("notes", "text")
      .addColumn("publishedAt", "text")
      .execute();
    await db.schema
      .createIndex("content_workflow_event_contentId_at_idx")
      .on("content_workflow_event")
      .columns(["contentId", "at"])
      .execute();

    await db.schema
      .createIndex("content_scheduled_idx")
      .on("content")
      .columns(["workflowStatus", "publishedEpoch"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("content_scheduled_idx").execute();
    await db.schema.dropTable("content_workflow_event").execute();
    await db.schema.dropTable("content_version").execute();
  },
};
