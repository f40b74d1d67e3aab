/**
 * Process heartbeats (issue 14, /super-admin/infrastructure): every app process sharing this
 * database upserts its own row every few seconds (memory, event-loop lag, request rate, page-cache
 * counters and its background jobs as JSON). Rows not seen for over a minute are shown as gone,
 * then pruned by any live process.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("process_heartbeat")
      .addColumn("processId", "text", (c) => c.primaryKey().notNull())
      .addColumn("hostname", "text", (c) => c.notNull())
      .addColumn("pid", "integer", (c) => c.notNull())
      .addColumn("version", "text", (c) => c.notNull())
      .addColumn("startedAt", "text", (c) => c.notNull())
      .addColumn("lastSeenAt", "text", (c) => c.notNull())
      .addColumn("lastSeenEpoch", t.bigint, (c) => c.notNull())
      .addColumn("rssBytes", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("heapUsedBytes", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("heapTotalBytes", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("lagP50Us", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("lagP99Us", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("requestsLastMinute", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("pageCacheHits", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("pageCacheMisses", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("jobs", "text", (c) => c.notNull().defaultTo("[]"))
      .execute();
    await db.schema
      .createIndex("process_heartbeat_last_seen")
      .on("process_heartbeat")
      .column("lastSeenEpoch")
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("process_heartbeat").execute();
  },
};
