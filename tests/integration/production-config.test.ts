/**
 * What an operator configures for production (README "Running in production"), over real HTTP:
 * - PUBLIC_URL with https → the identity cookies carry the `__Host-` prefix (Secure, Path=/, no
 *   Domain) and are accepted back; the unprefixed and `__Secure-` names are not;
 * - SMS_URL=sns://… → SMS codes go through Amazon SNS (a local SNS double here), not the outbox;
 *   a provider failure answers a clear 503 instead of losing the code silently, on phone
 *   verification and on the SMS second factor alike.
 * One server (SQLite: none of this depends on the database dialect).
 */
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readOutbox } from "../../server/mail/mailer.ts";
import { call, cookiesOf, createConfirmedAccount, signInCookie, TestClock } from "../helpers/auth.ts";
import { type FakeSns, fakeSnsUrl, startFakeSns } from "../helpers/fake-sns.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { secretOf, totpCode } from "../helpers/totp.ts";

describe("production configuration: __Host- cookies and SMS through Amazon SNS", () => {
  let server: TestServer;
  let sns: FakeSns;
  const clock = new TestClock();

  beforeAll(async () => {
    sns = await startFakeSns();
    server = await startTestServer(
      "sqlite",
      { PUBLIC_URL: "https://hub.example.test", SMS_URL: fakeSnsUrl(sns, "&senderId=LumenHub") },
      { now: clock.now },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await sns?.close();
  });
  beforeEach(() => {
    sns.failWith = null;
  });

  /** The newest code SNS was asked to send to `phone`. */
  const codeSentTo = (phone: string) => {
    const sent = sns.publishes.filter((p) => p.phoneNumber === phone).at(-1);
    return /code is (\d{6})/.exec(sent?.message ?? "")?.[1] ?? null;
  };

  it("sets __Host- session cookies (Secure, Path=/, no Domain) and accepts them back", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "hostcookie");
    const res = await call(server.url, "/api/auth/sign-in/email", {
      email: account.email,
      password: account.password,
    });
    expect(res.status).toBe(200);
    const setCookies = res.headers.getSetCookie();
    const session = setCookies.find((c) => c.startsWith("__Host-lumen.session_token="));
    expect(session).toBeDefined();
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; Path=\/(;|$)/i);
    expect(session).not.toMatch(/Domain=/i);
    expect(session).toMatch(/HttpOnly/i);
    for (const cookie of setCookies) expect(cookie).toMatch(/^__Host-lumen\./);

    const cookie = cookiesOf(res);
    const me = await call(server.url, "/api/account/me", undefined, { cookie });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(account.email);
    // The same token under another name is not a session.
    const value = cookie.slice(cookie.indexOf("=") + 1);
    for (const name of ["lumen.session_token", "__Secure-lumen.session_token"]) {
      const other = await call(server.url, "/api/account/me", undefined, { cookie: `${name}=${value}` });
      expect(other.status).toBe(401);
    }
  });

  it("sends the phone verification code through SNS (nothing in the outbox)", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "snsverify");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const phone = `+1415777${String(Date.now()).slice(-4)}`;
    const send = await call(
      server.url,
      "/api/auth/phone-number/send-otp",
      { phoneNumber: phone },
      { cookie },
    );
    expect(send.status).toBe(200);
    const sent = sns.publishes.filter((p) => p.phoneNumber === phone);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      action: "Publish",
      attributes: { "AWS.SNS.SMS.SMSType": "Transactional", "AWS.SNS.SMS.SenderID": "LumenHub" },
    });
    expect(sent[0]!.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\//);
    expect(await readOutbox(path.join(server.dataDir, "outbox"), "txt")).toEqual([]);

    const verify = await call(
      server.url,
      "/api/auth/phone-number/verify",
      { phoneNumber: phone, code: codeSentTo(phone) },
      { cookie },
    );
    expect(verify.status).toBe(200);
    const status = await call(server.url, "/api/account/mfa", undefined, { cookie });
    expect(await status.json()).toMatchObject({ phoneNumber: phone, phoneNumberVerified: true });
  });

  it("answers 503 'SMS could not be sent' when SNS refuses a phone verification code", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "snsfail");
    const cookie = await signInCookie(server.url, account.email, account.password);
    sns.failWith = { code: "InvalidParameter", message: "Invalid parameter: PhoneNumber" };
    const res = await call(
      server.url,
      "/api/auth/phone-number/send-otp",
      { phoneNumber: "+14157770001" },
      { cookie },
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(await res.json()).toMatchObject({
      code: "SMS_NOT_SENT",
      message: expect.stringMatching(/SMS could not be sent/),
    });
  });

  it("answers 503 when the SMS second-factor code cannot be sent (not a silent success)", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "sns2fa");
    let cookie = await signInCookie(server.url, account.email, account.password);
    const enable = await call(
      server.url,
      "/api/auth/two-factor/enable",
      { password: account.password },
      { cookie },
    );
    expect(enable.status).toBe(200);
    const secret = secretOf(((await enable.json()) as { totpURI: string }).totpURI);
    cookie = [cookie, cookiesOf(enable)].filter(Boolean).join("; ");
    const on = await call(
      server.url,
      "/api/auth/two-factor/verify-totp",
      { code: totpCode(secret) },
      { cookie },
    );
    expect(on.status).toBe(200);
    cookie = cookiesOf(on) || cookie;
    const phone = `+1415778${String(Date.now()).slice(-4)}`;
    await call(server.url, "/api/auth/phone-number/send-otp", { phoneNumber: phone }, { cookie });
    const verify = await call(
      server.url,
      "/api/auth/phone-number/verify",
      { phoneNumber: phone, code: codeSentTo(phone) },
      { cookie },
    );
    expect(verify.status).toBe(200);

    const password = await call(server.url, "/api/auth/sign-in/email", {
      email: account.email,
      password: account.password,
    });
    expect(await password.json()).toMatchObject({
      twoFactorRedirect: true,
      twoFactorMethods: ["totp", "otp"],
    });
    const challenge = cookiesOf(password);
    sns.failWith = { code: "Throttling", message: "Rate exceeded" };
    const failed = await call(server.url, "/api/auth/two-factor/send-otp", {}, { cookie: challenge });
    expect(failed.status).toBe(503);
    expect((await failed.json()).code).toBe("SMS_NOT_SENT");

    sns.failWith = null;
    clock.advance(61_000); // past the resend cooldown
    const sent = await call(server.url, "/api/auth/two-factor/send-otp", {}, { cookie: challenge });
    expect(sent.status).toBe(200);
    const ok = await call(
      server.url,
      "/api/auth/two-factor/verify-otp",
      { code: codeSentTo(phone) },
      { cookie: challenge },
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.getSetCookie().some((c) => c.startsWith("__Host-lumen.session_token="))).toBe(true);
  });
});
