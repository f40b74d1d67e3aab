/**
 * Staff rights need a second factor (core/staff-mfa.ts, docs/decisions/012-staff-mfa.md): the
 * one server-side place that decides, from the database, whether an account's staff groups may
 * reach its claims. `identity.claimsForUser` (sessions, page loads, ID tokens issued, body links)
 * and the bearer-token path (tokens issued earlier) both go through `gateStaffClaims`.
 */
import type { Kysely } from "kysely";
import {
  type Claims,
  parseGroups,
  staffGroupsOf,
  staffRolesOf,
  withholdStaffRights,
} from "../../core/index.ts";
import type { DB } from "../db/schema.ts";

const truthy = (value: unknown) => value === true || value === 1 || value === "1";

/** True when the account has two-factor on with a verified authenticator app (TOTP). */
export async function hasVerifiedTotp(db: Kysely<DB>, userId: string): Promise<boolean> {
  const user = await db
    .selectFrom("user")
    .select("twoFactorEnabled")
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user || !truthy(user.twoFactorEnabled)) return false;
  const factors = await db.selectFrom("twoFactor").select("verified").where("userId", "=", userId).execute();
  return factors.some((f) => truthy(f.verified));
}

/**
 * The claims the account may use now: unchanged for non-staff accounts (no database work) and
 * for staff with a verified TOTP; otherwise its staff rights are withheld (`withholdStaffRights`).
 */
export async function gateStaffClaims(db: Kysely<DB>, claims: Claims): Promise<Claims> {
  if (staffGroupsOf(parseGroups(claims["cognito:groups"])).length === 0) return claims;
  const sub = claims.sub;
  if (typeof sub === "string" && sub !== "" && (await hasVerifiedTotp(db, sub))) return claims;
  return withholdStaffRights(claims);
}

/** The staff roles of an account that wait for enrolment (empty when none wait). */
export async function pendingStaffRolesOf(db: Kysely<DB>, userId: string): Promise<string[]> {
  const groups = (
    await db.selectFrom("user_group").select("groupName").where("userId", "=", userId).execute()
  ).map((g) => g.groupName);
  const roles = staffRolesOf(groups);
  if (roles.length === 0 || (await hasVerifiedTotp(db, userId))) return [];
  return roles;
}
