/**
 * Codes sent by SMS: to verify a phone number, and as a second factor at sign-in (only to a
 * verified number, with the resend cooldown). A failed send answers 503 (`smsUnavailable`),
 * never a silent loss.
 */
import { APIError } from "better-auth/api";
import type { Logger } from "pino";
import type { SmsSender } from "../../mail/mailer.ts";
import { type MfaStore, PHONE_OTP_EXPIRES_S, SMS_2FA_OTP_MINUTES, smsText, smsUnavailable } from "../mfa.ts";
import type { OtpCooldown } from "../otp-cooldown.ts";
import type { AuthHookContext, GuardedSession } from "./context.ts";
import type { HookTable } from "./registry.ts";
import { challengeUser } from "./second-factor.ts";

const SEND_SIGN_IN_CODE_PATH = "/two-factor/send-otp";

const noVerifiedPhone = () =>
  new APIError("BAD_REQUEST", {
    code: "NO_VERIFIED_PHONE",
    message: "Add and verify a phone number in settings to receive codes by SMS.",
  });

export interface SmsSendingDeps {
  /** null: SMS codes are refused. */
  sender: SmsSender | null;
  /** null: no account has a verified phone (tools without security parts). */
  mfa: MfaStore | null;
  logger?: Logger;
}

/** The senders the two-factor and phone-number plugins call. */
export function createSmsSending({ sender, mfa, logger }: SmsSendingDeps) {
  /** Requests whose SMS could not be sent (Better Auth swallows two-factor send errors). */
  const failures = new WeakSet<Headers>();

  /** Sends an SMS through the configured sender (refused when none is configured). */
  async function sendSms(to: string, text: string) {
    if (!sender) {
      throw new APIError("BAD_REQUEST", {
        code: "SMS_NOT_CONFIGURED",
        message: "SMS codes are not available.",
      });
    }
    try {
      await sender.send({ to, text });
    } catch (error) {
      logger?.error({ err: error, sender: sender.kind }, "SMS could not be sent");
      throw smsUnavailable();
    }
  }

  return {
    /** A second-factor code, to the user's verified phone. */
    async sendSignInCode({ user, otp }: { user: { id: string }; otp: string }, ctx?: { headers?: Headers }) {
      const phone = mfa ? await mfa.verifiedPhone(user.id) : null;
      if (!phone) throw noVerifiedPhone();
      try {
        await sendSms(phone, smsText("sign-in", otp, SMS_2FA_OTP_MINUTES));
      } catch (error) {
        // Better Auth logs and drops this error: the after hook answers it instead.
        if (ctx?.headers) failures.add(ctx.headers);
        throw error;
      }
    },
    /** A phone verification code, to the number being added. */
    async sendPhoneCode({ phoneNumber, code }: { phoneNumber: string; code: string }) {
      await sendSms(phoneNumber, smsText("verify", code, PHONE_OTP_EXPIRES_S / 60));
    },
    /** Whether this request's second-factor SMS could not be sent. */
    failedFor: (headers: Headers | undefined) => !!headers && failures.has(headers),
  };
}

export type SmsSending = ReturnType<typeof createSmsSending>;

export interface SmsCodeHookDeps {
  mfa: MfaStore;
  sending: SmsSending;
  cooldown: OtpCooldown;
  guardedSession: GuardedSession;
}

/** Asking for a second-factor code by SMS: a verified phone and the resend cooldown first. */
export function createSmsCodeHooks({ mfa, sending, cooldown, guardedSession }: SmsCodeHookDeps): HookTable {
  async function before(ctx: AuthHookContext) {
    const current = await guardedSession(ctx.headers);
    const userId = current?.user.id ?? (await challengeUser(ctx));
    if (!userId) return;
    if (!(await mfa.verifiedPhone(userId))) throw noVerifiedPhone();
    await cooldown.enforce("2fa-sms", userId);
    return undefined;
  }

  async function after(ctx: AuthHookContext) {
    if (sending.failedFor(ctx.headers)) throw smsUnavailable();
  }

  return { before: { [SEND_SIGN_IN_CODE_PATH]: before }, after: { [SEND_SIGN_IN_CODE_PATH]: after } };
}
