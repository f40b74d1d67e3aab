import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCKOUT_MESSAGE, LOGIN_LOCKOUT_MS } from "../../core/index.ts";
import { COUNT_WINDOW_MS } from "../../server/auth/throttle.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { call, createConfirmedAccount, signInCookie, TestClock } from "../helpers/auth.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const INVALID = { code: "INVALID_CREDENTIALS", message: "Invalid e-mail, username or password." };

async function attempt(
  url: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
  path = "/api/auth/sign-in/email",
) {
  const res = await call(url, path, { email, password }, { headers });
  return {
    status: res.status,
    body: await res.json().catch(() => null),
    retryAfter: res.headers.get("retry-after"),
  };
}

describe.each(DIALECTS)("sign-in failures and lockout (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();
  /** Lets every counter of earlier tests (account and address) expire. */
  const ageOut = () => clock.advance(COUNT_WINDOW_MS + LOGIN_LOCKOUT_MS + 1000);

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("an unknown account and a wrong password answer the same, by e-mail and by username", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "same");
    const wrong = await attempt(server.url, account.email, "Wrong-Passw0rd!");
    const unknown = await attempt(server.url, "nobody-here@example.test", "Wrong-Passw0rd!");
    expect(wrong).toEqual({ status: 401, body: INVALID, retryAfter: null });
    expect(unknown).toEqual(wrong);
    const byName = await call(server.url, "/api/auth/sign-in/username", {
      username: account.username,
      password: "x-Wrong-1!",
    });
    const byUnknownName = await call(server.url, "/api/auth/sign-in/username", {
      username: "nobodyhere",
      password: "x-Wrong-1!",
    });
    expect(byName.status).toBe(401);
    expect(await byName.json()).toEqual(INVALID);
    expect(byUnknownName.status).toBe(401);
    expect(await byUnknownName.json()).toEqual(INVALID);
    // Similar timing: an unknown account still pays for a password hash.
    const t0 = performance.now();
    await attempt(server.url, account.email, "Wrong-Passw0rd!");
    const tWrong = performance.now() - t0;
    const t1 = performance.now();
    await attempt(server.url, "nobody-else@example.test", "Wrong-Passw0rd!");
    const tUnknown = performance.now() - t1;
    expect(tUnknown).toBeGreaterThan(tWrong * 0.4);
    ageOut();
  });

  it("5 failures lock the account for 5 minutes; the 6th answer is 429 with the lockout message", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "lock");
    for (let i = 0; i < 5; i++) {
      expect((await attempt(server.url, account.email, `Wrong-${i}-Passw0rd!`)).status).toBe(401);
    }
    const sixth = await attempt(server.url, account.email, "Wrong-6-Passw0rd!");
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ code: "TOO_MANY_ATTEMPTS", message: LOCKOUT_MESSAGE });
    expect(Number(sixth.retryAfter)).toBeGreaterThan(0);
    expect(Number(sixth.retryAfter)).toBeLessThanOrEqual(300);
    // Even the right password is refused while locked, by e-mail and by username.
    expect((await attempt(server.url, account.email, account.password)).status).toBe(429);
    const byName = await call(server.url, "/api/auth/sign-in/username", {
      username: account.username,
      password: account.password,
    });
    expect(byName.status).toBe(429);
    // An unknown account locks the same way.
    for (let i = 0; i < 5; i++) await attempt(server.url, "ghost@example.test", "Wrong-Passw0rd!");
    const ghost = await attempt(server.url, "ghost@example.test", "Wrong-Passw0rd!");
    expect(ghost.status).toBe(429);
    expect(ghost.body).toEqual(sixth.body);

    const audit = await server.runtime.database.db
      .selectFrom("audit_log")
      .select(["action", "actorId", "ip"])
      .where("action", "=", "lockout")
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(1);

    clock.advance(LOGIN_LOCKOUT_MS + 1000);
    // Once unlocked, a wrong password answers like any wrong password.
    expect(await attempt(server.url, account.email, "Wrong-Passw0rd!")).toEqual({
      status: 401,
      body: INVALID,
      retryAfter: null,
    });
    await signInCookie(server.url, account.email, account.password);
    ageOut();
  });

  it("a success resets the count", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "reset");
    for (let i = 0; i < 4; i++) await attempt(server.url, account.email, "Wrong-Passw0rd!");
    await signInCookie(server.url, account.email, account.password);
    for (let i = 0; i < 4; i++) {
      expect((await attempt(server.url, account.email, "Wrong-Passw0rd!")).status).toBe(401);
    }
    await signInCookie(server.url, account.email, account.password);
    ageOut();
  });

  it("spoofed X-Forwarded-For, path variants and username sign-in do not reset the count", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "spoof");
    const variants: [Record<string, string>, string][] = [
      [{ "x-forwarded-for": "203.0.113.1" }, "/api/auth/sign-in/email"],
      [
        { "x-forwarded-for": "203.0.113.2, 198.51.100.7", "x-real-ip": "198.51.100.8" },
        "/api/auth/sign-in/email",
      ],
      [{ "x-lumen-client-ip": "::ffff:10.9.8.7" }, "/api/auth/sign-in/email"],
      [{}, "//api/auth/sign-in/email"],
      [{}, "/api/auth//sign-in/email"],
    ];
    for (const [headers, path] of variants) {
      const res = await attempt(server.url, account.email, "Wrong-Passw0rd!", headers, path);
      expect(res.status).not.toBe(200);
      expect(res.status).toBeLessThan(500);
    }
    await call(server.url, "/api/auth/sign-in/username", {
      username: account.username,
      password: "Wrong-Passw0rd!",
    });
    // The fifth failure (if a path variant did not already count as one).
    expect([401, 429]).toContain((await attempt(server.url, account.email, "Wrong-Passw0rd!")).status);
    // However the earlier attempts were spelled, five failed; the next is locked.
    const next = await attempt(server.url, account.email, account.password, {
      "x-forwarded-for": "192.0.2.99",
    });
    expect(next.status).toBe(429);
    expect(next.body.message).toBe(LOCKOUT_MESSAGE);
    ageOut();
  });

  it("an admin can unlock an account; a non-admin cannot", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "unlock");
    for (let i = 0; i < 5; i++) await attempt(server.url, account.email, "Wrong-Passw0rd!");
    expect((await attempt(server.url, account.email, account.password)).status).toBe(429);
    const user = await server.runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();

    const anonymous = await call(server.url, `/api/admin/users/${user.id}/unlock`, {});
    expect(anonymous.status).toBe(401);
    const freeCookie = await signIn(server.url, "free@demo.local", DEMO_PASSWORD);
    const refused = await call(server.url, `/api/admin/users/${user.id}/unlock`, {}, { cookie: freeCookie });
    expect(refused.status).toBe(403);
    expect((await attempt(server.url, account.email, account.password)).status).toBe(429);
    // An organisation admin holds Admin (spec §6) but reaches only its own organisation's members.
    const orgAdminCookie = await signIn(server.url, "business@demo.local", DEMO_PASSWORD);
    const outsider = await call(
      server.url,
      `/api/admin/users/${user.id}/unlock`,
      {},
      { cookie: orgAdminCookie },
    );
    expect(outsider.status).toBe(404);
    expect((await attempt(server.url, account.email, account.password)).status).toBe(429);

    const adminCookie = await signIn(server.url, "admin@demo.local", DEMO_PASSWORD);
    const missing = await call(
      server.url,
      "/api/admin/users/no-such-user/unlock",
      {},
      { cookie: adminCookie },
    );
    expect(missing.status).toBe(404);
    const ok = await call(server.url, `/api/admin/users/${user.id}/unlock`, {}, { cookie: adminCookie });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, userId: user.id, unlocked: true });
    await signInCookie(server.url, account.email, account.password);

    const rows = await server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "admin_unlock")
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.targetId).toBe(user.id);
    expect(rows[0]!.ip).toBe("127.0.0.1");
  });
});

describe("lockout shared by two server processes on one SQLite file, IPv6 spellings of one address", () => {
  let a: TestServer;
  let b: TestServer;
  const clock = new TestClock();

  beforeAll(async () => {
    // A listens on :: (the client 127.0.0.1 arrives as ::ffff:127.0.0.1), B on 127.0.0.1.
    a = await startTestServer(
      "sqlite",
      { HOST: "::", PUBLIC_URL: "http://127.0.0.1", AUTH_SECRET: "s".repeat(40) },
      { now: clock.now },
    );
    a.url = `http://127.0.0.1:${a.port}`;
    b = await startTestServer(
      "sqlite",
      { DATABASE_URL: `${a.dataDir}/app.db`, SEED_DEMO: "0", AUTH_SECRET: "s".repeat(40) },
      { now: clock.now },
    );
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("failures on either process count against the same account", async () => {
    const account = await createConfirmedAccount(a.url, a.dataDir, "two");
    for (let i = 0; i < 3; i++)
      expect((await attempt(a.url, account.email, "Wrong-Passw0rd!")).status).toBe(401);
    for (let i = 0; i < 2; i++)
      expect((await attempt(b.url, account.email, "Wrong-Passw0rd!")).status).toBe(401);
    expect((await attempt(a.url, account.email, account.password)).status).toBe(429);
    expect((await attempt(b.url, account.email, account.password)).status).toBe(429);
  });

  it("the per-address counter sees ::ffff:127.0.0.1 and 127.0.0.1 as one address", async () => {
    clock.advance(LOGIN_LOCKOUT_MS * 3 + 1000);
    // 20 failures on 20 different (unknown) accounts, split over the two spellings.
    for (let i = 0; i < 20; i++) {
      const server = i % 2 === 0 ? a : b;
      expect((await attempt(server.url, `spray${i}@example.test`, "Wrong-Passw0rd!")).status).toBe(401);
    }
    const next = await attempt(b.url, "spray-next@example.test", "Wrong-Passw0rd!");
    expect(next.status).toBe(429);
    expect(next.body.message).toBe(LOCKOUT_MESSAGE);
    expect((await attempt(a.url, "spray-next2@example.test", "Wrong-Passw0rd!")).status).toBe(429);
    const ips = await a.runtime.database.db
      .selectFrom("audit_log")
      .select("ip")
      .where("action", "=", "sign_in_failure")
      .execute();
    expect(new Set(ips.map((r) => r.ip))).toEqual(new Set(["127.0.0.1"]));
    clock.advance(LOGIN_LOCKOUT_MS + 1000);
  });
});

describe.runIf(DIALECTS.includes("postgres"))(
  "lockout shared by two server processes on one PostgreSQL database",
  () => {
    let a: TestServer;
    let b: TestServer;
    const clock = new TestClock();

    beforeAll(async () => {
      a = await startTestServer("postgres", { AUTH_SECRET: "p".repeat(40) }, { now: clock.now });
      const url = a.runtime.env.DATABASE_URL!;
      b = await startTestServer(
        "postgres",
        { DATABASE_URL: url, SEED_DEMO: "0", AUTH_SECRET: "p".repeat(40) },
        { now: clock.now },
      );
    }, 120_000);
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it("five failures spread over both processes lock the account on both", async () => {
      const account = await createConfirmedAccount(a.url, a.dataDir, "pgtwo");
      for (let i = 0; i < 5; i++) {
        const server = i % 2 === 0 ? a : b;
        expect((await attempt(server.url, account.email, "Wrong-Passw0rd!")).status).toBe(401);
      }
      for (const server of [a, b]) {
        const res = await attempt(server.url, account.email, account.password);
        expect(res.status).toBe(429);
        expect(res.body).toEqual({ code: "TOO_MANY_ATTEMPTS", message: LOCKOUT_MESSAGE });
      }
      clock.advance(LOGIN_LOCKOUT_MS + 1000);
      await signInCookie(b.url, account.email, account.password);
    });
  },
);
