/** /auth/confirm takes "e-mail or username + 6-digit code": the code endpoints accept a username. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, latestCode, newAccount, signInCookie } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

describe.each(DIALECTS)("confirmation by username (%s)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("confirms an account with its username and the e-mailed code", async () => {
    const account = newAccount("byname");
    expect((await call(server.url, "/api/auth/sign-up/email", account)).status).toBe(200);
    const otp = await latestCode(server.dataDir, account.email);
    expect(otp).toMatch(/^\d{6}$/);
    const wrong = await call(server.url, "/api/auth/email-otp/verify-email", {
      username: account.username,
      otp: otp === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    const ok = await call(server.url, "/api/auth/email-otp/verify-email", {
      username: account.username,
      otp,
    });
    expect(ok.status).toBe(200);
    expect(await signInCookie(server.url, account.email, account.password)).toContain("session_token");
  });

  it("answers an unknown username like an unknown e-mail address", async () => {
    const byName = await call(server.url, "/api/auth/email-otp/verify-email", {
      username: "nobody-here",
      otp: "123456",
    });
    const byEmail = await call(server.url, "/api/auth/email-otp/verify-email", {
      email: "nobody-here@example.test",
      otp: "123456",
    });
    expect(byName.status).toBe(byEmail.status);
    expect((await byName.json()).code).toBe((await byEmail.json()).code);
  });
});
