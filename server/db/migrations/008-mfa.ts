/**
 * Multi-factor authentication (issue 3 item 5, SECURITY.md §6):
 * - Better Auth's two-factor and phone-number plugin columns and its `twoFactor` table (secrets
 *   and backup codes encrypted by Better Auth), created here so both dialects get the same types;
 * - `mfa_totp_step`: the last accepted TOTP time step per user, so a code is accepted once.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);
    await db.schema.alterTable("user").addColumn("twoFactorEnabled", t.bool, t.boolNotNull(false)).execute();
    await db.schema.alterTable("user").addColumn("phoneNumber", "text").execute();
    await db.schema
      .alterTable("user")
      .addColumn("phoneNumberVerified", t.bool, t.boolNotNull(false))
      .execute();
    await db.schema.createIndex("user_phoneNumber_uidx").on("user").column("phoneNumber").unique().execute();

    await db.schema
      .createTable("twoFactor")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("backupCodes", "text", (c) => c.notNull())
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("verified", t.bool, t.boolNotNull(true))
      .addColumn("failedVerificationCount", "integer", (c) => c.defaultTo(0))
      .addColumn("lockedUntil", t.authDate)
      .execute();
    await db.schema.createIndex("twoFactor_userId_idx").on("twoFactor").column("userId").execute();
    await db.schema.createIndex("twoFactor_secret_idx").on("twoFactor").column("secret").execute();

    await db.schema
      .createTable("mfa_totp_step")
      .addColumn("userId", "text", (c) => c.primaryKey().notNull().references("user.id").onDelete("cascade"))
      .addColumn("step", t.bigint, (c) => c.notNull())
      .addColumn("updatedAt", t.bigint, (c) => c.notNull())
      .execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropTable("mfa_totp_step").execute();
    await db.schema.dropTable("twoFactor").execute();
    await db.schema.dropIndex("user_phoneNumber_uidx").execute();
    for (const column of ["twoFactorEnabled", "phoneNumber", "phoneNumberVerified"]) {
      await db.schema.alterTable("user").dropColumn(column).execute();
    }
  },
};
