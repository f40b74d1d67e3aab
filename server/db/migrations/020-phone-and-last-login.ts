/**
 * Identity attributes (issue 10 point 9, decision 016):
 * - `unverifiedPhoneNumber`: the phone number given at sign-up (E.164), kept until it is verified
 *   by SMS in /settings. Not unique: an unverified number proves nothing, so it never blocks
 *   another account from verifying the same number, and it is never used to sign in or to send a
 *   second factor (only `phoneNumber` with `phoneNumberVerified` is).
 * - `lastLoginAt`: ISO-8601 UTC time of the last successful sign-in (a session was created),
 *   the `custom:lastLogin` claim.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable("user").addColumn("unverifiedPhoneNumber", "text").execute();
    await db.schema.alterTable("user").addColumn("lastLoginAt", "text").execute();
  },
  async down(db: AnyDb) {
    for (const column of ["lastLoginAt", "unverifiedPhoneNumber"]) {
      await db.schema.alterTable("user").dropColumn(column).execute();
    }
  },
};
