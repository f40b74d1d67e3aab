/**
 * Multi-factor authentication rules on top of Better Auth's two-factor and phone-number plugins
 * (issue 3 item 5, SECURITY.md §1, §6, §9, §19):
 *
 * - a TOTP code is accepted once: the last accepted time step per user is kept in
 *   `mfa_totp_step`, claimed atomically before Better Auth checks the code, and a reused (or
 *   older) step is refused;
 * - wrong second-factor codes count toward the same per-account / per-address lockout as wrong
 *   passwords (5 → locked 5 minutes);
 * - SMS codes go only to a VERIFIED phone number through the SmsSender, expire in ≤ 10 minutes;
 * - audit rows for mfa_enabled, mfa_disabled, mfa_failure, backup_code_used, phone_verified.
 */
import { APIError } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { matchTotpStep, TOTP_DIGITS, TOTP_PERIOD_S, totpKeyOf } from "./totp.ts";

/** Second-factor code lengths and lifetimes. */
export const SMS_OTP_DIGITS = 6;
/** Two-factor SMS code lifetime, minutes (Better Auth's `otpOptions.period` unit). */
export const SMS_2FA_OTP_MINUTES = 5;
/** Phone verification code lifetime, seconds. */
export const PHONE_OTP_EXPIRES_S = 300;
export const MFA_ISSUER = "Lumen Hub";

/** The paths whose wrong codes count toward the lockout. */
export const SECOND_FACTOR_PATHS = new Map<string, "totp" | "otp" | "backup_code">([
  ["/two-factor/verify-totp", "totp"],
  ["/two-factor/verify-otp", "otp"],
  ["/two-factor/verify-backup-code", "backup_code"],
]);

/** Better Auth answers that mean "wrong code" (not "no challenge"). */
export const WRONG_CODE_ERRORS = new Set([
  "INVALID_CODE",
  "INVALID_BACKUP_CODE",
  "OTP_HAS_EXPIRED",
  "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
]);

/** Phone numbers in E.164 (the same rule as sign-up). */
export const PHONE_PATTERN = /^\+[1-9]\d{6,14}$/;

export const wrongCodeError = () =>
  new APIError("UNAUTHORIZED", { code: "INVALID_CODE", message: "Invalid code." });

/** Seconds to wait before asking for another code after a failed SMS (the resend cooldown). */
export const SMS_RETRY_AFTER_S = 60;

/** The SMS provider refused or could not be reached: a clear answer, never a silent loss. */
export const smsUnavailable = () =>
  new APIError(
    "SERVICE_UNAVAILABLE",
    {
      code: "SMS_NOT_SENT",
      message: "The SMS could not be sent. Try again in a minute, or use another way to sign in.",
    },
    { "Retry-After": String(SMS_RETRY_AFTER_S) },
  );

export function smsText(kind: "verify" | "sign-in", code: string, minutes: number): string {
  return kind === "verify"
    ? `Lumen Hub: your phone verification code is ${code}. It expires in ${minutes} minutes.`
    : `Lumen Hub: your sign-in code is ${code}. It expires in ${minutes} minutes. Never share it.`;
}

/** Masks a phone number for display: +1415•••0123. */
export function maskPhone(phone: string): string {
  return phone.length <= 8 ? "•••" : `${phone.slice(0, 5)}${"•".repeat(phone.length - 9)}${phone.slice(-4)}`;
}

const truthy = (value: unknown) => value === true || value === 1 || value === "1";

export function createMfaStore(db: Kysely<DB>) {
  return {
    /** The user's verified phone number, or null. */
    async verifiedPhone(userId: string): Promise<string | null> {
      const row = await db
        .selectFrom("user")
        .select(["phoneNumber", "phoneNumberVerified"])
        .where("id", "=", userId)
        .executeTakeFirst();
      return row?.phoneNumber && truthy(row.phoneNumberVerified) ? row.phoneNumber : null;
    },

    async twoFactorRow(userId: string) {
      return db
        .selectFrom("twoFactor")
        .select(["secret", "verified"])
        .where("userId", "=", userId)
        .executeTakeFirst();
    },

    /**
     * Claims TOTP step `step` for the user: true when it is newer than every step accepted before
     * (atomic across processes), false for a replay.
     */
    async claimStep(userId: string, step: number, at: number): Promise<boolean> {
      await db
        .insertInto("mfa_totp_step")
        .values({ userId, step: -1, updatedAt: at })
        .onConflict((oc) => oc.column("userId").doNothing())
        .execute();
      const result = await db
        .updateTable("mfa_totp_step")
        .set({ step, updatedAt: at })
        .where("userId", "=", userId)
        .where("step", "<", step)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type MfaStore = ReturnType<typeof createMfaStore>;

/**
 * The time step a TOTP `code` matches for the user's stored (encrypted) secret, or null when it
 * matches none. `secretKey` is Better Auth's secret config (`ctx.context.secretConfig`).
 */
export async function matchStoredTotp(
  secretKey: Parameters<typeof symmetricDecrypt>[0]["key"],
  encryptedSecret: string,
  code: string,
  nowMs: number,
): Promise<number | null> {
  const secret = await symmetricDecrypt({ key: secretKey, data: encryptedSecret });
  return matchTotpStep(totpKeyOf(secret), code.trim(), nowMs, {
    digits: TOTP_DIGITS,
    periodS: TOTP_PERIOD_S,
  });
}
