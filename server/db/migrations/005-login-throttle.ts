/**
 * Login security state shared by every server process (SECURITY.md §1, §2, §7):
 * - `login_throttle`: failed sign-in counters and lock expiry per account and per client address;
 * - `rate_limit`: Better Auth's rate limiter in the database (its `rateLimit` model, renamed);
 * - session columns for our own session rules: the original sign-in time (kept across rotations),
 *   last activity, last rotation (epoch ms) and the device fingerprint bound at sign-in.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema
      .createTable("login_throttle")
      .addColumn("key", "text", (c) => c.primaryKey().notNull())
      .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("windowStart", t.bigint, (c) => c.notNull())
      .addColumn("lockedUntil", t.bigint)
      .addColumn("updatedAt", t.bigint, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("rate_limit")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("key", "text", (c) => c.notNull().unique())
      .addColumn("count", "integer", (c) => c.notNull())
      .addColumn("lastRequest", t.bigint, (c) => c.notNull())
      .execute();

    await db.schema.alterTable("session").addColumn("issuedAt", t.bigint).execute();
    await db.schema.alterTable("session").addColumn("lastActiveAt", t.bigint).execute();
    await db.schema.alterTable("session").addColumn("rotatedAt", t.bigint).execute();
    await db.schema.alterTable("session").addColumn("fingerprint", "text").execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropTable("login_throttle").execute();
    await db.schema.dropTable("rate_limit").execute();
    for (const column of ["issuedAt", "lastActiveAt", "rotatedAt", "fingerprint"]) {
      await db.schema.alterTable("session").dropColumn(column).execute();
    }
  },
};
