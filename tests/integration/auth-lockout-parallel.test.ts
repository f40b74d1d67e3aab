/**
 * (Twenty and thirty password hashes, one or two at a time by design: these tests take a while.)
 *
 * Parallel sign-ins cannot get round the lockout (issue 10 point 3): every attempt is reserved in
 * the database before its password is checked, so a burst sent at one moment has no more
 * passwords checked than the limit allows, per account and per address, on every process; and
 * the password hashes of a burst are bounded so the rest of the server keeps answering.
 * The servers trust X-Forwarded-For (TRUST_PROXY=1) so each test is its own client address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCKOUT_MESSAGE, LOGIN_MAX_ATTEMPTS } from "../../core/index.ts";
import { HASH_CONCURRENCY, hashLimiter } from "../../server/auth/hash-limiter.ts";
import { ADDRESS_MAX_ATTEMPTS } from "../../server/auth/throttle.ts";
import { call, createConfirmedAccount, signInCookie, TestClock } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

type Attempt = { status: number; body: { code?: string; message?: string } | null };

async function attempt(url: string, email: string, password: string, address: string): Promise<Attempt> {
  const res = await call(
    url,
    "/api/auth/sign-in/email",
    { email, password },
    { headers: { "x-forwarded-for": address } },
  );
  return { status: res.status, body: await res.json().catch(() => null) };
}

const count = (results: Attempt[], status: number) => results.filter((r) => r.status === status).length;

function expectRefusedAsLocked(results: Attempt[]) {
  for (const r of results.filter((x) => x.status === 429)) {
    expect(r.body).toEqual({ code: "TOO_MANY_ATTEMPTS", message: LOCKOUT_MESSAGE });
  }
}

describe.each(DIALECTS)("parallel sign-ins and the lockout (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();

  beforeAll(async () => {
    server = await startTestServer(dialect, { TRUST_PROXY: "1" }, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("19 wrong passwords and the right one at the same moment: no more than five are checked", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "burst");
    const address = "203.0.113.10";
    const passwords = [...Array.from({ length: 19 }, (_, i) => `Wrong-${i}-Passw0rd!`), account.password];
    const results = await Promise.all(passwords.map((p) => attempt(server.url, account.email, p, address)));
    const right = results.at(-1)!;
    // Only answers from a checked password are 401 or 200; everything past the limit is refused unchecked.
    expect(count(results, 401) + count(results, 200)).toBeLessThanOrEqual(LOGIN_MAX_ATTEMPTS);
    expect(count(results, 429)).toBeGreaterThanOrEqual(20 - LOGIN_MAX_ATTEMPTS);
    expect(count(results, 401) + count(results, 200) + count(results, 429)).toBe(20);
    expectRefusedAsLocked(results);
    // The right password signs in only as one of the first five attempts, never past the lock.
    if (right.status === 200) expect(count(results, 401)).toBeLessThan(LOGIN_MAX_ATTEMPTS);
    else expect(right.status).toBe(429);
  });

  it("20 wrong passwords at once: exactly five are checked and the account ends locked", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "burst20");
    const address = "203.0.113.11";
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        attempt(server.url, account.email, `Wrong-${i}-Passw0rd!`, address),
      ),
    );
    expect(count(results, 401)).toBe(LOGIN_MAX_ATTEMPTS);
    expect(count(results, 429)).toBe(20 - LOGIN_MAX_ATTEMPTS);
    expectRefusedAsLocked(results);
    // Locked: the right password is refused, from this address and from another one.
    expect((await attempt(server.url, account.email, account.password, address)).status).toBe(429);
    expect((await attempt(server.url, account.email, account.password, "198.51.100.11")).status).toBe(429);
    const db = server.runtime.database.db;
    const user = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    const row = await db
      .selectFrom("login_throttle")
      .select("lockedUntil")
      .where("key", "=", `acct:${user.id}`)
      .executeTakeFirst();
    expect(Number(row?.lockedUntil)).toBeGreaterThan(clock.now());
  });

  it("the per-address counter locks after its maximum across many accounts in parallel", async () => {
    const address = "203.0.113.12";
    const burst = ADDRESS_MAX_ATTEMPTS + 10;
    const results = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        attempt(server.url, `spray${i}@example.test`, "Wrong-Passw0rd!", address),
      ),
    );
    expect(count(results, 401)).toBe(ADDRESS_MAX_ATTEMPTS);
    expect(count(results, 429)).toBe(10);
    expectRefusedAsLocked(results);
    // The address is locked for any further account, even a real one with its right password.
    const account = await createConfirmedAccount(server.url, server.dataDir, "sprayed");
    expect((await attempt(server.url, "spray-next@example.test", "Wrong-Passw0rd!", address)).status).toBe(
      429,
    );
    expect((await attempt(server.url, account.email, account.password, address)).status).toBe(429);
    // Another address is not affected.
    expect((await attempt(server.url, account.email, account.password, "198.51.100.12")).status).toBe(200);
  }, 180_000);

  it("wrong current passwords in settings count toward the lockout too, also sent in parallel", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "settings");
    const address = { "x-forwarded-for": "203.0.113.40" };
    const cookie = await signInCookie(server.url, account.email, account.password, address);
    const settings = (path: string, body: unknown) =>
      call(server.url, path, body, { cookie, headers: address }).then(async (res) => ({
        status: res.status,
        body: (await res.json().catch(() => null)) as Attempt["body"],
      }));
    // The right current password is not counted (its attempt is given back).
    const right = await settings("/api/auth/two-factor/enable", { password: account.password });
    expect(right.status).toBe(200);
    // Two wrong ones to enable two-factor, then eight wrong password changes at once.
    for (let i = 0; i < 2; i++) {
      const wrong = await settings("/api/auth/two-factor/enable", { password: `Wrong-${i}-Passw0rd!` });
      expect(wrong).toMatchObject({ status: 400, body: { code: "INVALID_PASSWORD" } });
    }
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        settings("/api/auth/change-password", {
          currentPassword: `Wrong-${i}-Passw0rd!`,
          newPassword: "Another-Str0ng-Passw0rd!",
        }),
      ),
    );
    // Only LOGIN_MAX_ATTEMPTS wrong passwords are ever checked; the rest are refused unchecked.
    expect(burst.filter((r) => r.status === 400)).toHaveLength(LOGIN_MAX_ATTEMPTS - 2);
    expect(count(burst, 429)).toBe(8 - (LOGIN_MAX_ATTEMPTS - 2));
    expectRefusedAsLocked(burst);
    // The account is locked for sign-in as for settings, even with the right password.
    expect((await attempt(server.url, account.email, account.password, "198.51.100.40")).status).toBe(429);
    expect(
      (
        await settings("/api/auth/change-password", {
          currentPassword: account.password,
          newPassword: "Another-Str0ng-Passw0rd!",
        })
      ).status,
    ).toBe(429);
  }, 180_000);

  it("30 parallel sign-ins: password hashes stay within the bound and /api/health answers meanwhile", async () => {
    hashLimiter.resetPeaks();
    const settled: Attempt[] = [];
    const burst = Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        attempt(server.url, `crowd${i}@example.test`, "Wrong-Passw0rd!", `192.0.2.${i + 1}`).then((r) => {
          settled.push(r);
          return r;
        }),
      ),
    );
    // Wait until the hashes queue up behind the bound, then ask for the health check.
    while (hashLimiter.stats().queued === 0 && settled.length < 30)
      await new Promise((r) => setTimeout(r, 5));
    const health = await fetch(`${server.url}/api/health`);
    const settledWhenHealthy = settled.length;
    expect(health.status).toBe(200);
    const results = await burst;
    expect(count(results, 401)).toBe(30);
    const stats = hashLimiter.stats();
    expect(stats.peakActive).toBeLessThanOrEqual(HASH_CONCURRENCY);
    expect(stats.peakQueued).toBeGreaterThan(0);
    expect(stats.refused).toBe(0);
    // The health check did not wait for the queue of hashes to drain.
    expect(settledWhenHealthy).toBeLessThan(30);
  }, 180_000);
});

describe.each(DIALECTS)(
  "a parallel burst split over two server processes on one database (%s)",
  (dialect) => {
    let a: TestServer;
    let b: TestServer;
    const clock = new TestClock();

    beforeAll(async () => {
      const secret = { AUTH_SECRET: "t".repeat(40), TRUST_PROXY: "1" };
      a = await startTestServer(dialect, secret, { now: clock.now });
      const shared = dialect === "sqlite" ? `${a.dataDir}/app.db` : a.runtime.env.DATABASE_URL!;
      b = await startTestServer(
        dialect,
        { ...secret, DATABASE_URL: shared, SEED_DEMO: "0" },
        { now: clock.now },
      );
    }, 120_000);
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it("20 wrong passwords sent at once to both processes: exactly five are checked, the account locks on both", async () => {
      const account = await createConfirmedAccount(a.url, a.dataDir, "split");
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          attempt(i % 2 === 0 ? a.url : b.url, account.email, `Wrong-${i}-Passw0rd!`, "203.0.113.20"),
        ),
      );
      expect(count(results, 401)).toBe(LOGIN_MAX_ATTEMPTS);
      expect(count(results, 429)).toBe(20 - LOGIN_MAX_ATTEMPTS);
      expectRefusedAsLocked(results);
      for (const server of [a, b]) {
        expect((await attempt(server.url, account.email, account.password, "198.51.100.20")).status).toBe(
          429,
        );
      }
    });
  },
);
