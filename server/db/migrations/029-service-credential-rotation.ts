/**
 * Issue 14, /super-admin/security:
 * - `service_credential.rotatedAt`: when the credential's secret was last rotated (ISO time, null =
 *   never). Rotation replaces the secret hash, so the old secret is refused at once; service tokens
 *   issued before `rotatedAt` are refused too (identity checks it on every request), so a rotation
 *   also ends what the old secret already obtained.
 * - `session(issuedAt)`: the platform sessions list reads the sessions still inside their lifetime
 *   (a range on `issuedAt`), never a scan of every row ever written.
 * - `login_throttle(lockedUntil)`: the current locks are a range on `lockedUntil` (the table holds
 *   a counter per address and login name tried).
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable("service_credential").addColumn("rotatedAt", "text").execute();
    await db.schema.createIndex("session_issuedAt_idx").on("session").column("issuedAt").execute();
    await db.schema
      .createIndex("login_throttle_lockedUntil_idx")
      .on("login_throttle")
      .column("lockedUntil")
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("login_throttle_lockedUntil_idx").execute();
    await db.schema.dropIndex("session_issuedAt_idx").execute();
    await db.schema.alterTable("service_credential").dropColumn("rotatedAt").execute();
  },
};
