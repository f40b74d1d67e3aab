/** The lockout counters in the database: reservations are atomic, settle once, decay and lock. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOGIN_LOCKOUT_MS, LOGIN_MAX_ATTEMPTS } from "../../core/index.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../db/test-database.ts";
import { accountKey, addressKey, COUNT_WINDOW_MS, createLoginThrottle } from "./throttle.ts";

describe.each(testDialects())("login throttle on %s", (dialect) => {
  let t: TestDatabase;
  let clock = Date.now();
  let throttle: ReturnType<typeof createLoginThrottle>;
  let n = 0;
  const fresh = () => {
    n += 1;
    return accountKey(`user-${n}`);
  };

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    throttle = createLoginThrottle(t.db, () => clock);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("12 parallel reservations on one account: exactly five are granted; failing them locks it", async () => {
    const key = fresh();
    const results = await Promise.all(Array.from({ length: 12 }, () => throttle.reserve([key])));
    const granted = results.filter((r) => r.ok);
    expect(granted).toHaveLength(LOGIN_MAX_ATTEMPTS);
    for (const r of results.filter((x) => !x.ok)) {
      expect(r.ok === false && r.retryAfterS).toBeGreaterThan(0);
    }
    const locks = await Promise.all(granted.map(() => throttle.fail([key])));
    expect(locks.flat()).toEqual([key.key]); // exactly one request wins the lock
    expect(await throttle.check([key])).toEqual({ locked: true, retryAfterS: LOGIN_LOCKOUT_MS / 1000 });
    expect((await throttle.reserve([key])).ok).toBe(false);
    clock += LOGIN_LOCKOUT_MS + 1;
    expect((await throttle.reserve([key])).ok).toBe(true);
  });

  it("released reservations are given back; a refusal on one key takes nothing from the others", async () => {
    const key = fresh();
    const address = addressKey(`198.51.100.${n}`);
    for (let i = 0; i < LOGIN_MAX_ATTEMPTS; i++) {
      const r = await throttle.reserve([key, address]);
      expect(r.ok).toBe(true);
      if (r.ok) await throttle.release(r.keys);
    }
    for (let i = 0; i < LOGIN_MAX_ATTEMPTS; i++) expect((await throttle.reserve([key])).ok).toBe(true);
    // The account is full: the address reservation taken first is given back.
    expect((await throttle.reserve([address, key])).ok).toBe(false);
    const row = await t.db
      .selectFrom("login_throttle")
      .select("failures")
      .where("key", "=", address.key)
      .executeTakeFirstOrThrow();
    expect(Number(row.failures)).toBe(0);
  });

  it("counts older than the window no longer count; recordFailure counts and locks without a reservation", async () => {
    const key = fresh();
    for (let i = 0; i < LOGIN_MAX_ATTEMPTS - 1; i++) await throttle.recordFailure([key]);
    clock += COUNT_WINDOW_MS + 1;
    expect(await throttle.recordFailure([key])).toEqual([]);
    for (let i = 0; i < LOGIN_MAX_ATTEMPTS - 2; i++) expect(await throttle.recordFailure([key])).toEqual([]);
    expect(await throttle.recordFailure([key])).toEqual([key.key]);
    expect((await throttle.check([key])).locked).toBe(true);
  });
});
