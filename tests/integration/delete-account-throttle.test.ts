/** Wrong passwords on account deletion count toward the same lockout as sign-in. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCKOUT_MESSAGE } from "../../core/index.ts";
import { call, createConfirmedAccount, signInCookie } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

describe.each(DIALECTS)("account deletion password throttle (%s)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("locks the account after five wrong passwords and keeps the account", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "deleter");
    const cookie = await signInCookie(server.url, account.email, account.password);
    for (let i = 0; i < 5; i++) {
      const res = await call(
        server.url,
        "/api/account/delete",
        { password: `Wrong-${i}-Passw0rd!`, confirm: "DELETE" },
        { cookie },
      );
      expect(res.status).toBe(400);
    }
    const locked = await call(
      server.url,
      "/api/account/delete",
      { password: account.password, confirm: "DELETE" },
      { cookie },
    );
    expect(locked.status).toBe(429);
    expect((await locked.json()).error.message).toBe(LOCKOUT_MESSAGE);
    const signIn = await call(server.url, "/api/auth/sign-in/email", {
      email: account.email,
      password: account.password,
    });
    expect(signIn.status).toBe(429);
    const still = await server.runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirst();
    expect(still).toBeDefined();
  });
});
