/**
 * MFA over HTTP (issue 3 item 5, SECURITY.md §1, §6, §9): TOTP enrolment and sign-in, the
 * lockout counting wrong second-factor codes, no TOTP replay, single-use backup codes, SMS codes
 * from the outbox (and their expiry), disabling with the password.
 * TOTP codes are computed here (RFC 6238) from the secret of the otpauth URI.
 */
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { LOCKOUT_MESSAGE } from "../../core/index.ts";
import { readOutbox } from "../../server/mail/mailer.ts";
import {
  call,
  cookiesOf,
  createConfirmedAccount,
  signInCookie,
  TestClock,
  withCookies,
} from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { secretOf, totpCode } from "../helpers/totp.ts";

const STEP_MS = 30_000;

/** The newest SMS code sent to `phone`, or null. */
async function latestSms(dataDir: string, phone: string): Promise<string | null> {
  for (const sms of await readOutbox(path.join(dataDir, "outbox"), "txt")) {
    if (!sms.startsWith(`To: ${phone}\n`)) continue;
    const code = /code is (\d{6})/.exec(sms);
    if (code) return code[1]!;
  }
  return null;
}

/** A 6-digit code that is wrong for every step around now. */
function wrongCode(secret: string): string {
  const near = [-1, 0, 1].map((i) => totpCode(secret, Date.now() + i * STEP_MS));
  return ["000000", "111111", "222222"].find((c) => !near.includes(c))!;
}

describe.each(DIALECTS)("MFA (%s)", (dialect) => {
  let server: TestServer;
  // The runtime clock (lockout, resend cooldown); Better Auth's code lifetimes use Date.
  const clock = new TestClock();
  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A confirmed, signed-in account with TOTP on (enrolled with the code of the current step). */
  async function withTotp(prefix: string) {
    const account = await createConfirmedAccount(server.url, server.dataDir, prefix);
    let cookie = await signInCookie(server.url, account.email, account.password);
    const noPassword = await call(server.url, "/api/auth/two-factor/enable", {}, { cookie });
    expect(noPassword.status).toBe(400);
    const enable = await call(
      server.url,
      "/api/auth/two-factor/enable",
      { password: account.password },
      { cookie },
    );
    expect(enable.status).toBe(200);
    const body = (await enable.json()) as { totpURI: string; backupCodes: string[] };
    expect(body.totpURI).toMatch(/^otpauth:\/\/totp\/Lumen%20Hub:/);
    expect(new URL(body.totpURI).searchParams.get("digits")).toBe("6");
    expect(new URL(body.totpURI).searchParams.get("period")).toBe("30");
    expect(body.backupCodes.length).toBeGreaterThanOrEqual(8);
    const secret = secretOf(body.totpURI);
    cookie = withCookies(cookie, enable);
    const verify = await call(
      server.url,
      "/api/auth/two-factor/verify-totp",
      { code: totpCode(secret) },
      { cookie },
    );
    expect(verify.status).toBe(200);
    cookie = withCookies(cookie, verify);
    const status = await call(server.url, "/api/account/mfa", undefined, { cookie });
    expect(await status.json()).toMatchObject({ enabled: true, totp: true });
    return { account, cookie, secret, backupCodes: body.backupCodes };
  }

  /** Password step of a sign-in with 2FA on: answers twoFactorRedirect and a challenge cookie. */
  async function passwordStep(email: string, password: string) {
    const res = await call(server.url, "/api/auth/sign-in/email", { email, password });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { twoFactorRedirect?: boolean; twoFactorMethods?: string[] };
    const challenge = cookiesOf(res);
    expect(challenge).toContain("two_factor=");
    expect(challenge).not.toContain("session_token=");
    return { body, challenge };
  }

  it("enable → sign-in asks for the second factor → a correct code signs in; the code cannot be replayed", async () => {
    const { account, secret } = await withTotp("mfa");
    const { body, challenge } = await passwordStep(account.email, account.password);
    expect(body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    // Not signed in yet.
    const check = await call(server.url, "/api/account/security-check", undefined, { cookie: challenge });
    expect(check.status).toBe(401);

    // The next step's code (the current one was used at enrolment; the window accepts ±1 step).
    const code = totpCode(secret, Date.now() + STEP_MS);
    const ok = await call(server.url, "/api/auth/two-factor/verify-totp", { code }, { cookie: challenge });
    expect(ok.status).toBe(200);
    const okBody = await ok.json();
    expect(okBody.token).toBeUndefined();
    const session = cookiesOf(ok);
    expect(session).toContain("session_token=");
    const signedIn = await call(server.url, "/api/account/security-check", undefined, { cookie: session });
    expect(signedIn.status).toBe(200);

    // The same code again, in a new sign-in, is refused.
    const again = await passwordStep(account.email, account.password);
    const replay = await call(
      server.url,
      "/api/auth/two-factor/verify-totp",
      { code },
      { cookie: again.challenge },
    );
    expect(replay.status).toBe(401);
    expect(cookiesOf(replay)).not.toContain("session_token=");
    // An older step (already passed) is refused too.
    const older = await call(
      server.url,
      "/api/auth/two-factor/verify-totp",
      { code: totpCode(secret, Date.now() - STEP_MS) },
      { cookie: again.challenge },
    );
    expect(older.status).toBe(401);
  });

  it("lastLogin moves when the second factor creates the session, not at the password step or on a wrong code", async () => {
    const { account, secret } = await withTotp("mfalast");
    const lastLoginAt = async () =>
      (
        await server.runtime.database.db
          .selectFrom("user")
          .select("lastLoginAt")
          .where("email", "=", account.email)
          .executeTakeFirstOrThrow()
      ).lastLoginAt;
    const enrolledAt = await lastLoginAt(); // the sign-in before TOTP was turned on
    expect(enrolledAt).not.toBeNull();

    clock.advance(60_000);
    const { challenge } = await passwordStep(account.email, account.password);
    expect(await lastLoginAt()).toBe(enrolledAt);
    const wrong = await call(
      server.url,
      "/api/auth/two-factor/verify-totp",
      { code: wrongCode(secret) },
      { cookie: challenge },
    );
    expect(wrong.status).toBe(401);
    expect(await lastLoginAt()).toBe(enrolledAt);

    clock.advance(60_000);
    const ok = await call(
      server.url,
      "/api/auth/two-factor/verify-totp",
      { code: totpCode(secret, Date.now() + STEP_MS) },
      { cookie: challenge },
    );
    expect(ok.status).toBe(200);
    expect(await lastLoginAt()).toBe(new Date(clock.now()).toISOString());
  });

  it("wrong second-factor codes count toward the lockout (5 → locked)", async () => {
    const { account, secret } = await withTotp("mfalock");
    const { challenge } = await passwordStep(account.email, account.password);
    const wrong = wrongCode(secret);
    for (let i = 0; i < 5; i++) {
      const res = await call(
        server.url,
        "/api/auth/two-factor/verify-totp",
        { code: wrong },
        { cookie: challenge },
      );
      expect(res.status).toBe(401);
    }
    const locked = await call(
      server.url,
      "/api/auth/two-factor/verify-totp",
      { code: totpCode(secret, Date.now() + STEP_MS) },
      { cookie: challenge },
    );
    expect(locked.status).toBe(429);
    expect((await locked.json()).message).toBe(LOCKOUT_MESSAGE);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The password step is locked too (the same account counter).
    const password = await call(server.url, "/api/auth/sign-in/email", {
      email: account.email,
      password: account.password,
    });
    expect(password.status).toBe(429);
  });

  it("a backup code works once", async () => {
    const { account, backupCodes } = await withTotp("mfabackup");
    const first = await passwordStep(account.email, account.password);
    const ok = await call(
      server.url,
      "/api/auth/two-factor/verify-backup-code",
      { code: backupCodes[0] },
      { cookie: first.challenge },
    );
    expect(ok.status).toBe(200);
    expect(cookiesOf(ok)).toContain("session_token=");
    const second = await passwordStep(account.email, account.password);
    const reused = await call(
      server.url,
      "/api/auth/two-factor/verify-backup-code",
      { code: backupCodes[0] },
      { cookie: second.challenge },
    );
    expect(reused.status).toBe(401);
    const other = await call(
      server.url,
      "/api/auth/two-factor/verify-backup-code",
      { code: backupCodes[1] },
      { cookie: second.challenge },
    );
    expect(other.status).toBe(200);
  });

  it("new backup codes need the password and a sign-in within 15 minutes, and are audited", async () => {
    const { account, cookie } = await withTotp("mfaregen");
    const ok = await call(
      server.url,
      "/api/auth/two-factor/generate-backup-codes",
      { password: account.password },
      { cookie },
    );
    expect(ok.status).toBe(200);
    const codes = ((await ok.json()) as { backupCodes: string[] }).backupCodes;
    expect(codes.length).toBeGreaterThanOrEqual(8);
    const user = await server.runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    const rows = await server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "backup_codes_regenerated")
      .where("actorId", "=", user.id)
      .execute();
    expect(rows).toHaveLength(1);
    for (const code of codes) expect(JSON.stringify(rows)).not.toContain(code);

    clock.advance(16 * 60_000); // the sign-in is no longer fresh (activity keeps the session alive)
    await call(server.url, "/api/account/activity", {}, { cookie });
    const stale = await call(
      server.url,
      "/api/auth/two-factor/generate-backup-codes",
      { password: account.password },
      { cookie },
    );
    expect(stale.status).toBe(403);
    expect(((await stale.json()) as { code?: string }).code).toBe("SESSION_NOT_FRESH");
  });

  it("phone verification by SMS, then a code by SMS as the second factor; SMS codes expire", async () => {
    const { account, cookie } = await withTotp("mfasms");
    const phone = `+1415555${String(Date.now()).slice(-4)}`;
    const invalid = await call(
      server.url,
      "/api/auth/phone-number/send-otp",
      { phoneNumber: "12345" },
      { cookie },
    );
    expect(invalid.status).toBe(400);
    const anonymous = await call(server.url, "/api/auth/phone-number/send-otp", { phoneNumber: phone });
    expect(anonymous.status).toBe(401);
    const send = await call(
      server.url,
      "/api/auth/phone-number/send-otp",
      { phoneNumber: phone },
      { cookie },
    );
    expect(send.status).toBe(200);
    const verifyCode = await latestSms(server.dataDir, phone);
    expect(verifyCode).toMatch(/^\d{6}$/);
    const verify = await call(
      server.url,
      "/api/auth/phone-number/verify",
      { phoneNumber: phone, code: verifyCode },
      { cookie },
    );
    expect(verify.status).toBe(200);
    expect((await verify.json()).token).toBeUndefined();
    const status = await call(server.url, "/api/account/mfa", undefined, { cookie });
    expect(await status.json()).toMatchObject({ phoneNumber: phone, phoneNumberVerified: true });

    const first = await passwordStep(account.email, account.password);
    expect(first.body.twoFactorMethods).toEqual(["totp", "otp"]);
    const sent = await call(server.url, "/api/auth/two-factor/send-otp", {}, { cookie: first.challenge });
    expect(sent.status).toBe(200);
    const smsCode = await latestSms(server.dataDir, phone);
    expect(smsCode).toMatch(/^\d{6}$/);
    const ok = await call(
      server.url,
      "/api/auth/two-factor/verify-otp",
      { code: smsCode },
      { cookie: first.challenge },
    );
    expect(ok.status).toBe(200);
    expect(cookiesOf(ok)).toContain("session_token=");

    // A new code, then more than its lifetime passes (≤ 10 min): refused.
    clock.advance(61_000); // past the resend cooldown
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    const second = await passwordStep(account.email, account.password);
    const resent = await call(server.url, "/api/auth/two-factor/send-otp", {}, { cookie: second.challenge });
    expect(resent.status).toBe(200);
    const late = await latestSms(server.dataDir, phone);
    expect(late).not.toBe(smsCode);
    vi.setSystemTime(Date.now() + 6 * 60_000);
    const expired = await call(
      server.url,
      "/api/auth/two-factor/verify-otp",
      { code: late },
      { cookie: second.challenge },
    );
    expect(expired.status).toBeGreaterThanOrEqual(400);
    expect(expired.status).toBeLessThan(500);
    expect(cookiesOf(expired)).not.toContain("session_token=");
  });

  it("disabling needs the password; afterwards sign-in needs no second factor", async () => {
    const { account, cookie } = await withTotp("mfaoff");
    const wrong = await call(
      server.url,
      "/api/auth/two-factor/disable",
      { password: "Wrong-Passw0rd!" },
      { cookie },
    );
    expect(wrong.status).toBe(400);
    const missing = await call(server.url, "/api/auth/two-factor/disable", {}, { cookie });
    expect(missing.status).toBe(400);
    const off = await call(
      server.url,
      "/api/auth/two-factor/disable",
      { password: account.password },
      { cookie },
    );
    expect(off.status).toBe(200);
    const res = await call(server.url, "/api/auth/sign-in/email", {
      email: account.email,
      password: account.password,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).twoFactorRedirect).toBeUndefined();
    expect(cookiesOf(res)).toContain("session_token=");
  });
});
