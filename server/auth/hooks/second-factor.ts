/**
 * The second factor (TOTP, SMS code, backup code) at sign-in and at enrolment (`mfa.ts` holds the
 * rules): wrong codes count toward the sign-in lockout, a TOTP code is accepted once, no
 * "trust this device", enrolment ends the other sessions (decision 012), audit rows; and the
 * methods offered at sign-in (an SMS code only to accounts with a verified phone).
 */
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import {
  type MfaStore,
  matchStoredTotp,
  SECOND_FACTOR_PATHS,
  WRONG_CODE_ERRORS,
  wrongCodeError,
} from "../mfa.ts";
import type { SecurityAudit } from "../security-audit.ts";
import { accountKey, addressKey, type LoginThrottle, type ThrottleKey } from "../throttle.ts";
import { recordLastLogin } from "../user-attributes.ts";
import {
  type AuthHookContext,
  bodyOf,
  type GuardedSession,
  ipOf,
  lockedScopes,
  str,
  tooManyAttempts,
} from "./context.ts";
import { forPaths, type HookTable } from "./registry.ts";
import { SIGN_IN_PATHS, signInAccount } from "./sign-in.ts";

/** What a second-factor request is about: the pending sign-in's user, or the signed-in user. */
type SecondFactorSubject = {
  userId: string;
  signIn: boolean;
  enabling: boolean;
  /** Throttle attempts reserved for this sign-in step (settled in the after hook). */
  reserved: readonly ThrottleKey[];
};

/** Minimal view of a Better Auth hook context used to read the pending two-factor challenge. */
interface ChallengeContext {
  getSignedCookie(key: string, secret: string): Promise<string | null | false>;
  context: {
    secret: string;
    createAuthCookie(name: string): { name: string };
    internalAdapter: { findVerificationValue(identifier: string): Promise<{ value: string } | null> };
  };
}

/** The user of a pending two-factor sign-in challenge (its signed cookie), or null. */
export async function challengeUser(ctx: AuthHookContext): Promise<string | null> {
  const view = ctx as unknown as ChallengeContext;
  const cookie = view.context.createAuthCookie("two_factor");
  const identifier = await view.getSignedCookie(cookie.name, view.context.secret);
  if (!identifier) return null;
  const record = await view.context.internalAdapter.findVerificationValue(identifier);
  return record?.value ?? null;
}

export interface SecondFactorDeps {
  db: Kysely<DB>;
  mfa: MfaStore;
  throttle: LoginThrottle;
  audit: SecurityAudit;
  guardedSession: GuardedSession;
  now: () => number;
}

export function createSecondFactorHooks({
  db,
  mfa,
  throttle,
  audit,
  guardedSession,
  now,
}: SecondFactorDeps): HookTable {
  /** Per-request second-factor subject, from the before hook to the after hook. */
  const secondFactorSubjects = new WeakMap<Headers, SecondFactorSubject>();

  /** A wrong second-factor code: audit, and during sign-in it counts toward the lockout. */
  async function secondFactorFailed(
    subject: SecondFactorSubject,
    method: string,
    ip: string | null,
    reason: string,
  ) {
    await audit.record("mfa_failure", {
      actorId: subject.userId,
      ip,
      details: { method, reason, during: subject.signIn ? "sign-in" : "settings" },
    });
    if (!subject.signIn) return;
    const lockedNow = await throttle.fail(subject.reserved);
    if (lockedNow.length) {
      await audit.record("lockout", {
        actorId: subject.userId,
        ip,
        details: { scope: lockedScopes(lockedNow), factor: method },
      });
    }
  }

  async function before(ctx: AuthHookContext) {
    const factor = SECOND_FACTOR_PATHS.get(ctx.path)!;
    const body = bodyOf(ctx.body);
    const ip = ipOf(ctx.headers);
    const current = await guardedSession(ctx.headers);
    const challenged = current ? null : await challengeUser(ctx);
    const userId = current?.user.id ?? challenged;
    if (!userId) return; // Better Auth answers: no two-factor challenge
    const row = await mfa.twoFactorRow(userId);
    const subject: SecondFactorSubject = {
      userId,
      signIn: !current,
      enabling: !!current && factor === "totp" && !!row && !(row.verified === true || row.verified === 1),
      reserved: [],
    };
    if (subject.signIn) {
      // Like a password: the code is counted before it is checked.
      const reservation = await throttle.reserve([accountKey(userId), addressKey(ip ?? "unknown")]);
      if (!reservation.ok) throw tooManyAttempts(reservation.retryAfterS);
      subject.reserved = reservation.keys;
    }
    if (ctx.headers) secondFactorSubjects.set(ctx.headers, subject);
    const code = str(body.code);
    if (factor === "totp" && row && code) {
      // A code is accepted once: claim its time step before Better Auth checks it.
      const step = await matchStoredTotp(ctx.context.secretConfig, row.secret, code, Date.now());
      if (step !== null && !(await mfa.claimStep(userId, step, now()))) {
        await secondFactorFailed(subject, factor, ip, "replayed");
        throw wrongCodeError();
      }
    }
    // No "trust this device": every sign-in asks for the second factor.
    return { context: { body: { ...body, trustDevice: false } } };
  }

  async function after(ctx: AuthHookContext) {
    const factor = SECOND_FACTOR_PATHS.get(ctx.path)!;
    const subject = ctx.headers ? secondFactorSubjects.get(ctx.headers) : undefined;
    if (!subject) return;
    const returned = ctx.context.returned;
    const ip = ipOf(ctx.headers);
    if (returned instanceof APIError) {
      const code = str(bodyOf(returned.body).code);
      if (WRONG_CODE_ERRORS.has(code)) await secondFactorFailed(subject, factor, ip, code.toLowerCase());
      else await throttle.release(subject.reserved);
      return;
    }
    await throttle.release(subject.reserved);
    if (factor === "backup_code") {
      await audit.record("backup_code_used", { actorId: subject.userId, ip });
    }
    if (subject.signIn) {
      await throttle.reset(accountKey(subject.userId));
      const session = ctx.context.newSession?.session;
      if (session) await recordLastLogin(db, subject.userId, now());
      await audit.record("sign_in", {
        actorId: subject.userId,
        ip,
        targetType: session ? "session" : null,
        targetId: session?.id ?? null,
        details: { method: "password", secondFactor: factor },
      });
    } else if (subject.enabling) {
      // Enrolment verified a code in this session (a new one, from Better Auth); sessions
      // signed in elsewhere with the password alone end, so none of them gains staff
      // rights from this enrolment (decision 012).
      const kept = ctx.context.newSession?.session.id;
      if (kept) {
        await db.deleteFrom("session").where("userId", "=", subject.userId).where("id", "!=", kept).execute();
      }
      await audit.record("mfa_enabled", {
        actorId: subject.userId,
        ip,
        details: { method: "totp", otherSessionsRevoked: !!kept },
      });
    }
  }

  return {
    before: forPaths(SECOND_FACTOR_PATHS.keys(), before),
    after: forPaths(SECOND_FACTOR_PATHS.keys(), after),
  };
}

/**
 * Runs after the two-factor plugin on sign-in: offers "otp" (a code by SMS) only to accounts
 * with a verified phone number.
 */
export function mfaMethodsPlugin(stores: { db: Kysely<DB>; mfa: MfaStore } | null) {
  return {
    id: "lumen-mfa-methods",
    hooks: {
      after: [
        {
          matcher: (context: { path?: string }) => SIGN_IN_PATHS.has(context.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = bodyOf(ctx.context.returned);
            if (returned.twoFactorRedirect !== true || !stores) return;
            const { userId } = await signInAccount(stores.db, ctx.path, bodyOf(ctx.body));
            const hasPhone = userId ? (await stores.mfa.verifiedPhone(userId)) !== null : false;
            const methods = Array.isArray(returned.twoFactorMethods) ? returned.twoFactorMethods : [];
            return ctx.json({
              twoFactorRedirect: true,
              twoFactorMethods: methods.filter((m) => m !== "otp" || hasPhone),
            });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
