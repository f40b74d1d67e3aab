import { betterAuth } from "better-auth";
import { emailOTP } from "better-auth/plugins/email-otp";
import { phoneNumber } from "better-auth/plugins/phone-number";
import { twoFactor } from "better-auth/plugins/two-factor";
import { username } from "better-auth/plugins/username";
import type { Kysely } from "kysely";
import { type Logger, pino } from "pino";
import type { DB } from "../db/schema.ts";
import type { Mailer, SmsSender } from "../mail/mailer.ts";
import {
  type BaseConfigOptions,
  baseAuthConfig,
  EMAIL_AND_PASSWORD,
  OTP_ATTEMPTS,
  OTP_EXPIRES_S,
  OTP_LENGTH,
} from "./auth-config.ts";
import { guardedSessionOf } from "./hooks/context.ts";
import { createCurrentPasswordChecks } from "./hooks/current-password.ts";
import { createEmailCodeHooks, emailCodeSender } from "./hooks/email-codes.ts";
import { createPasswordResetHooks } from "./hooks/password-reset.ts";
import { hookMiddleware } from "./hooks/registry.ts";
import { createSecondFactorHooks, mfaMethodsPlugin } from "./hooks/second-factor.ts";
import { createSessionHooks } from "./hooks/sessions.ts";
import { createSettingsHooks } from "./hooks/settings.ts";
import { createSignInHooks } from "./hooks/sign-in.ts";
import { createSignUpHooks } from "./hooks/sign-up.ts";
import { createSmsCodeHooks, createSmsSending } from "./hooks/sms-codes.ts";
import {
  createMfaStore,
  MFA_ISSUER,
  PHONE_OTP_EXPIRES_S,
  PHONE_PATTERN,
  SMS_2FA_OTP_MINUTES,
  SMS_OTP_DIGITS,
} from "./mfa.ts";
import { createOtpCooldown } from "./otp-cooldown.ts";
import type { SecurityAudit } from "./security-audit.ts";
import { CLIENT_IP_HEADER, type SessionGuard } from "./session-guard.ts";
import type { LoginThrottle } from "./throttle.ts";
import { TOTP_DIGITS, TOTP_PERIOD_S } from "./totp.ts";

export { FRESH_SIGN_IN_MS, OTP_ATTEMPTS, OTP_EXPIRES_S, OTP_LENGTH } from "./auth-config.ts";
export { OTP_RESEND_COOLDOWN_MS } from "./otp-cooldown.ts";
/** The header the HTTP layer sets from the socket address on every auth request (overwriting any incoming value). */
export { CLIENT_IP_HEADER };

export interface AuthOptions extends BaseConfigOptions {
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

/** The security behaviour on top of Better Auth, one module per concern (`hooks/`). */
function securityHooks(sec: AuthSecurity) {
  const { db, mailer, guard, throttle, audit, now } = sec;
  const mfa = createMfaStore(db);
  const cooldown = createOtpCooldown(db, now);
  const guardedSession = guardedSessionOf(guard);
  const sending = createSmsSending({ sender: sec.sms, mfa, logger: sec.logger });
  const signUp = createSignUpHooks({ db, mailer, audit, cooldown, now, logger: sec.logger });
  const sessions = createSessionHooks({ guard, audit, guardedSession });
  const passwordChecks = createCurrentPasswordChecks({ throttle, audit });
  const tables = [
    passwordChecks.table,
    signUp.table,
    createSignInHooks({ db, throttle, audit, now }),
    createPasswordResetHooks({ db, audit }),
    createEmailCodeHooks({ cooldown }),
    createSecondFactorHooks({ db, mfa, throttle, audit, guardedSession, now }),
    createSettingsHooks({ db, audit, cooldown, passwordChecks, guardedSession, now }),
    createSmsCodeHooks({ mfa, sending, cooldown, guardedSession }),
    sessions.table,
  ];
  return { stores: { db, mfa }, sending, signUp, sessions, tables };
}

/**
 * Better Auth, configured for this product: e-mail + username sign-in, e-mail confirmation and
 * password reset by 6-digit code, scrypt hashing, per-account/per-address lockout in the
 * database, database rate limiting everywhere, session binding and audit events. The plain
 * settings are in `auth-config.ts`, the behaviour on top in `hooks/` (one module per concern);
 * the session rules themselves live in `session-guard.ts`.
 */
export function createAuth(options: AuthOptions) {
  const sec = options.security;
  /** Better Auth's own log lines; tools without security parts log to stdout at info. */
  const authLogger = sec?.logger ?? pino({ base: undefined });
  const hooks = sec ? securityHooks(sec) : null;
  // Tools without security parts still get the plugins (their endpoints and types), minus sending.
  const sending = hooks?.sending ?? createSmsSending({ sender: null, mfa: null });

  return betterAuth({
    ...baseAuthConfig(options, authLogger),
    emailAndPassword: {
      ...EMAIL_AND_PASSWORD,
      onExistingUserSignUp: async ({ user }) => hooks?.signUp.existingAccountNotice(user.email),
    },
    databaseHooks: {
      user: { create: { after: async (user) => hooks?.signUp.startOnFreeTier(user.id) } },
      session: {
        create: {
          after: async (session, ctx) =>
            hooks?.sessions.bind(session.id, ctx?.headers ?? ctx?.request?.headers),
        },
      },
    },
    hooks: hookMiddleware(hooks?.tables ?? []),
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
          sendOTP: sending.sendSignInCode,
        },
      }),
      phoneNumber({
        otpLength: SMS_OTP_DIGITS,
        expiresIn: PHONE_OTP_EXPIRES_S,
        allowedAttempts: OTP_ATTEMPTS,
        phoneNumberValidator: (value) => PHONE_PATTERN.test(value),
        sendOTP: async (data) => sending.sendPhoneCode(data),
      }),
      mfaMethodsPlugin(hooks?.stores ?? null),
      emailOTP({
        otpLength: OTP_LENGTH,
        expiresIn: OTP_EXPIRES_S,
        allowedAttempts: OTP_ATTEMPTS,
        storeOTP: "hashed",
        sendVerificationOnSignUp: true,
        overrideDefaultEmailVerification: true,
        sendVerificationOTP: emailCodeSender(sec?.mailer ?? null),
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
