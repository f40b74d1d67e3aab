/**
 * Password sign-in (by e-mail or username): the per-account / per-address lockout (the attempt
 * is reserved before the password is checked and settled by the outcome, `throttle.ts`), one
 * answer for an unknown account and a wrong password, the last-login time and the audit rows.
 */
import { APIError } from "better-auth/api";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { SecurityAudit } from "../security-audit.ts";
import {
  accountKey,
  addressKey,
  type LoginThrottle,
  type ThrottleKey,
  unknownAccountKey,
} from "../throttle.ts";
import { recordLastLogin } from "../user-attributes.ts";
import { EMAIL_NOT_VERIFIED_MESSAGE } from "../validation.ts";
import {
  type AuthHookContext,
  type Body,
  bodyOf,
  ipOf,
  lockedScopes,
  str,
  tooManyAttempts,
} from "./context.ts";
import { forPaths, type HookTable } from "./registry.ts";

export const ACCOUNT_SUSPENDED_MESSAGE =
  "This account is suspended: an administrator has turned it off. Contact the site's administrators.";

/** True when the account exists and an administrator suspended it. */
async function isSuspended(db: Kysely<DB>, userId: string): Promise<boolean> {
  const row = await db.selectFrom("user").select("isActive").where("id", "=", userId).executeTakeFirst();
  return !!row && (row.isActive === false || row.isActive === 0);
}

export const SIGN_IN_PATHS = new Set(["/sign-in/email", "/sign-in/username"]);

/** A sign-in attempt between the before and the after hook: what it reserved on the throttle. */
type SignInAttempt = { reserved: readonly ThrottleKey[]; account: ThrottleKey | null; userId: string | null };

/** The account a sign-in request names (by e-mail or username): its lockout key and id (null when none). */
export async function signInAccount(db: Kysely<DB>, path: string, body: Body) {
  const identifier = (path === "/sign-in/email" ? str(body.email) : str(body.username)).trim().toLowerCase();
  const column = path === "/sign-in/email" ? "email" : "username";
  const user = identifier
    ? await db.selectFrom("user").select("id").where(column, "=", identifier).executeTakeFirst()
    : undefined;
  const account = user ? accountKey(user.id) : unknownAccountKey(`${column}:${identifier}`);
  return { account, userId: user?.id ?? null };
}

export interface SignInDeps {
  db: Kysely<DB>;
  throttle: LoginThrottle;
  audit: SecurityAudit;
  now: () => number;
}

export function createSignInHooks({ db, throttle, audit, now }: SignInDeps): HookTable {
  /** Per-request sign-in attempt, from the before hook to the after hook. */
  const signInAttempts = new WeakMap<Headers, SignInAttempt>();
  const methodOf = (path: string) => (path === "/sign-in/email" ? "email" : "username");

  async function before(ctx: AuthHookContext) {
    // No client to throttle on a server-side call without headers.
    if (!ctx.headers) return;
    const { account, userId } = await signInAccount(db, ctx.path, bodyOf(ctx.body));
    const keys = [account, addressKey(ipOf(ctx.headers) ?? "unknown")];
    // The attempt is counted before the password is checked (atomically, on every process).
    const reservation = await throttle.reserve(keys);
    if (!reservation.ok) throw tooManyAttempts(reservation.retryAfterS);
    signInAttempts.set(ctx.headers, { reserved: reservation.keys, account, userId });
    return undefined;
  }

  async function after(ctx: AuthHookContext) {
    const attempt = ctx.headers ? signInAttempts.get(ctx.headers) : undefined;
    if (!attempt) return;
    const path = ctx.path;
    const returned = ctx.context.returned;
    const failed = returned instanceof APIError;
    const ip = ipOf(ctx.headers);
    if (failed && returned.statusCode === 401) {
      // A wrong password keeps its reserved attempt counted (and may set the lock).
      const { account, userId } = attempt;
      const lockedNow = await throttle.fail(attempt.reserved);
      await audit.record("sign_in_failure", {
        actorId: userId,
        ip,
        details: { method: methodOf(path), known: userId !== null },
      });
      if (account && lockedNow.length) {
        await audit.record("lockout", { actorId: userId, ip, details: { scope: lockedScopes(lockedNow) } });
      }
      // Unknown account and wrong password answer the same for both sign-in routes.
      throw new APIError("UNAUTHORIZED", {
        code: "INVALID_CREDENTIALS",
        message: "Invalid e-mail, username or password.",
      });
    }
    // Right password, or never checked: the reserved attempt is given back.
    await throttle.release(attempt.reserved);
    if (failed && returned.statusCode === 403 && returned.body?.code === "EMAIL_NOT_VERIFIED") {
      throw new APIError("FORBIDDEN", {
        code: "EMAIL_NOT_VERIFIED",
        message: EMAIL_NOT_VERIFIED_MESSAGE,
      });
    }
    const newSession = ctx.context.newSession;
    // A suspended account (isActive false, /admin/users): the right password still signs nobody
    // in (asked only after the password check, so it reveals nothing to a guesser).
    const userId = newSession?.user.id ?? attempt.userId;
    if (!failed && userId && (await isSuspended(db, userId))) {
      await db.deleteFrom("session").where("userId", "=", userId).execute();
      throw new APIError("FORBIDDEN", { code: "ACCOUNT_SUSPENDED", message: ACCOUNT_SUSPENDED_MESSAGE });
    }
    // Password right, second factor pending: no sign-in yet (the lockout count is not reset).
    if (!failed && newSession && (newSession.user as { twoFactorEnabled?: unknown }).twoFactorEnabled) {
      return;
    }
    if (!failed && newSession) {
      await throttle.reset(accountKey(newSession.user.id));
      await recordLastLogin(db, newSession.user.id, now());
      await audit.record("sign_in", {
        actorId: newSession.user.id,
        ip,
        targetType: "session",
        targetId: newSession.session.id,
        details: { method: methodOf(path) },
      });
    }
  }

  return { before: forPaths(SIGN_IN_PATHS, before), after: forPaths(SIGN_IN_PATHS, after) };
}
