/**
 * GET /api/account/mfa → {enabled, totp, phoneNumber, phoneNumberVerified, unverifiedPhoneNumber,
 *   pendingStaffRoles}
 * The signed-in user's second-factor status for /settings (no secret, code or token).
 * Enabling, verifying and disabling go through Better Auth's /api/auth/two-factor/* and
 * /api/auth/phone-number/* endpoints (with the rules of auth.ts).
 */
import type { Context, Hono } from "hono";
import type { AuthSecurity } from "./auth.ts";
import { normaliseIp } from "./client-ip.ts";
import { CLIENT_IP_HEADER } from "./session-guard.ts";
import { pendingStaffRolesOf } from "./staff-mfa.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

export interface MfaStatus {
  enabled: boolean;
  totp: boolean;
  phoneNumber: string | null;
  phoneNumberVerified: boolean;
  /** The number given at sign-up, not yet verified by SMS (never used to sign in or for codes). */
  unverifiedPhoneNumber: string | null;
  /** Staff roles the account holds that unlock once TOTP is enrolled (decision 012); [] when none wait. */
  pendingStaffRoles: string[];
}

const truthy = (value: unknown) => value === true || value === 1 || value === "1";

export function registerMfaApi(app: AnyHono, security: AuthSecurity): void {
  const { guard, db } = security;
  app.get("/api/account/mfa", async (c: Context) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, normaliseIp(c.get("clientIp") as string | undefined));
    const result = await guard.check(headers);
    c.header("Cache-Control", "no-store");
    if (!result.ok) {
      if (result.clearCookie) c.header("Set-Cookie", result.clearCookie, { append: true });
      return c.json({ ok: false, reason: result.reason }, 401);
    }
    const user = await db
      .selectFrom("user")
      .select(["twoFactorEnabled", "phoneNumber", "phoneNumberVerified", "unverifiedPhoneNumber"])
      .where("id", "=", result.user.id)
      .executeTakeFirst();
    const factor = await db
      .selectFrom("twoFactor")
      .select("verified")
      .where("userId", "=", result.user.id)
      .executeTakeFirst();
    const verifiedPhone = truthy(user?.phoneNumberVerified) ? (user?.phoneNumber ?? null) : null;
    const status: MfaStatus = {
      enabled: truthy(user?.twoFactorEnabled),
      totp: !!factor && truthy(factor.verified),
      phoneNumber: verifiedPhone,
      phoneNumberVerified: verifiedPhone !== null,
      unverifiedPhoneNumber: verifiedPhone === null ? (user?.unverifiedPhoneNumber ?? null) : null,
      pendingStaffRoles: await pendingStaffRolesOf(db, result.user.id),
    };
    return c.json(status);
  });
}
