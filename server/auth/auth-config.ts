/**
 * The plain Better Auth settings of this product: endpoints turned off, password rules and
 * hashing, the user fields, the session lifetime, the per-address rate limits, cookies and ids.
 * The behaviour added on top (hooks by concern) is composed in `auth.ts`.
 */
import type { BetterAuthOptions } from "better-auth";
import { APIError } from "better-auth/api";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { PASSWORD_MIN_LENGTH, SESSION_ABSOLUTE_MS } from "../../core/index.ts";
import { betterAuthApiErrors, betterAuthLogger } from "./auth-logger.ts";
import { authCookieOptions } from "./cookies.ts";
import { HashBusyError } from "./hash-limiter.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { CLIENT_IP_HEADER } from "./session-guard.ts";
import { PASSWORD_MAX_LENGTH } from "./validation.ts";

/** OTP codes (e-mail confirmation, password reset): 6 digits, 10 minutes, 5 tries. */
export const OTP_LENGTH = 6;
export const OTP_EXPIRES_S = 600;
export const OTP_ATTEMPTS = 5;
/** E-mail and password changes need a sign-in at most this old (SECURITY.md §9). */
export const FRESH_SIGN_IN_MS = 15 * 60_000;

export interface BaseConfigOptions {
  // biome-ignore lint/suspicious/noExplicitAny: Better Auth accepts any Kysely database
  db: Kysely<any>;
  dialect: "sqlite" | "postgres";
  secret: string;
  baseURL: string;
  trustedOrigins?: string[];
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

/** Everything but the hooks and plugins. */
export function baseAuthConfig(options: BaseConfigOptions, logger: Logger) {
  return {
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
    logger: betterAuthLogger(logger),
    onAPIError: betterAuthApiErrors(logger),
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
  } satisfies BetterAuthOptions;
}

/** E-mail and password accounts (the notice to the owner of an address already in use is the caller's). */
export const EMAIL_AND_PASSWORD = {
  enabled: true,
  requireEmailVerification: true,
  minPasswordLength: PASSWORD_MIN_LENGTH,
  maxPasswordLength: PASSWORD_MAX_LENGTH,
  revokeSessionsOnPasswordReset: true,
  password: {
    hash: (password: string) => hashSlot(hashPassword(password)),
    verify: (data: { password: string; hash: string }) => hashSlot(verifyPassword(data)),
  },
} satisfies BetterAuthOptions["emailAndPassword"];
