/**
 * E-mail notifications (issue 15): opt-in per kind, followed sections, and a delivery log whose
 * unique `dedupeKey` makes every mail go out at most once, even with several processes sweeping.
 * - `notification_preference`: one row per user and kind (replies | followed_sections |
 *   weekly_digest); no row means off (opt-in).
 * - `section_follow`: the sections a user follows.
 * - `notification_delivery`: one row per mail sent (claimed before sending).
 * - `notification_cursor`: the sweep's high-water marks by name.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("notification_preference")
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("enabled", t.bool, t.boolNotNull(false))
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("notification_preference_pk", ["userId", "kind"])
      .execute();
    await db.schema
      .createIndex("notification_preference_kind_idx")
      .on("notification_preference")
      .columns(["kind", "enabled"])
      .execute();
    await db.schema
      .createTable("section_follow")
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("section", "text", (c) => c.notNull())
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("section_follow_pk", ["userId", "section"])
      .execute();
    await db.schema
      .createIndex("section_follow_section_idx")
      .on("section_follow")
      .columns(["section"])
      .execute();
    await db.schema
      .createTable("notification_delivery")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("dedupeKey", "text", (c) => c.notNull().unique())
      .addColumn("sentAt", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("notification_delivery_userId_idx")
      .on("notification_delivery")
      .columns(["userId", "sentAt"])
      .execute();
    await db.schema
      .createTable("notification_cursor")
      .addColumn("name", "text", (c) => c.primaryKey().notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    for (const table of [
      "notification_cursor",
      "notification_delivery",
      "section_follow",
      "notification_preference",
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
