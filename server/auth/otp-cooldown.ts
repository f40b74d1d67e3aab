/**
 * The resend cooldown of codes sent by e-mail or SMS: one code per address (or account) and
 * purpose per OTP_RESEND_COOLDOWN_MS, kept in the database so every process sees it.
 */
import { APIError } from "better-auth/api";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

/** Resend cooldown for e-mailed codes, per address and purpose. */
export const OTP_RESEND_COOLDOWN_MS = 60_000;

export function createOtpCooldown(db: Kysely<DB>, now: () => number) {
  const keyOf = (kind: string, email: string) => `otp:${kind}:${email.trim().toLowerCase()}`;

  /** Notes that a code of this kind was just sent to `email`. */
  async function markSent(kind: string, email: string) {
    const key = keyOf(kind, email);
    const t = now();
    await db
      .insertInto("login_throttle")
      .values({ key, failures: 0, windowStart: t, lockedUntil: null, updatedAt: t })
      .onConflict((oc) => oc.column("key").doUpdateSet({ updatedAt: t, windowStart: t }))
      .execute();
  }

  /** Refuses (429, Retry-After) a code sent again within the cooldown; otherwise notes this one. */
  async function enforce(kind: string, email: string) {
    const t = now();
    const row = await db
      .selectFrom("login_throttle")
      .select("updatedAt")
      .where("key", "=", keyOf(kind, email))
      .executeTakeFirst();
    if (row && t - Number(row.updatedAt) < OTP_RESEND_COOLDOWN_MS) {
      const retryAfterS = Math.max(1, Math.ceil((Number(row.updatedAt) + OTP_RESEND_COOLDOWN_MS - t) / 1000));
      throw new APIError(
        "TOO_MANY_REQUESTS",
        {
          code: "RESEND_COOLDOWN",
          message: `Please wait ${retryAfterS} seconds before asking for another code.`,
        },
        { "Retry-After": String(retryAfterS) },
      );
    }
    await markSent(kind, email);
  }

  return { enforce, markSent };
}

export type OtpCooldown = ReturnType<typeof createOtpCooldown>;
