/**
 * Codes sent by e-mail (address confirmation, password reset): the mail itself, and the resend
 * cooldown before Better Auth sends another.
 */
import type { Mailer } from "../../mail/mailer.ts";
import { OTP_EXPIRES_S } from "../auth-config.ts";
import type { OtpCooldown } from "../otp-cooldown.ts";
import { type AuthHookContext, bodyOf, str } from "./context.ts";
import { forPaths, type HookTable } from "./registry.ts";

const OTP_SEND_PATHS = new Set([
  "/email-otp/send-verification-otp",
  "/forget-password/email-otp",
  "/email-otp/request-password-reset",
]);

export function otpMail(type: string, otp: string): { subject: string; text: string } {
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

/** What the e-mail OTP plugin calls to send a code (nothing is sent without a mailer). */
export function emailCodeSender(mailer: Mailer | null) {
  return async ({ email, otp, type }: { email: string; otp: string; type: string }) => {
    if (!mailer) return;
    await mailer.send({ to: email, ...otpMail(type, otp) });
  };
}

export function createEmailCodeHooks({ cooldown }: { cooldown: OtpCooldown }): HookTable {
  async function before(ctx: AuthHookContext) {
    const body = bodyOf(ctx.body);
    const kind =
      ctx.path === "/email-otp/send-verification-otp"
        ? str(body.type) || "email-verification"
        : "forget-password";
    if (str(body.email)) await cooldown.enforce(kind, str(body.email));
    return undefined;
  }
  return { before: forPaths(OTP_SEND_PATHS, before) };
}
