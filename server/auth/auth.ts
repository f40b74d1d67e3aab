import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { emailOTP } from "better-auth/plugins/email-otp";
import { username } from "better-auth/plugins/username";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import {
  GROUP_PRECEDENCE,
  LOCKOUT_MESSAGE,
  PASSWORD_MIN_LENGTH,
  SESSION_ABSOLUTE_MS,
} from "../../core/index.ts";
import type { DB } from "../db/schema.ts";
import type { Mailer } from "../mail/mailer.ts";
import { createSubscriptionsRepo } from "../modules/subscriptions/subscriptions.repo.ts";
import { createUsersRepo } from "../modules/users/users.repo.ts";
import { normaliseIp } from "./client-ip.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import type { SecurityAudit } from "./security-audit.ts";
import { CLIENT_IP_HEADER, type SessionGuard } from "./session-guard.ts";
import {
  accountKey,
  addressKey,
  type LoginThrottle,
  type ThrottleKey,
  unknownAccountKey,
} from "./throttle.ts";
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
  guard: SessionGuard;
  throttle: LoginThrottle;
  audit: SecurityAudit;
  now: () => number;
  logger?: Logger;
}

const SIGN_IN_PATHS = new Set(["/sign-in/email", "/sign-in/username"]);
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
    logger: { level: "error" },
    // Endpoints that would hand session tokens to the browser, or bypass the password lockout.
    disabledPaths: [
      "/list-sessions",
      "/sign-in/email-otp",
      "/request-password-reset",
      "/reset-password",
      "/verify-email",
      "/send-verification-email",
    ],
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
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
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      cookiePrefix: "lumen",
      useSecureCookies: options.baseURL.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
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
          if (!parsed.success) {
            const fields: Record<string, string> = {};
            for (const issue of parsed.error.issues) {
              const field = String(issue.path[0] ?? "body");
              fields[field] ??= fieldErrorMessage(field, issue);
            }
            throw new APIError("BAD_REQUEST", {
              code: "VALIDATION_ERROR",
              message: Object.values(fields).join(" "),
              fields,
            });
          }
          return { context: { body: { ...body, email: parsed.data.email, username: parsed.data.username } } };
        }
        if (SIGN_IN_PATHS.has(path)) {
          const { keys } = await signInKeys(path, body, ctx.headers);
          const state = await sec.throttle.check(keys);
          if (state.locked) throw tooManyAttempts(state.retryAfterS);
          return;
        }
        if (OTP_SEND_PATHS.has(path)) {
          const kind =
            path === "/email-otp/send-verification-otp"
              ? str(body.type) || "email-verification"
              : "forget-password";
          if (str(body.email)) await enforceOtpCooldown(kind, str(body.email));
          return;
        }
        if (path === "/change-password" || path === "/change-email") {
          const current = await guardedSession(ctx.headers);
          if (current && sec.now() - current.session.issuedAt >= FRESH_SIGN_IN_MS) {
            throw new APIError("FORBIDDEN", {
              code: "SESSION_NOT_FRESH",
              message: "For your security, sign in again (within the last 15 minutes) before changing this.",
            });
          }
          if (path === "/change-password") {
            return { context: { body: { ...body, revokeOtherSessions: true } } };
          }
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
        if (SIGN_IN_PATHS.has(path)) {
          const body = bodyOf(ctx.body);
          if (failed && returned.statusCode === 401) {
            const { keys, account, userId } = await signInKeys(path, body, ctx.headers);
            const lockedNow = await sec.throttle.recordFailure(keys);
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
          if (failed && returned.statusCode === 403 && returned.body?.code === "EMAIL_NOT_VERIFIED") {
            throw new APIError("FORBIDDEN", {
              code: "EMAIL_NOT_VERIFIED",
              message: EMAIL_NOT_VERIFIED_MESSAGE,
            });
          }
          const newSession = ctx.context.newSession;
          if (!failed && newSession) {
            await sec.throttle.reset(accountKey(newSession.user.id));
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
        if (path === "/sign-up/email" && !failed) {
          const id = bodyOf(bodyOf(returned).user).id;
          const created =
            typeof id === "string"
              ? await sec.db.selectFrom("user").select("id").where("id", "=", id).executeTakeFirst()
              : undefined;
          if (created) {
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
