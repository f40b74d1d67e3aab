/**
 * Indexes for the audit log screen (/admin/logs): filtering by action (one or several, or a
 * category's actions) and by target, each still ordered by time then id for keyset paging.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createIndex("audit_log_action_at_idx")
      .on("audit_log")
      .columns(["action", "at", "id"])
      .execute();
    await db.schema
      .createIndex("audit_log_target_at_idx")
      .on("audit_log")
      .columns(["targetType", "targetId", "at", "id"])
      .execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropIndex("audit_log_target_at_idx").execute();
    await db.schema.dropIndex("audit_log_action_at_idx").execute();
  },
};
