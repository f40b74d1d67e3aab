/**
 * API credentials (SECURITY.md §13, §18):
 * - `signing_key`: the asymmetric key pairs that sign ID and service tokens, shared by every
 *   server process; the private key is stored encrypted (AES-256-GCM, key derived from AUTH_SECRET);
 * - `api_key`: per-user API keys (`lh_<prefix>_<secret>`), stored as an HMAC of the key with the
 *   prefix for look-up, scoped, optional expiry, revocable, with a per-key rate-limit window;
 * - `service_credential`: admin-created client id + secret pairs for server-to-server calls.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("signing_key")
      .addColumn("kid", "text", (c) => c.primaryKey().notNull())
      .addColumn("alg", "text", (c) => c.notNull())
      .addColumn("publicJwk", "text", (c) => c.notNull())
      .addColumn("privateKeyEnc", "text", (c) => c.notNull())
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("retiredAt", "text")
      .execute();

    await db.schema
      .createTable("api_key")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("prefix", "text", (c) => c.notNull().unique())
      .addColumn("keyHash", "text", (c) => c.notNull())
      .addColumn("scopes", "text", (c) => c.notNull())
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("expiresAt", "text")
      .addColumn("revokedAt", "text")
      .addColumn("lastUsedAt", "text")
      .addColumn("rateLimitPerMinute", "integer", (c) => c.notNull().defaultTo(600))
      .addColumn("windowStart", t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn("windowCount", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("api_key_user_idx").on("api_key").column("userId").execute();

    await db.schema
      .createTable("service_credential")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("clientId", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("secretHash", "text", (c) => c.notNull())
      .addColumn("scopes", "text", (c) => c.notNull())
      .addColumn("createdBy", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("revokedAt", "text")
      .addColumn("lastUsedAt", "text")
      .execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropTable("service_credential").execute();
    await db.schema.dropTable("api_key").execute();
    await db.schema.dropTable("signing_key").execute();
  },
};
