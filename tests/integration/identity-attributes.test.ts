/**
 * Issue 10 point 9: the phone number given at sign-up is kept as the account's unverified phone
 * and reaches the claims on every channel (session context, ID token), but signs no one in and
 * receives no second-factor code until it is verified by SMS; an unverified number does not
 * block another account from verifying it. `lastLogin` is set on every successful sign-in, in
 * UTC, and a failed sign-in does not move it.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOutbox } from "../../server/mail/mailer.ts";
import {
  call,
  cookiesOf,
  createConfirmedAccount,
  latestCode,
  newAccount,
  signInCookie,
  TestClock,
} from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

/** The newest SMS code sent to `phone`, or null. */
async function latestSms(dataDir: string, phone: string): Promise<string | null> {
  for (const sms of await readOutbox(path.join(dataDir, "outbox"), "txt")) {
    if (!sms.startsWith(`To: ${phone}\n`)) continue;
    const code = /code is (\d{6})/.exec(sms);
    if (code) return code[1]!;
  }
  return null;
}

/** The payload of a compact JWT (not verified: the server issued it in this test). */
function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8"));
}

let sequence = 0;
/** A fresh E.164 number for this run. */
function freshPhone(): string {
  sequence += 1;
  return `+1415${String(Date.now()).slice(-5)}${sequence}`.slice(0, 13);
}

describe.each(DIALECTS)("phone number given at sign-up (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();
  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  async function signUpWithPhone(prefix: string, phoneNumber: string) {
    const account = newAccount(prefix);
    const res = await call(server.url, "/api/auth/sign-up/email", { ...account, phoneNumber });
    expect(res.status).toBe(200);
    const otp = await latestCode(server.dataDir, account.email);
    const confirm = await call(server.url, "/api/auth/email-otp/verify-email", { email: account.email, otp });
    expect(confirm.status).toBe(200);
    return account;
  }

  async function me(cookie: string) {
    const res = await call(server.url, "/api/account/me", undefined, { cookie });
    expect(res.status).toBe(200);
    return res.json();
  }

  async function idTokenClaims(cookie: string) {
    const res = await call(server.url, "/api/account/token", {}, { cookie });
    expect(res.status).toBe(200);
    return payloadOf((await res.json()).idToken);
  }

  async function verifyPhone(cookie: string, phoneNumber: string) {
    const send = await call(server.url, "/api/auth/phone-number/send-otp", { phoneNumber }, { cookie });
    expect(send.status).toBe(200);
    const code = await latestSms(server.dataDir, phoneNumber);
    return call(server.url, "/api/auth/phone-number/verify", { phoneNumber, code }, { cookie });
  }

  const phoneSignIn = (phoneNumber: string, password: string) =>
    call(server.url, "/api/auth/sign-in/phone", { phoneNumber, password });

  it("keeps the number unverified in the claims; it signs in only once verified by SMS", async () => {
    const phone = freshPhone();
    const account = await signUpWithPhone("phoneup", phone);
    const cookie = await signInCookie(server.url, account.email, account.password);

    const context = await me(cookie);
    expect(context.phoneNumber).toBe(phone);
    expect(context.phoneNumberVerified).toBe(false);
    expect(context.claims).toMatchObject({ phone_number: phone, phone_number_verified: false });
    expect(await idTokenClaims(cookie)).toMatchObject({ phone_number: phone, phone_number_verified: false });
    const status = await call(server.url, "/api/account/mfa", undefined, { cookie });
    expect(await status.json()).toMatchObject({
      phoneNumber: null,
      phoneNumberVerified: false,
      unverifiedPhoneNumber: phone,
    });

    const exported = await call(server.url, "/api/account/export", undefined, { cookie });
    expect((await exported.json()).profile).toMatchObject({
      phoneNumber: null,
      phoneNumberVerified: false,
      unverifiedPhoneNumber: phone,
      lastLoginAt: context.customAttributes.lastLogin,
    });

    // Not a login name, not a second factor, until verified.
    expect((await phoneSignIn(phone, account.password)).status).toBe(401);
    const sms = await call(server.url, "/api/auth/two-factor/send-otp", {}, { cookie });
    expect(sms.status).toBe(400);
    expect((await sms.json()).code).toBe("NO_VERIFIED_PHONE");

    const verified = await verifyPhone(cookie, phone);
    expect(verified.status).toBe(200);
    const after = await me(cookie);
    expect(after.phoneNumber).toBe(phone);
    expect(after.phoneNumberVerified).toBe(true);
    expect(await idTokenClaims(cookie)).toMatchObject({ phone_number: phone, phone_number_verified: true });
    expect(await (await call(server.url, "/api/account/mfa", undefined, { cookie })).json()).toMatchObject({
      phoneNumber: phone,
      phoneNumberVerified: true,
      unverifiedPhoneNumber: null,
    });
    const byPhone = await phoneSignIn(phone, account.password);
    expect(byPhone.status).toBe(200);
    expect(byPhone.headers.getSetCookie().some((c) => c.includes("session_token="))).toBe(true);
  });

  it("an unverified number is not unique and does not stop another account verifying it", async () => {
    const phone = freshPhone();
    const first = await signUpWithPhone("phonesq", phone);
    // A second sign-up with the same unverified number is accepted too.
    await signUpWithPhone("phonesq", phone);
    const other = await createConfirmedAccount(server.url, server.dataDir, "phoneowner");
    const otherCookie = await signInCookie(server.url, other.email, other.password);
    const verified = await verifyPhone(otherCookie, phone);
    expect(verified.status).toBe(200);
    // The number now names its verified owner only.
    const byPhone = await phoneSignIn(phone, other.password);
    expect(byPhone.status).toBe(200);
    expect((await me(cookiesOf(byPhone))).email).toBe(other.email);
    const firstCookie = await signInCookie(server.url, first.email, first.password);
    expect((await me(firstCookie)).phoneNumberVerified).toBe(false);
  });

  it("an account signed up without a phone has no phone claim", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "nophone");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const context = await me(cookie);
    expect(context.phoneNumber).toBeNull();
    expect(context.claims.phone_number).toBeUndefined();
    expect(context.claims.phone_number_verified).toBeUndefined();
  });

  it("lastLogin: set in UTC by each successful sign-in, unchanged by a failed one", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "lastlogin");
    const lastLoginAt = async () =>
      (
        await server.runtime.database.db
          .selectFrom("user")
          .select("lastLoginAt")
          .where("email", "=", account.email)
          .executeTakeFirstOrThrow()
      ).lastLoginAt;
    expect(await lastLoginAt()).toBeNull();

    clock.advance(60_000);
    const firstAt = new Date(clock.now()).toISOString();
    const cookie = await signInCookie(server.url, account.email, account.password);
    expect(await lastLoginAt()).toBe(firstAt);
    const context = await me(cookie);
    expect(context.customAttributes.lastLogin).toBe(firstAt);
    expect(context.customAttributes.lastLogin).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await idTokenClaims(cookie))["custom:lastLogin"]).toBe(firstAt);

    clock.advance(60_000);
    const wrong = await call(server.url, "/api/auth/sign-in/email", {
      email: account.email,
      password: `${account.password}x`,
    });
    expect(wrong.status).toBe(401);
    expect(await lastLoginAt()).toBe(firstAt);

    clock.advance(60_000);
    const secondAt = new Date(clock.now()).toISOString();
    const byName = await call(server.url, "/api/auth/sign-in/username", {
      username: account.username,
      password: account.password,
    });
    expect(byName.status).toBe(200);
    expect(await lastLoginAt()).toBe(secondAt);
    expect((await me(cookie)).customAttributes.lastLogin).toBe(secondAt);
  });
});
