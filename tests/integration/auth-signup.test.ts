import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  cookiesOf,
  createConfirmedAccount,
  latestCode,
  mailsTo,
  newAccount,
  STRONG_PASSWORD,
  signInCookie,
  TestClock,
} from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const NOT_VERIFIED = {
  code: "EMAIL_NOT_VERIFIED",
  message: "Confirm your e-mail address before signing in. Enter the code we sent you at /auth/confirm.",
};

describe.each(DIALECTS)("sign-up, confirmation and password reset (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("sign-up → code by e-mail → confirm → sign-in; the new account is free/individual from rows", async () => {
    const account = newAccount("flow");
    const res = await call(server.url, "/api/auth/sign-up/email", {
      ...account,
      phoneNumber: "+14155550123",
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.token ?? null).toBeNull();
    const otp = await latestCode(server.dataDir, account.email);
    expect(otp).toMatch(/^\d{6}$/);

    const early = await call(server.url, "/api/auth/sign-in/email", {
      email: account.email,
      password: account.password,
    });
    expect(early.status).toBe(403);
    expect(await early.json()).toEqual(NOT_VERIFIED);
    const byName = await call(server.url, "/api/auth/sign-in/username", {
      username: account.username,
      password: account.password,
    });
    expect(byName.status).toBe(403);
    expect(await byName.json()).toEqual(NOT_VERIFIED);

    const wrong = await call(server.url, "/api/auth/email-otp/verify-email", {
      email: account.email,
      otp: otp === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    const verify = await call(server.url, "/api/auth/email-otp/verify-email", { email: account.email, otp });
    expect(verify.status).toBe(200);

    const signIn = await call(server.url, "/api/auth/sign-in/username", {
      username: account.username,
      password: account.password,
    });
    expect(signIn.status).toBe(200);
    const signInBody = await signIn.json();
    expect(signInBody.token).toBeUndefined();
    const cookie = signIn.headers.getSetCookie().join("\n");
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);

    const db = server.runtime.database.db;
    const user = await db
      .selectFrom("user")
      .selectAll()
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    expect(user.accountType).toBe("individual");
    expect(user.role).toBeNull();
    const groups = await db
      .selectFrom("user_group")
      .select("groupName")
      .where("userId", "=", user.id)
      .execute();
    expect(groups.map((g) => g.groupName)).toEqual(["individual-free"]);
    const subs = await db.selectFrom("user_subscription").selectAll().where("userId", "=", user.id).execute();
    expect(subs.map((s) => [s.tier, s.status])).toEqual([["free", "active"]]);
    const hash = await db
      .selectFrom("account")
      .select("password")
      .where("userId", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(hash.password).toMatch(/^scrypt\$17\$8\$1\$/);
  });

  it("sign-up with an existing e-mail answers like a new one; the owner gets a notice, not a code", async () => {
    const existing = await createConfirmedAccount(server.url, server.dataDir, "dup");
    const fresh = newAccount("fresh");
    const a = await call(server.url, "/api/auth/sign-up/email", {
      ...newAccount("x"),
      email: existing.email,
    });
    const b = await call(server.url, "/api/auth/sign-up/email", fresh);
    expect(a.status).toBe(b.status);
    const aBody = await a.json();
    const bBody = await b.json();
    expect(Object.keys(aBody).sort()).toEqual(Object.keys(bBody).sort());
    expect(Object.keys(aBody.user).sort()).toEqual(Object.keys(bBody.user).sort());
    expect(aBody.user.emailVerified).toBe(false);
    const mails = await mailsTo(server.dataDir, existing.email);
    expect(mails[0]).toMatch(/Someone tried to sign up/);
    expect(mails[0]).not.toMatch(/\b\d{6}\b(?![^\n]*Date)/);
    // The original account still signs in with its own password.
    await signInCookie(server.url, existing.email, existing.password);
  });

  it("validates every field on the server with a clear message per field", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ password: "short" }, "password", /at least 8 characters/],
      [{ password: "alllowercase1!" }, "password", /uppercase/],
      [{ password: "NoSymbols123" }, "password", /symbol/],
      [{ password: "x".repeat(257) }, "password", /at most 256/],
      [{ username: "ab" }, "username", /at least 3/],
      [{ username: "bad name!" }, "username", /letters, digits/],
      [{ email: "not-an-email" }, "email", /valid e-mail/],
      [{ name: "" }, "name", /Name is required/],
      [{ phoneNumber: "12345" }, "phoneNumber", /international format/],
    ];
    for (const [patch, field, message] of cases) {
      const res = await call(server.url, "/api/auth/sign-up/email", { ...newAccount("v"), ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("VALIDATION_ERROR");
      expect(body.fields[field]).toMatch(message);
    }
    const missing = await call(server.url, "/api/auth/sign-up/email", { password: STRONG_PASSWORD });
    expect(missing.status).toBe(400);
    expect(Object.keys((await missing.json()).fields).sort()).toEqual(["email", "name", "username"]);
  });

  it("accepts long passwords (64 and 256 characters)", async () => {
    for (const length of [64, 256]) {
      const password = `Aa1!${"x".repeat(length - 4)}`;
      const account = { ...newAccount("long"), password };
      const res = await call(server.url, "/api/auth/sign-up/email", account);
      expect(res.status).toBe(200);
      const otp = await latestCode(server.dataDir, account.email);
      await call(server.url, "/api/auth/email-otp/verify-email", { email: account.email, otp });
      await signInCookie(server.url, account.email, password);
    }
  });

  it("refuses role, tier, groups, emailVerified, accountType and isActive in the sign-up body", async () => {
    for (const field of ["role", "tier", "groups", "emailVerified", "accountType", "isActive"]) {
      const account = newAccount("mass");
      const value =
        field === "groups"
          ? ["app-owner"]
          : field === "emailVerified" || field === "isActive"
            ? true
            : "admin";
      const res = await call(server.url, "/api/auth/sign-up/email", { ...account, [field]: value });
      expect(res.status, field).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("FIELD_NOT_ALLOWED");
      expect(body.message).toContain(field);
      const user = await server.runtime.database.db
        .selectFrom("user")
        .select("id")
        .where("email", "=", account.email)
        .executeTakeFirst();
      expect(user).toBeUndefined();
    }
  });

  it("resending a code waits 60 s (429 with Retry-After and a clear message)", async () => {
    const account = newAccount("resend");
    await call(server.url, "/api/auth/sign-up/email", account);
    const first = await latestCode(server.dataDir, account.email);
    const again = await call(server.url, "/api/auth/email-otp/send-verification-otp", {
      email: account.email,
      type: "email-verification",
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = await again.json();
    expect(body.code).toBe("RESEND_COOLDOWN");
    expect(body.message).toMatch(/wait \d+ seconds/);

    clock.advance(61_000);
    const later = await call(server.url, "/api/auth/email-otp/send-verification-otp", {
      email: account.email,
      type: "email-verification",
    });
    expect(later.status).toBe(200);
    const second = await latestCode(server.dataDir, account.email);
    expect(second).toMatch(/^\d{6}$/);
    // The newest code confirms; the first is replaced.
    if (first !== second) {
      const old = await call(server.url, "/api/auth/email-otp/verify-email", {
        email: account.email,
        otp: first,
      });
      expect(old.status).toBe(400);
    }
    const ok = await call(server.url, "/api/auth/email-otp/verify-email", {
      email: account.email,
      otp: second,
    });
    expect(ok.status).toBe(200);
  });

  it("password reset by code: same answer for unknown e-mails, single use, revokes every session", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "reset");
    const cookie = await signInCookie(server.url, account.email, account.password);

    const unknown = await call(server.url, "/api/auth/email-otp/request-password-reset", {
      email: "nobody@example.test",
    });
    const known = await call(server.url, "/api/auth/email-otp/request-password-reset", {
      email: account.email,
    });
    expect(unknown.status).toBe(known.status);
    expect(await unknown.json()).toEqual(await known.json());
    const otp = await latestCode(server.dataDir, account.email);
    expect(otp).toMatch(/^\d{6}$/);

    const newPassword = "N3w-Passw0rd!";
    const reset = await call(server.url, "/api/auth/email-otp/reset-password", {
      email: account.email,
      otp,
      password: newPassword,
    });
    expect(reset.status).toBe(200);
    const reuse = await call(server.url, "/api/auth/email-otp/reset-password", {
      email: account.email,
      otp,
      password: "An0ther-Passw0rd!",
    });
    expect(reuse.status).toBe(400);

    const check = await call(server.url, "/api/account/security-check", undefined, { cookie });
    expect(check.status).toBe(401);
    const old = await call(server.url, "/api/auth/sign-in/email", {
      email: account.email,
      password: account.password,
    });
    expect(old.status).toBe(401);
    await signInCookie(server.url, account.email, newPassword);
  });

  it("a reset code expires", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "expire");
    clock.advance(61_000);
    await call(server.url, "/api/auth/email-otp/request-password-reset", { email: account.email });
    const otp = await latestCode(server.dataDir, account.email);
    const row = await server.runtime.database.db
      .selectFrom("verification")
      .select(["identifier", "expiresAt", "value"])
      .where("identifier", "like", "forget-password-%")
      .execute();
    expect(row.length).toBeGreaterThan(0);
    // Codes are stored hashed, never as sent.
    for (const r of row) expect(r.value).not.toContain(otp);
    for (const r of row) expect(new Date(r.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(600_000);
  });

  it("answers malformed and oversized bodies with 4xx and a clear message", async () => {
    const bad = await call(server.url, "/api/auth/sign-in/email", "{not json");
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/not valid JSON/);
    const array = await call(server.url, "/api/auth/sign-up/email", "[1,2]");
    expect(array.status).toBe(400);
    const big = await call(server.url, "/api/auth/sign-up/email", {
      ...newAccount("big"),
      name: "x".repeat(70_000),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).message).toMatch(/larger than 64 KB/);
    const wrongTypes = await call(server.url, "/api/auth/sign-in/email", { email: 42, password: ["x"] });
    expect(wrongTypes.status).toBeGreaterThanOrEqual(400);
    expect(wrongTypes.status).toBeLessThan(500);
    const empty = await call(server.url, "/api/auth/sign-in/username", {});
    expect(empty.status).toBeGreaterThanOrEqual(400);
    expect(empty.status).toBeLessThan(500);
    const bigAccount = await call(server.url, "/api/account/activity", "x".repeat(70_000));
    expect(bigAccount.status).toBe(413);
  });

  it("refuses state changes from an untrusted Origin", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "origin");
    const evil = { origin: "https://evil.example" };
    const signIn = await call(
      server.url,
      "/api/auth/sign-in/email",
      { email: account.email, password: account.password },
      evil,
    );
    expect(signIn.status).toBe(403);
    const cookie = await signInCookie(server.url, account.email, account.password);
    const revoke = await call(server.url, "/api/account/sessions/revoke-all", {}, { cookie, ...evil });
    expect(revoke.status).toBe(403);
    const noOrigin = await call(server.url, "/api/account/sessions/revoke-all", {}, { cookie, origin: null });
    expect(noOrigin.status).toBe(403);
    const change = await call(
      server.url,
      "/api/auth/change-password",
      { currentPassword: account.password, newPassword: "Changed-Passw0rd!" },
      { cookie, ...evil },
    );
    expect(change.status).toBe(403);
    // Still signed in: nothing changed.
    const check = await call(server.url, "/api/account/security-check", undefined, { cookie });
    expect(check.status).toBe(200);
    // GET changes nothing.
    const get = await call(server.url, "/api/account/sessions/revoke-all", undefined, { cookie });
    expect(get.status).toBe(404);
    expect((await call(server.url, "/api/account/security-check", undefined, { cookie })).status).toBe(200);
    expect(cookiesOf(signIn)).toBe("");
  });
});
