import { type BetterAuthPlugin, betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { emailOTP } from "better-auth/plugins/email-otp";
import { phoneNumber } from "better-auth/plugins/phone-number";
import { twoFactor } from "better-auth/plugins/two-factor";
import { username } from "better-auth/plugins/username";
import type { Kysely } from "kysely";
import { type Logger, pino } from "pino";
import {
  GROUP_PRECEDENCE,
  LOCKOUT_MESSAGE,
  PASSWORD_MIN_LENGTH,
  SESSION_ABSOLUTE_MS,
} from "../../core/index.ts";
import type { DB } from "../db/schema.ts";
import type { Mailer, SmsSender } from "../mail/mailer.ts";
import { createSubscriptionsRepo } from "../modules/subscriptions/subscriptions.repo.ts";
import { createUsersRepo } from "../modules/users/users.repo.ts";
import { betterAuthApiErrors, betterAuthLogger } from "./auth-logger.ts";
import { normaliseIp } from "./client-ip.ts";
import { authCookieOptions } from "./cookies.ts";
import { HashBusyError } from "./hash-limiter.ts";
import {
  createMfaStore,
  MFA_ISSUER,
  matchStoredTotp,
  PHONE_OTP_EXPIRES_S,
  PHONE_PATTERN,
  SECOND_FACTOR_PATHS,
  SMS_2FA_OTP_MINUTES,
  SMS_OTP_DIGITS,
  smsText,
  smsUnavailable,
  WRONG_CODE_ERRORS,
  wrongCodeError,
} from "./mfa.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { enforcePasswordPolicy, newPasswordProblem } from "./password-policy.ts";
import type { SecurityAudit } from "./security-audit.ts";
import { CLIENT_IP_HEADER, type SessionGuard } from "./session-guard.ts";
import {
  accountKey,
  addressKey,
  type LoginThrottle,
  type ThrottleKey,
  unknownAccountKey,
} from "./throttle.ts";
import { TOTP_DIGITS, TOTP_PERIOD_S } from "./totp.ts";
import { clearUnverifiedPhone, keepUnverifiedPhone, recordLastLogin } from "./user-attributes.ts";
import {
  EMAIL_NOT_VERIFIED_MESSAGE,
  FORBIDDEN_INPUT_FIELDS,
  fieldErrorMessage,
  PASSWORD_MAX_LENGTH,
  signUpSchema,
} from "./validation.ts";

/** The header the HTTP layer sets from the socket address on every auth request (overwriting any incoming value). */
export { CLIENT_IP_HEADER };

/** OTP codes (e-mail confirmation, password reset): 6 digits, 10 minutes, 5 tries. */
export const OTP_LENGTH = 6;
export const OTP_EXPIRES_S = 600;
export const OTP_ATTEMPTS = 5;
/** Resend cooldown for e-mailed codes, per address and purpose. */
export const OTP_RESEND_COOLDOWN_MS = 60_000;
/** E-mail and password changes need a sign-in at most this old (SECURITY.md §9). */
export const FRESH_SIGN_IN_MS = 15 * 60_000;

export interface AuthOptions {
  // biome-ignore lint/suspicious/noExplicitAny: Better Auth accepts any Kysely database
  db: Kysely<any>;
  dialect: "sqlite" | "postgres";
  secret: string;
  baseURL: string;
  trustedOrigins?: string[];
  /** Security parts (from `createAuthSecurity`); omitted only by tools that never serve requests. */
  security?: AuthSecurity;
}

export interface AuthSecurity {
  db: Kysely<DB>;
  mailer: Mailer;
  /** SMS sender for phone verification and second-factor codes (null: SMS codes are refused). */
  sms: SmsSender | null;
  guard: SessionGuard;
  throttle: LoginThrottle;
  audit: SecurityAudit;
  now: () => number;
  logger?: Logger;
}

const SIGN_IN_PATHS = new Set(["/sign-in/email", "/sign-in/username"]);
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
/**
 * Settings changes that check the current password: a wrong one counts toward the account's
 * lockout like a wrong sign-in (reserved before the check, kept only when the password was wrong).
 */
const CURRENT_PASSWORD_PATHS = new Set([
  "/change-password",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/generate-backup-codes",
]);
/** What a second-factor request is about: the pending sign-in's user, or the signed-in user. */
type SecondFactorSubject = {
  userId: string;
  signIn: boolean;
  enabling: boolean;
  /** Throttle attempts reserved for this sign-in step (settled in the after hook). */
  reserved: readonly ThrottleKey[];
};
/** A sign-in attempt between the before and the after hook: what it reserved on the throttle. */
type SignInAttempt = { reserved: readonly ThrottleKey[]; account: ThrottleKey | null; userId: string | null };
/** Minimal view of a Better Auth hook context used by the second-factor helpers. */
interface HookContext {
  headers?: Headers;
  getSignedCookie(key: string, secret: string): Promise<string | null | false>;
  context: {
    secret: string;
    createAuthCookie(name: string): { name: string };
    internalAdapter: { findVerificationValue(identifier: string): Promise<{ value: string } | null> };
  };
}
const OTP_SEND_PATHS = new Set([
  "/email-otp/send-verification-otp",
  "/forget-password/email-otp",
  "/email-otp/request-password-reset",
]);

type Body = Record<string, unknown>;
const bodyOf = (value: unknown): Body =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Body) : {};
const str = (value: unknown) => (typeof value === "string" ? value : "");

function tooManyAttempts(retryAfterS: number): APIError {
  return new APIError(
    "TOO_MANY_REQUESTS",
    { code: "TOO_MANY_ATTEMPTS", message: LOCKOUT_MESSAGE },
    { "Retry-After": String(retryAfterS) },
  );
}

/** A full hash queue answers 503 with Retry-After instead of waiting without bound. */
function hashSlot<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    if (!(error instanceof HashBusyError)) throw error;
    throw new APIError(
      "SERVICE_UNAVAILABLE",
      { code: "BUSY", message: error.message },
      { "Retry-After": String(error.retryAfterS) },
    );
  });
}

function otpMail(type: string, otp: string): { subject: string; text: string } {
  const minutes = OTP_EXPIRES_S / 60;
  if (type === "forget-password") {
    return {
      subject: "Your Lumen Hub password reset code",
      text: `Your password reset code is ${otp}\n\nIt expires in ${minutes} minutes and works once. If you did not ask to reset your password, ignore this e-mail.\n`,
    };
  }
  return {
    subject: "Your Lumen Hub confirmation code",
    text: `Your confirmation code is ${otp}\n\nEnter it at /auth/confirm. It expires in ${minutes} minutes.\n`,
  };
}

/**
 * Better Auth, configured for this product: e-mail + username sign-in, e-mail confirmation and
 * password reset by 6-digit code, scrypt hashing, per-account/per-address lockout in the
 * database, database rate limiting everywhere, session binding and audit events. The session
 * rules themselves live in `session-guard.ts`.
 */
export function createAuth(options: AuthOptions) {
  const sec = options.security;
  /** Better Auth's own log lines; tools without security parts log to stdout at info. */
  const authLogger = sec?.logger ?? pino({ base: undefined });
  const ipOf = (headers: Headers | null | undefined) => {
    const raw = headers?.get(CLIENT_IP_HEADER);
    return raw ? normaliseIp(raw) : null;
  };

  /** Resolves the throttle keys of a sign-in attempt (before the password is checked). */
  async function signInKeys(path: string, body: Body, headers: Headers | undefined) {
    if (!sec) return { keys: [] as ThrottleKey[], account: null as ThrottleKey | null, userId: null };
    const identifier = (path === "/sign-in/email" ? str(body.email) : str(body.username))
      .trim()
      .toLowerCase();
    const column = path === "/sign-in/email" ? "email" : "username";
    const user = identifier
      ? await sec.db.selectFrom("user").select("id").where(column, "=", identifier).executeTakeFirst()
      : undefined;
    const account = user ? accountKey(user.id) : unknownAccountKey(`${column}:${identifier}`);
    return { keys: [account, addressKey(ipOf(headers) ?? "unknown")], account, userId: user?.id ?? null };
  }

  /** Per-address resend cooldown of e-mailed codes, in the database (shared by all processes). */
  async function enforceOtpCooldown(kind: string, email: string) {
    if (!sec) return;
    const key = `otp:${kind}:${email.trim().toLowerCase()}`;
    const t = sec.now();
    const row = await sec.db
      .selectFrom("login_throttle")
      .select("updatedAt")
      .where("key", "=", key)
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
    await markOtpSent(kind, email);
  }

  async function markOtpSent(kind: string, email: string) {
    if (!sec) return;
    const key = `otp:${kind}:${email.trim().toLowerCase()}`;
    const t = sec.now();
    await sec.db
      .insertInto("login_throttle")
      .values({ key, failures: 0, windowStart: t, lockedUntil: null, updatedAt: t })
      .onConflict((oc) => oc.column("key").doUpdateSet({ updatedAt: t, windowStart: t }))
      .execute();
  }

  const mfa = sec ? createMfaStore(sec.db) : null;
  /** Per-request second-factor subject, from the before hook to the after hook. */
  const secondFactorSubjects = new WeakMap<Headers, SecondFactorSubject>();
  /** Per-request phone number given at sign-up, from the before hook to the after hook. */
  const signUpPhones = new WeakMap<Headers, string>();
  /** Requests whose SMS could not be sent (Better Auth swallows two-factor send errors). */
  const smsFailures = new WeakSet<Headers>();
  /** Per-request current-password check of a settings change, from the before hook to the after hook. */
  const passwordChecks = new WeakMap<Headers, { userId: string; reserved: readonly ThrottleKey[] }>();
  /** Reserves a current-password attempt for a settings change (throws the lockout answer when locked). */
  async function reservePasswordCheck(userId: string, headers: Headers) {
    if (!sec) return;
    const reservation = await sec.throttle.reserve([
      accountKey(userId),
      addressKey(ipOf(headers) ?? "unknown"),
    ]);
    if (!reservation.ok) throw tooManyAttempts(reservation.retryAfterS);
    passwordChecks.set(headers, { userId, reserved: reservation.keys });
  }
  /** Per-request sign-in attempt, from the before hook to the after hook. */
  const signInAttempts = new WeakMap<Headers, SignInAttempt>();

  /** The user of a pending two-factor sign-in challenge (its signed cookie), or null. */
  async function challengeUser(ctx: HookContext): Promise<string | null> {
    const cookie = ctx.context.createAuthCookie("two_factor");
    const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
    if (!identifier) return null;
    const record = await ctx.context.internalAdapter.findVerificationValue(identifier);
    return record?.value ?? null;
  }

  /** A wrong second-factor code: audit, and during sign-in it counts toward the lockout. */
  async function secondFactorFailed(
    subject: SecondFactorSubject,
    method: string,
    ip: string | null,
    reason: string,
  ) {
    if (!sec) return;
    await sec.audit.record("mfa_failure", {
      actorId: subject.userId,
      ip,
      details: { method, reason, during: subject.signIn ? "sign-in" : "settings" },
    });
    if (!subject.signIn) return;
    const lockedNow = await sec.throttle.fail(subject.reserved);
    if (lockedNow.length) {
      await sec.audit.record("lockout", {
        actorId: subject.userId,
        ip,
        details: { scope: lockedNow.map((k) => k.split(":")[0]!).join(","), factor: method },
      });
    }
  }

  /** Sends an SMS through the configured sender (refused when none is configured). */
  async function sendSms(to: string, text: string) {
    if (!sec?.sms) {
      throw new APIError("BAD_REQUEST", {
        code: "SMS_NOT_CONFIGURED",
        message: "SMS codes are not available.",
      });
    }
    try {
      await sec.sms.send({ to, text });
    } catch (error) {
      sec.logger?.error({ err: error, sender: sec.sms.kind }, "SMS could not be sent");
      throw smsUnavailable();
    }
  }

  /**
   * Runs after the two-factor plugin on sign-in: offers "otp" (a code by SMS) only to accounts
   * with a verified phone number.
   */
  function mfaMethodsPlugin() {
    return {
      id: "lumen-mfa-methods",
      hooks: {
        after: [
          {
            matcher: (context: { path?: string }) => SIGN_IN_PATHS.has(context.path ?? ""),
            handler: createAuthMiddleware(async (ctx) => {
              const returned = bodyOf(ctx.context.returned);
              if (returned.twoFactorRedirect !== true || !mfa) return;
              const { userId } = await signInKeys(ctx.path, bodyOf(ctx.body), ctx.headers);
              const hasPhone = userId ? (await mfa.verifiedPhone(userId)) !== null : false;
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

  /** The signed-in session of a Better Auth request, checked by the guard (null when none). */
  async function guardedSession(headers: Headers | undefined) {
    if (!sec || !headers) return null;
    const result = await sec.guard.check(headers);
    return result.ok ? result : null;
  }

  return betterAuth({
    appName: "Lumen Hub",
    secret: options.secret,
    baseURL: options.baseURL,
    // Our own origin (from the Host the browser connected to) plus the configured ones.
    trustedOrigins: async (request) => {
      const list: (string | undefined)[] = [...(options.trustedOrigins ?? [])];
      const host = request?.headers.get("host");
      if (host && request) list.push(`${new URL(request.url).protocol}//${host}`);
      return list;
    },
    database: { db: options.db, type: options.dialect },
    telemetry: { enabled: false },
    logger: betterAuthLogger(authLogger),
    onAPIError: betterAuthApiErrors(authLogger),
    // Endpoints that would hand session tokens to the browser, or bypass the password lockout.
    disabledPaths: [
      "/list-sessions",
      // Deprecated by Better Auth in favour of /email-otp/request-password-reset.
      "/forget-password/email-otp",
      "/sign-in/email-otp",
      "/request-password-reset",
      "/reset-password",
      "/verify-email",
      "/send-verification-email",
      // Sign-in by phone number stays off (it would skip the password and the second factor).
      "/sign-in/phone-number",
      "/phone-number/request-password-reset",
      "/phone-number/reset-password",
      // The secret is shown once, at enrolment.
      "/two-factor/get-totp-uri",
    ],
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      revokeSessionsOnPasswordReset: true,
      password: {
        hash: (password) => hashSlot(hashPassword(password)),
        verify: (data) => hashSlot(verifyPassword(data)),
      },
      // Sign-up with an existing e-mail answers like a new one; the owner gets a notice instead of a code.
      onExistingUserSignUp: async ({ user }) => {
        if (!sec) return;
        await sec.mailer.send({
          to: user.email,
          subject: "Someone tried to sign up with your e-mail address",
          text: "Someone tried to create a Lumen Hub account with this e-mail address, which already has an account.\n\nIf it was you, sign in instead (or reset your password). Otherwise you can ignore this e-mail.\n",
        });
      },
    },
    user: {
      additionalFields: {
        displayName: { type: "string", required: false, input: false },
        bio: { type: "string", required: false, input: false },
        avatar: { type: "string", required: false, input: false },
        role: { type: "string", required: false, input: false },
        isActive: { type: "boolean", required: false, input: false, defaultValue: true },
        accountType: { type: "string", required: false, input: false, defaultValue: "individual" },
      },
    },
    session: {
      // Better Auth's own expiry is the absolute cap; idle time-out, rotation and device binding
      // are enforced by the session guard with the runtime clock.
      expiresIn: SESSION_ABSOLUTE_MS / 1000,
      disableSessionRefresh: true,
      freshAge: FRESH_SIGN_IN_MS / 1000,
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "rate_limit",
      window: 60,
      max: 300,
      // The account lockout is the real guard on passwords; these per-address limits stop floods.
      customRules: {
        "/sign-in/*": { window: 60, max: 100 },
        "/sign-up/*": { window: 60, max: 30 },
        "/change-password": { window: 60, max: 20 },
        "/email-otp/*": { window: 60, max: 30 },
        "/forget-password/*": { window: 60, max: 30 },
        // Wrong second-factor codes are limited by the account lockout; this only stops floods.
        "/two-factor/*": { window: 60, max: 60 },
        "/phone-number/*": { window: 60, max: 20 },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // lumen.* cookies; __Host-lumen.* (Secure, Path=/, no Domain) when the base URL is https.
      ...authCookieOptions(options.baseURL),
      // Random ids for accounts: time-ordered ids share their first characters, which the status overlay shows.
      database: { generateId: () => crypto.randomUUID() },
    },
    databaseHooks: {
      user: {
        create: {
          // Every new account starts on the free tier from real rows: group + active subscription.
          after: async (user) => {
            if (!sec) return;
            const users = createUsersRepo(sec.db);
            await users.ensureGroups([
              { name: "individual-free", precedence: GROUP_PRECEDENCE["individual-free"] },
            ]);
            await users.addAll(user.id, ["individual-free"]);
            const at = new Date(sec.now()).toISOString();
            await createSubscriptionsRepo(sec.db).create({
              userId: user.id,
              tier: "free",
              status: "active",
              source: "sign-up",
              startedAt: at,
              expiresAt: null,
            });
          },
        },
      },
      session: {
        create: {
          after: async (session, ctx) => {
            if (!sec) return;
            await sec.guard.bind(session.id, ctx?.headers ?? ctx?.request?.headers);
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (!sec) return;
        const path = ctx.path;
        const body = bodyOf(ctx.body);
        if (path === "/sign-up/email") {
          const forbidden = Object.keys(body).filter((k) => FORBIDDEN_INPUT_FIELDS.has(k));
          if (forbidden.length) {
            throw new APIError("BAD_REQUEST", {
              code: "FIELD_NOT_ALLOWED",
              message: `These fields cannot be set: ${forbidden.join(", ")}`,
              fields: Object.fromEntries(forbidden.map((f) => [f, `${f} cannot be set`])),
            });
          }
          const parsed = signUpSchema.safeParse(body);
          const fields: Record<string, string> = {};
          for (const issue of parsed.error?.issues ?? []) {
            const field = String(issue.path[0] ?? "body");
            fields[field] ??= fieldErrorMessage(field, issue);
          }
          if (!fields.password) {
            const problem = await newPasswordProblem(body.password);
            if (problem) fields.password = problem;
          }
          if (!parsed.success || fields.password) {
            throw new APIError("BAD_REQUEST", {
              code: "VALIDATION_ERROR",
              message: Object.values(fields).join(" "),
              fields,
            });
          }
          // The number given here is kept as the account's unverified phone (after the account is
          // created); it becomes the verified one only by SMS in /settings (decision 016).
          const phone = body.phoneNumber === undefined ? {} : { phoneNumber: "" };
          if (parsed.data.phoneNumber && ctx.headers) signUpPhones.set(ctx.headers, parsed.data.phoneNumber);
          return {
            context: {
              body: { ...body, ...phone, email: parsed.data.email, username: parsed.data.username },
            },
          };
        }
        if (SIGN_IN_PATHS.has(path)) {
          // No client to throttle on a server-side call without headers.
          if (!ctx.headers) return;
          const { keys, account, userId } = await signInKeys(path, body, ctx.headers);
          // The attempt is counted before the password is checked (atomically, on every process).
          const reservation = await sec.throttle.reserve(keys);
          if (!reservation.ok) throw tooManyAttempts(reservation.retryAfterS);
          signInAttempts.set(ctx.headers, { reserved: reservation.keys, account, userId });
          return;
        }
        if (path !== "/change-password") await enforcePasswordPolicy(path, body);
        if (OTP_SEND_PATHS.has(path)) {
          const kind =
            path === "/email-otp/send-verification-otp"
              ? str(body.type) || "email-verification"
              : "forget-password";
          if (str(body.email)) await enforceOtpCooldown(kind, str(body.email));
          return;
        }
        const factor = SECOND_FACTOR_PATHS.get(path);
        if (factor && mfa) {
          const ip = ipOf(ctx.headers);
          const current = await guardedSession(ctx.headers);
          const challenged = current ? null : await challengeUser(ctx as unknown as HookContext);
          const userId = current?.user.id ?? challenged;
          if (!userId) return; // Better Auth answers: no two-factor challenge
          const row = await mfa.twoFactorRow(userId);
          const subject: SecondFactorSubject = {
            userId,
            signIn: !current,
            enabling:
              !!current && factor === "totp" && !!row && !(row.verified === true || row.verified === 1),
            reserved: [],
          };
          if (subject.signIn) {
            // Like a password: the code is counted before it is checked.
            const reservation = await sec.throttle.reserve([accountKey(userId), addressKey(ip ?? "unknown")]);
            if (!reservation.ok) throw tooManyAttempts(reservation.retryAfterS);
            subject.reserved = reservation.keys;
          }
          if (ctx.headers) secondFactorSubjects.set(ctx.headers, subject);
          const code = str(body.code);
          if (factor === "totp" && row && code) {
            // A code is accepted once: claim its time step before Better Auth checks it.
            const step = await matchStoredTotp(ctx.context.secretConfig, row.secret, code, Date.now());
            if (step !== null && !(await mfa.claimStep(userId, step, sec.now()))) {
              await secondFactorFailed(subject, factor, ip, "replayed");
              throw wrongCodeError();
            }
          }
          // No "trust this device": every sign-in asks for the second factor.
          return { context: { body: { ...body, trustDevice: false } } };
        }
        if (FRESH_PATHS.has(path)) {
          const current = await guardedSession(ctx.headers);
          if (current && sec.now() - current.session.issuedAt >= FRESH_SIGN_IN_MS) {
            throw new APIError("FORBIDDEN", {
              code: "SESSION_NOT_FRESH",
              message: "For your security, sign in again (within the last 15 minutes) before changing this.",
            });
          }
          if (path === "/change-password") await enforcePasswordPolicy(path, body);
          // Last, so nothing after it can throw and leave the attempt reserved.
          if (current && ctx.headers && CURRENT_PASSWORD_PATHS.has(path)) {
            await reservePasswordCheck(current.user.id, ctx.headers);
          }
          if (path === "/change-password") {
            return { context: { body: { ...body, revokeOtherSessions: true } } };
          }
          if (path === "/two-factor/enable") {
            // TOTP first (verified with a code); SMS codes are an alternative once a phone is verified.
            return { context: { body: { ...body, method: "totp" } } };
          }
          if (path.startsWith("/phone-number/")) {
            if (!current) {
              throw new APIError("UNAUTHORIZED", { code: "UNAUTHORIZED", message: "Sign in first." });
            }
            const phone = str(body.phoneNumber).trim();
            if (!PHONE_PATTERN.test(phone)) {
              throw new APIError("BAD_REQUEST", {
                code: "VALIDATION_ERROR",
                message: "Phone number must be in international format, e.g. +14155550123.",
                fields: { phoneNumber: "Phone number must be in international format, e.g. +14155550123." },
              });
            }
            if (path === "/phone-number/send-otp") {
              await enforceOtpCooldown("phone", current.user.id);
              return { context: { body: { phoneNumber: phone } } };
            }
            // Verification only adds the number to the signed-in account (never signs anyone in).
            return {
              context: { body: { phoneNumber: phone, code: str(body.code), updatePhoneNumber: true } },
            };
          }
          return;
        }
        if (path === "/two-factor/send-otp" && mfa) {
          const current = await guardedSession(ctx.headers);
          const userId = current?.user.id ?? (await challengeUser(ctx as unknown as HookContext));
          if (!userId) return;
          if (!(await mfa.verifiedPhone(userId))) {
            throw new APIError("BAD_REQUEST", {
              code: "NO_VERIFIED_PHONE",
              message: "Add and verify a phone number in settings to receive codes by SMS.",
            });
          }
          await enforceOtpCooldown("2fa-sms", userId);
          return;
        }
        if (path === "/sign-out") {
          const current = await guardedSession(ctx.headers);
          if (current) {
            await sec.audit.record("sign_out", {
              actorId: current.user.id,
              ip: ipOf(ctx.headers),
              targetType: "session",
              targetId: current.session.id,
            });
          }
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (!sec) return;
        const path = ctx.path;
        const returned = ctx.context.returned;
        const failed = returned instanceof APIError;
        const ip = ipOf(ctx.headers);
        const check = ctx.headers ? passwordChecks.get(ctx.headers) : undefined;
        if (check) {
          const wrongPassword = failed && bodyOf(returned.body).code === "INVALID_PASSWORD";
          if (wrongPassword) {
            const lockedNow = await sec.throttle.fail(check.reserved);
            await sec.audit.record("password_check_failure", {
              actorId: check.userId,
              ip,
              details: { path },
            });
            if (lockedNow.length) {
              await sec.audit.record("lockout", {
                actorId: check.userId,
                ip,
                details: { scope: lockedNow.map((k) => k.split(":")[0]!).join(","), during: path },
              });
            }
          } else {
            await sec.throttle.release(check.reserved);
          }
        }
        if (SIGN_IN_PATHS.has(path)) {
          const attempt = ctx.headers ? signInAttempts.get(ctx.headers) : undefined;
          if (!attempt) return;
          if (failed && returned.statusCode === 401) {
            // A wrong password keeps its reserved attempt counted (and may set the lock).
            const { account, userId } = attempt;
            const lockedNow = await sec.throttle.fail(attempt.reserved);
            await sec.audit.record("sign_in_failure", {
              actorId: userId,
              ip,
              details: { method: path === "/sign-in/email" ? "email" : "username", known: userId !== null },
            });
            if (account && lockedNow.length) {
              await sec.audit.record("lockout", {
                actorId: userId,
                ip,
                details: { scope: lockedNow.map((k) => k.split(":")[0]!).join(",") },
              });
            }
            // Unknown account and wrong password answer the same for both sign-in routes.
            throw new APIError("UNAUTHORIZED", {
              code: "INVALID_CREDENTIALS",
              message: "Invalid e-mail, username or password.",
            });
          }
          // Right password, or never checked: the reserved attempt is given back.
          await sec.throttle.release(attempt.reserved);
          if (failed && returned.statusCode === 403 && returned.body?.code === "EMAIL_NOT_VERIFIED") {
            throw new APIError("FORBIDDEN", {
              code: "EMAIL_NOT_VERIFIED",
              message: EMAIL_NOT_VERIFIED_MESSAGE,
            });
          }
          const newSession = ctx.context.newSession;
          // Password right, second factor pending: no sign-in yet (the lockout count is not reset).
          if (!failed && newSession && (newSession.user as { twoFactorEnabled?: unknown }).twoFactorEnabled) {
            return;
          }
          if (!failed && newSession) {
            await sec.throttle.reset(accountKey(newSession.user.id));
            await recordLastLogin(sec.db, newSession.user.id, sec.now());
            await sec.audit.record("sign_in", {
              actorId: newSession.user.id,
              ip,
              targetType: "session",
              targetId: newSession.session.id,
              details: { method: path === "/sign-in/email" ? "email" : "username" },
            });
          }
          return;
        }
        const factor = SECOND_FACTOR_PATHS.get(path);
        if (factor) {
          const subject = ctx.headers ? secondFactorSubjects.get(ctx.headers) : undefined;
          if (!subject) return;
          if (failed) {
            const code = str(bodyOf(returned.body).code);
            if (WRONG_CODE_ERRORS.has(code))
              await secondFactorFailed(subject, factor, ip, code.toLowerCase());
            else await sec.throttle.release(subject.reserved);
            return;
          }
          await sec.throttle.release(subject.reserved);
          if (factor === "backup_code") {
            await sec.audit.record("backup_code_used", { actorId: subject.userId, ip });
          }
          if (subject.signIn) {
            await sec.throttle.reset(accountKey(subject.userId));
            const session = ctx.context.newSession?.session;
            if (session) await recordLastLogin(sec.db, subject.userId, sec.now());
            await sec.audit.record("sign_in", {
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
              await sec.db
                .deleteFrom("session")
                .where("userId", "=", subject.userId)
                .where("id", "!=", kept)
                .execute();
            }
            await sec.audit.record("mfa_enabled", {
              actorId: subject.userId,
              ip,
              details: { method: "totp", otherSessionsRevoked: !!kept },
            });
          }
          return;
        }
        if (path === "/two-factor/send-otp" && ctx.headers && smsFailures.has(ctx.headers)) {
          throw smsUnavailable();
        }
        if (path === "/two-factor/generate-backup-codes" && !failed) {
          const holder = ctx.context as { session?: { user?: { id?: string } } | null };
          await sec.audit.record("backup_codes_regenerated", {
            actorId: holder.session?.user?.id ?? null,
            ip,
          });
          return;
        }
        if (path === "/two-factor/disable" && !failed) {
          const userId = ctx.context.newSession?.user.id ?? null;
          await sec.audit.record("mfa_disabled", { actorId: userId, ip });
          return;
        }
        if (path === "/phone-number/verify" && !failed) {
          const userId = str(bodyOf(bodyOf(returned).user).id) || null;
          if (userId) await clearUnverifiedPhone(sec.db, userId);
          await sec.audit.record("phone_verified", {
            actorId: userId,
            ip,
            targetType: "user",
            targetId: userId,
          });
          return;
        }
        if (path === "/sign-up/email" && !failed) {
          const id = bodyOf(bodyOf(returned).user).id;
          const created =
            typeof id === "string"
              ? await sec.db.selectFrom("user").select("id").where("id", "=", id).executeTakeFirst()
              : undefined;
          if (created) {
            const phone = ctx.headers ? signUpPhones.get(ctx.headers) : undefined;
            if (phone) await keepUnverifiedPhone(sec.db, created.id, phone);
            await markOtpSent("email-verification", str(bodyOf(ctx.body).email));
            await sec.audit.record("sign_up", {
              actorId: created.id,
              ip,
              targetType: "user",
              targetId: created.id,
            });
          }
          return;
        }
        if (path === "/change-password" && !failed && ctx.context.newSession) {
          await sec.audit.record("password_change", {
            actorId: ctx.context.newSession.user.id,
            ip,
            details: { otherSessionsRevoked: true },
          });
          return;
        }
        if (path === "/email-otp/reset-password" && !failed) {
          const email = str(bodyOf(ctx.body).email).trim().toLowerCase();
          const user = await sec.db
            .selectFrom("user")
            .select("id")
            .where("email", "=", email)
            .executeTakeFirst();
          await sec.audit.record("password_reset", {
            actorId: user?.id ?? null,
            ip,
            details: { sessionsRevoked: true },
          });
        }
      }),
    },
    plugins: [
      username({ minUsernameLength: 3, maxUsernameLength: 30 }),
      twoFactor({
        issuer: MFA_ISSUER,
        totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_S },
        // Backup codes encrypted at rest with the auth secret; a used code is removed.
        backupCodeOptions: { storeBackupCodes: "encrypted", amount: 10, length: 10 },
        otpOptions: {
          digits: SMS_OTP_DIGITS,
          period: SMS_2FA_OTP_MINUTES,
          storeOTP: "hashed",
          allowedAttempts: OTP_ATTEMPTS,
          async sendOTP({ user, otp }, ctx) {
            const phone = mfa ? await mfa.verifiedPhone(user.id) : null;
            if (!phone) {
              throw new APIError("BAD_REQUEST", {
                code: "NO_VERIFIED_PHONE",
                message: "Add and verify a phone number in settings to receive codes by SMS.",
              });
            }
            try {
              await sendSms(phone, smsText("sign-in", otp, SMS_2FA_OTP_MINUTES));
            } catch (error) {
              // Better Auth logs and drops this error: the after hook answers it instead.
              if (ctx?.headers) smsFailures.add(ctx.headers);
              throw error;
            }
          },
        },
      }),
      phoneNumber({
        otpLength: SMS_OTP_DIGITS,
        expiresIn: PHONE_OTP_EXPIRES_S,
        allowedAttempts: OTP_ATTEMPTS,
        phoneNumberValidator: (value) => PHONE_PATTERN.test(value),
        async sendOTP({ phoneNumber: to, code }) {
          await sendSms(to, smsText("verify", code, PHONE_OTP_EXPIRES_S / 60));
        },
      }),
      mfaMethodsPlugin(),
      emailOTP({
        otpLength: OTP_LENGTH,
        expiresIn: OTP_EXPIRES_S,
        allowedAttempts: OTP_ATTEMPTS,
        storeOTP: "hashed",
        sendVerificationOnSignUp: true,
        overrideDefaultEmailVerification: true,
        async sendVerificationOTP({ email, otp, type }) {
          if (!sec) return;
          const mail = otpMail(type, otp);
          await sec.mailer.send({ to: email, ...mail });
        },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
