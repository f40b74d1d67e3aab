/**
 * The audit log: security and admin events (SECURITY.md §19). No foreign key on actorId: the
 * record outlives the user it names.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("audit_log")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("at", "text", (c) => c.notNull())
      .addColumn("actorId", "text")
      .addColumn("action", "text", (c) => c.notNull())
      .addColumn("targetType", "text")
      .addColumn("targetId", "text")
      .addColumn("ip", "text")
      .addColumn("details", "text")
      .execute();
    await db.schema.createIndex("audit_log_at_idx").on("audit_log").columns(["at", "id"]).execute();
    await db.schema
      .createIndex("audit_log_actorId_at_idx")
      .on("audit_log")
      .columns(["actorId", "at", "id"])
      .execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropTable("audit_log").execute();
  },
};
