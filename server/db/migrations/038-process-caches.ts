/**
 * Cache figures in the process heartbeat (/super-admin/infrastructure): each process's in-memory
 * caches (entries, estimated bytes and their bounds, hits and misses) as JSON, beside its memory.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable("process_heartbeat")
      .addColumn("caches", "text", (c) => c.notNull().defaultTo("[]"))
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable("process_heartbeat").dropColumn("caches").execute();
  },
};
