/**
 * Outgoing webhooks (decision 037):
 *
 * - `webhook_endpoint`: a receiver's URL, the events it wants (a JSON list), its signing secret
 *   (kept as given: it signs every delivery, so it cannot be hashed), enabled, a description.
 * - `webhook_delivery`: one row per event per endpoint; the write that causes an event only
 *   inserts these rows. The sender claims a due row by moving `leaseUntil` (one conditional
 *   UPDATE, so each attempt runs on one process), POSTs `payload` and records the outcome: the
 *   attempts, the response code, a short excerpt, the duration and the next attempt (null once
 *   it succeeded or failed for good). A replay is a new row with the same `eventId`.
 * - `webhook_content_state`: the last status and version webhooks saw of each content item, so a
 *   write is told apart as a publish, an archive or an update of live content.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("webhook_endpoint")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("events", "text", (c) => c.notNull())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("enabled", t.bool, t.boolNotNull(true))
      .addColumn("createdBy", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .addColumn("secretRotatedAt", "text")
      .execute();
    await db.schema
      .createTable("webhook_delivery")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("endpointId", "text", (c) =>
        c.notNull().references("webhook_endpoint.id").onDelete("cascade"),
      )
      .addColumn("eventId", "text", (c) => c.notNull())
      .addColumn("eventType", "text", (c) => c.notNull())
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("nextAttemptEpoch", t.bigint)
      .addColumn("leaseUntil", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("lastAttemptAt", "text")
      .addColumn("responseStatus", "integer")
      .addColumn("responseExcerpt", "text")
      .addColumn("durationMs", "integer")
      .addColumn("error", "text")
      .addColumn("replayOf", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("createdEpoch", t.bigint, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("webhook_delivery_due_idx")
      .on("webhook_delivery")
      .columns(["status", "nextAttemptEpoch"])
      .execute();
    await db.schema
      .createIndex("webhook_delivery_endpoint_idx")
      .on("webhook_delivery")
      .columns(["endpointId", "createdEpoch", "id"])
      .execute();
    await db.schema
      .createIndex("webhook_delivery_created_idx")
      .on("webhook_delivery")
      .columns(["createdEpoch"])
      .execute();
    await db.schema
      .createTable("webhook_content_state")
      .addColumn("contentId", "text", (c) => c.primaryKey().notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("webhook_content_state").ifExists().execute();
    await db.schema.dropTable("webhook_delivery").ifExists().execute();
    await db.schema.dropTable("webhook_endpoint").ifExists().execute();
  },
};
