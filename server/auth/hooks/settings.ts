/**
 * Account settings changes (password, e-mail, second factor, phone number): they need a recent
 * sign-in (FRESH_SIGN_IN_MS, SECURITY.md §9), a current-password attempt is reserved where the
 * password is checked, a password change ends the other sessions, enrolment starts with TOTP, a
 * phone number is only ever added to the signed-in account; and their audit rows.
 */
import { APIError } from "better-auth/api";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { FRESH_SIGN_IN_MS } from "../auth-config.ts";
import { PHONE_PATTERN } from "../mfa.ts";
import type { OtpCooldown } from "../otp-cooldown.ts";
import { enforcePasswordPolicy } from "../password-policy.ts";
import type { SecurityAudit } from "../security-audit.ts";
import { clearUnverifiedPhone } from "../user-attributes.ts";
import { type AuthHookContext, bodyOf, type GuardedSession, ipOf, type SignedIn, str } from "./context.ts";
import { CURRENT_PASSWORD_PATHS, type CurrentPasswordChecks } from "./current-password.ts";
import { forPaths, type HookTable } from "./registry.ts";

/** Changes that need a sign-in at most FRESH_SIGN_IN_MS old (SECURITY.md §9). */
const FRESH_PATHS = new Set([
  "/change-password",
  "/change-email",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/generate-backup-codes",
  "/phone-number/send-otp",
  "/phone-number/verify",
]);

const PHONE_FORMAT_MESSAGE = "Phone number must be in international format, e.g. +14155550123.";

export interface SettingsDeps {
  db: Kysely<DB>;
  audit: SecurityAudit;
  cooldown: OtpCooldown;
  passwordChecks: CurrentPasswordChecks;
  guardedSession: GuardedSession;
  now: () => number;
}

export function createSettingsHooks({
  db,
  audit,
  cooldown,
  passwordChecks,
  guardedSession,
  now,
}: SettingsDeps): HookTable {
  async function before(ctx: AuthHookContext) {
    const path = ctx.path;
    const body = bodyOf(ctx.body);
    const current = await guardedSession(ctx.headers);
    if (current && now() - current.session.issuedAt >= FRESH_SIGN_IN_MS) {
      throw new APIError("FORBIDDEN", {
        code: "SESSION_NOT_FRESH",
        message: "For your security, sign in again (within the last 15 minutes) before changing this.",
      });
    }
    if (path === "/change-password") await enforcePasswordPolicy(path, body);
    // Last, so nothing after it can throw and leave the attempt reserved.
    if (current && ctx.headers && CURRENT_PASSWORD_PATHS.has(path)) {
      await passwordChecks.reserve(current.user.id, ctx.headers);
    }
    if (path === "/change-password") {
      return { context: { body: { ...body, revokeOtherSessions: true } } };
    }
    if (path === "/two-factor/enable") {
      // TOTP first (verified with a code); SMS codes are an alternative once a phone is verified.
      return { context: { body: { ...body, method: "totp" } } };
    }
    if (path.startsWith("/phone-number/")) return phoneNumberChange(path, body, current);
    return undefined;
  }

  async function phoneNumberChange(path: string, body: Record<string, unknown>, current: SignedIn | null) {
    if (!current) {
      throw new APIError("UNAUTHORIZED", { code: "UNAUTHORIZED", message: "Sign in first." });
    }
    const phone = str(body.phoneNumber).trim();
    if (!PHONE_PATTERN.test(phone)) {
      throw new APIError("BAD_REQUEST", {
        code: "VALIDATION_ERROR",
        message: PHONE_FORMAT_MESSAGE,
        fields: { phoneNumber: PHONE_FORMAT_MESSAGE },
      });
    }
    if (path === "/phone-number/send-otp") {
      await cooldown.enforce("phone", current.user.id);
      return { context: { body: { phoneNumber: phone } } };
    }
    // Verification only adds the number to the signed-in account (never signs anyone in).
    return { context: { body: { phoneNumber: phone, code: str(body.code), updatePhoneNumber: true } } };
  }

  /** Audit rows of the changes that went through (a failed answer records nothing here). */
  const succeeded =
    (hook: (ctx: AuthHookContext, ip: string | null) => Promise<void>) => async (ctx: AuthHookContext) => {
      if (ctx.context.returned instanceof APIError) return;
      await hook(ctx, ipOf(ctx.headers));
    };

  return {
    before: forPaths(FRESH_PATHS, before),
    after: {
      "/change-password": succeeded(async (ctx, ip) => {
        if (!ctx.context.newSession) return;
        await audit.record("password_change", {
          actorId: ctx.context.newSession.user.id,
          ip,
          details: { otherSessionsRevoked: true },
        });
      }),
      "/two-factor/generate-backup-codes": succeeded(async (ctx, ip) => {
        const holder = ctx.context as { session?: { user?: { id?: string } } | null };
        await audit.record("backup_codes_regenerated", { actorId: holder.session?.user?.id ?? null, ip });
      }),
      "/two-factor/disable": succeeded(async (ctx, ip) => {
        await audit.record("mfa_disabled", { actorId: ctx.context.newSession?.user.id ?? null, ip });
      }),
      "/phone-number/verify": succeeded(async (ctx, ip) => {
        const userId = str(bodyOf(bodyOf(ctx.context.returned).user).id) || null;
        if (userId) await clearUnverifiedPhone(db, userId);
        await audit.record("phone_verified", { actorId: userId, ip, targetType: "user", targetId: userId });
      }),
    },
  };
}
