/**
 * One password policy on every path that sets a password (issue 10 point 2): sign-up, change and
 * reset refuse what the rules refuse and what the list of common passwords holds, with a clear
 * message on the field; the refused password never signs in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMON_PASSWORD_MESSAGE } from "../../core/index.ts";
import { call, createConfirmedAccount, latestCode, newAccount, signInCookie } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

describe.each(DIALECTS)("password policy on every path (%s)", (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const signInStatus = async (email: string, password: string) =>
    (await call(server.url, "/api/auth/sign-in/email", { email, password })).status;

  async function change(cookie: string, currentPassword: string, newPassword: string) {
    const res = await call(
      server.url,
      "/api/auth/change-password",
      { currentPassword, newPassword },
      { cookie },
    );
    return { status: res.status, body: await res.json() };
  }

  async function reset(email: string, password: string) {
    const asked = await call(server.url, "/api/auth/email-otp/request-password-reset", { email });
    expect(asked.status).toBe(200);
    const otp = await latestCode(server.dataDir, email);
    const res = await call(server.url, "/api/auth/email-otp/reset-password", { email, otp, password });
    return { status: res.status, body: await res.json(), otp };
  }

  it("change password refuses `alllowercase` with the rules it misses; it never signs in", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "chgweak");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const weak = await change(cookie, account.password, "alllowercase");
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({
      code: "WEAK_PASSWORD",
      message: "Password needs: an uppercase letter, a number, a symbol.",
      fields: { newPassword: "Password needs: an uppercase letter, a number, a symbol." },
    });
    expect(await signInStatus(account.email, "alllowercase")).toBe(401);
    expect(await signInStatus(account.email, account.password)).toBe(200);
  });

  it("reset refuses `alllowercase2`; the code still works for a good password", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "rstweak");
    const weak = await reset(account.email, "alllowercase2");
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({
      code: "WEAK_PASSWORD",
      message: "Password needs: an uppercase letter, a symbol.",
      fields: { password: "Password needs: an uppercase letter, a symbol." },
    });
    expect(await signInStatus(account.email, "alllowercase2")).toBe(401);
    // The refusal came before the code was checked: it is not used up.
    const good = await call(server.url, "/api/auth/email-otp/reset-password", {
      email: account.email,
      otp: weak.otp,
      password: "Fresh-Start-Passw0rd!",
    });
    expect(good.status).toBe(200);
    expect(await signInStatus(account.email, "Fresh-Start-Passw0rd!")).toBe(200);
  });

  it("a common password is refused on sign-up, change and reset with one clear message", async () => {
    const signUp = await call(server.url, "/api/auth/sign-up/email", {
      ...newAccount("common"),
      password: "Password123!",
    });
    expect(signUp.status).toBe(400);
    expect(await signUp.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      fields: { password: COMMON_PASSWORD_MESSAGE },
    });

    const account = await createConfirmedAccount(server.url, server.dataDir, "commonchg");
    const cookie = await signInCookie(server.url, account.email, account.password);
    for (const common of ["P@ssw0rd1", "Summer2024!", "Qwerty123!"]) {
      const refused = await change(cookie, account.password, common);
      expect(refused.status, common).toBe(400);
      expect(refused.body).toMatchObject({
        code: "WEAK_PASSWORD",
        fields: { newPassword: COMMON_PASSWORD_MESSAGE },
      });
    }
    const refusedReset = await reset(account.email, "Iloveyou1!");
    expect(refusedReset.status).toBe(400);
    expect(refusedReset.body).toMatchObject({
      code: "WEAK_PASSWORD",
      fields: { password: COMMON_PASSWORD_MESSAGE },
    });
    expect(await signInStatus(account.email, "Iloveyou1!")).toBe(401);
    expect(await signInStatus(account.email, "Summer2024!")).toBe(401);
  });

  it("a good password is accepted on sign-up, change and reset", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "good");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const changed = await change(cookie, account.password, "Granite-Otter-42!");
    expect(changed.status).toBe(200);
    expect(await signInStatus(account.email, "Granite-Otter-42!")).toBe(200);
    const again = await reset(account.email, "Velvet-Harbour-17?");
    expect(again.status).toBe(200);
    expect(await signInStatus(account.email, "Velvet-Harbour-17?")).toBe(200);
  });
});
