/**
 * Identity attributes kept on the user row beside Better Auth's columns (issue 10 point 9,
 * decision 016): the phone number given at sign-up until it is verified, and the time of the last
 * successful sign-in. They reach every channel (session context, ID tokens, /api/account/me)
 * through `claimsForUser`.
 */
import type { Kysely } from "kysely";
import type { Claims } from "../../core/index.ts";
import type { DB } from "../db/schema.ts";

const truthy = (value: unknown) => value === true || value === 1 || value === "1";

/**
 * The phone and last-login claims of a user: `phone_number` with `phone_number_verified` (the
 * verified number, else the unverified one given at sign-up) and `custom:lastLogin` (ISO-8601 UTC).
 */
export async function attributeClaims(db: Kysely<DB>, userId: string): Promise<Claims> {
  const row = await db
    .selectFrom("user")
    .select(["phoneNumber", "phoneNumberVerified", "unverifiedPhoneNumber", "lastLoginAt"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row) return {};
  const claims: Claims = {};
  if (row.phoneNumber && truthy(row.phoneNumberVerified)) {
    claims.phone_number = row.phoneNumber;
    claims.phone_number_verified = true;
  } else if (row.unverifiedPhoneNumber || row.phoneNumber) {
    claims.phone_number = row.unverifiedPhoneNumber || row.phoneNumber;
    claims.phone_number_verified = false;
  }
  if (row.lastLoginAt) claims["custom:lastLogin"] = row.lastLoginAt;
  return claims;
}

/** A successful sign-in (a session was created): the last-login time, in UTC. */
export async function recordLastLogin(db: Kysely<DB>, userId: string, atMs: number): Promise<void> {
  await db
    .updateTable("user")
    .set({ lastLoginAt: new Date(atMs).toISOString() })
    .where("id", "=", userId)
    .execute();
}

/** Keeps the number given at sign-up as the account's unverified phone (validated E.164). */
export async function keepUnverifiedPhone(db: Kysely<DB>, userId: string, phone: string): Promise<void> {
  await db.updateTable("user").set({ unverifiedPhoneNumber: phone }).where("id", "=", userId).execute();
}

/** A phone number was verified by SMS: it replaces any unverified one. */
export async function clearUnverifiedPhone(db: Kysely<DB>, userId: string): Promise<void> {
  await db.updateTable("user").set({ unverifiedPhoneNumber: null }).where("id", "=", userId).execute();
}
