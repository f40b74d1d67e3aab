/**
 * Settings changes that check the current password: a wrong one counts toward the account's
 * lockout like a wrong sign-in (reserved before the check, kept only when the password was wrong).
 */
import { APIError } from "better-auth/api";
import type { SecurityAudit } from "../security-audit.ts";
import { accountKey, addressKey, type LoginThrottle, type ThrottleKey } from "../throttle.ts";
import { type AuthHookContext, bodyOf, ipOf, lockedScopes, tooManyAttempts } from "./context.ts";
import type { HookTable } from "./registry.ts";

export const CURRENT_PASSWORD_PATHS = new Set([
  "/change-password",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/generate-backup-codes",
]);

export interface CurrentPasswordDeps {
  throttle: LoginThrottle;
  audit: SecurityAudit;
}

export function createCurrentPasswordChecks({ throttle, audit }: CurrentPasswordDeps) {
  /** Per-request current-password check of a settings change, from the before hook to the after hook. */
  const passwordChecks = new WeakMap<Headers, { userId: string; reserved: readonly ThrottleKey[] }>();

  /** Reserves a current-password attempt for a settings change (throws the lockout answer when locked). */
  async function reserve(userId: string, headers: Headers) {
    const reservation = await throttle.reserve([accountKey(userId), addressKey(ipOf(headers) ?? "unknown")]);
    if (!reservation.ok) throw tooManyAttempts(reservation.retryAfterS);
    passwordChecks.set(headers, { userId, reserved: reservation.keys });
  }

  /** Settles the request's reservation, if it made one: counted when the password was wrong. */
  async function settle(ctx: AuthHookContext) {
    const check = ctx.headers ? passwordChecks.get(ctx.headers) : undefined;
    if (!check) return;
    const returned = ctx.context.returned;
    const wrongPassword = returned instanceof APIError && bodyOf(returned.body).code === "INVALID_PASSWORD";
    if (!wrongPassword) {
      await throttle.release(check.reserved);
      return;
    }
    const ip = ipOf(ctx.headers);
    const lockedNow = await throttle.fail(check.reserved);
    await audit.record("password_check_failure", { actorId: check.userId, ip, details: { path: ctx.path } });
    if (lockedNow.length) {
      await audit.record("lockout", {
        actorId: check.userId,
        ip,
        details: { scope: lockedScopes(lockedNow), during: ctx.path },
      });
    }
  }

  const table: HookTable = { afterEvery: [settle] };
  return { table, reserve };
}

export type CurrentPasswordChecks = ReturnType<typeof createCurrentPasswordChecks>;
