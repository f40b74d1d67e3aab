/**
 * Sign-in lockout (spec §5, SECURITY.md §1–2), stored in the database so every server process
 * sees the same counters.
 *
 * - Per account (`acct:<userId>`, or `name:<identifier>` for an identifier that names no account,
 *   so unknown accounts lock exactly like real ones): LOGIN_MAX_ATTEMPTS (5) failures → locked for
 *   LOGIN_LOCKOUT_MS (5 min). A success resets it.
 * - Per client address (`ip:<normalised address>`): ADDRESS_MAX_ATTEMPTS failures across any
 *   accounts → the address is locked for LOGIN_LOCKOUT_MS. A success does not reset it (one valid
 *   account must not reset an attacker's budget); it decays after COUNT_WINDOW_MS.
 *
 * Attempts are reserved before the password is checked: `reserve` counts the attempt on every key
 * in one atomic statement per key (an upsert whose update only applies while the key is unlocked
 * and under its limit) and refuses once the limit is reached, so parallel requests (on any
 * process: the database is the only shared state) can never have more than `max` passwords
 * checked per key. The outcome then settles the reservation: `fail` keeps it counted and sets the
 * lock once the count reaches the limit; `release` gives it back (right password, or a request
 * that never reached the password check); a success also `reset`s the account counter.
 * When a lock is set the counter restarts, so after the lock expires a wrong password answers as
 * any wrong password does. A reservation whose process dies before settling counts as a failure
 * until it decays.
 */
import { type Kysely, sql } from "kysely";
import { LOGIN_LOCKOUT_MS, LOGIN_MAX_ATTEMPTS } from "../../core/index.ts";
import type { DB } from "../db/schema.ts";

/** Failures from one address across accounts before that address is locked. */
export const ADDRESS_MAX_ATTEMPTS = LOGIN_MAX_ATTEMPTS * 4;
/** Failures older than this no longer count. */
export const COUNT_WINDOW_MS = LOGIN_LOCKOUT_MS * 3;

export type ThrottleKey = { key: string; max: number };

export const accountKey = (userId: string): ThrottleKey => ({
  key: `acct:${userId}`,
  max: LOGIN_MAX_ATTEMPTS,
});
export const unknownAccountKey = (identifier: string): ThrottleKey => ({
  key: `name:${identifier.trim().toLowerCase()}`,
  max: LOGIN_MAX_ATTEMPTS,
});
export const addressKey = (ip: string): ThrottleKey => ({ key: `ip:${ip}`, max: ADDRESS_MAX_ATTEMPTS });

export interface LockState {
  locked: boolean;
  /** whole seconds until the longest lock ends */
  retryAfterS: number;
}

/** The outcome of `reserve`: either every key holds one more attempt, or none does. */
export type Reservation = { ok: true; keys: readonly ThrottleKey[] } | { ok: false; retryAfterS: number };

export function createLoginThrottle(db: Kysely<DB>, now: () => number) {
  const table = (column: string) => sql.ref(`login_throttle.${column}`);

  /** Counts one attempt on `key` unless it is locked or at its limit; true when counted. */
  async function reserveOne({ key, max }: ThrottleKey, t: number): Promise<boolean> {
    const cutoff = t - COUNT_WINDOW_MS;
    const stale = sql<boolean>`${table("windowStart")} < ${cutoff}`;
    const row = await db
      .insertInto("login_throttle")
      .values({ key, failures: 1, windowStart: t, lockedUntil: null, updatedAt: t })
      .onConflict((oc) =>
        oc
          .column("key")
          .doUpdateSet({
            // Old failures no longer count: the window restarts with this attempt.
            failures: sql`CASE WHEN ${stale} THEN 1 ELSE ${table("failures")} + 1 END`,
            windowStart: sql`CASE WHEN ${stale} THEN ${t} ELSE ${table("windowStart")} END`,
            updatedAt: t,
          })
          .where((eb) =>
            eb.and([
              eb.or([
                eb("login_throttle.lockedUntil", "is", null),
                eb("login_throttle.lockedUntil", "<=", t),
              ]),
              eb.or([eb("login_throttle.failures", "<", max), eb("login_throttle.windowStart", "<", cutoff)]),
            ]),
          ),
      )
      .returning("failures")
      .executeTakeFirst();
    return row !== undefined;
  }

  async function lockState(keys: readonly ThrottleKey[], t: number): Promise<LockState> {
    if (keys.length === 0) return { locked: false, retryAfterS: 0 };
    const rows = await db
      .selectFrom("login_throttle")
      .select(["key", "lockedUntil"])
      .where(
        "key",
        "in",
        keys.map((k) => k.key),
      )
      .execute();
    const until = Math.max(0, ...rows.map((r) => Number(r.lockedUntil ?? 0)));
    return until > t
      ? { locked: true, retryAfterS: Math.max(1, Math.ceil((until - t) / 1000)) }
      : { locked: false, retryAfterS: 0 };
  }

  async function release(keys: readonly ThrottleKey[]): Promise<void> {
    if (keys.length === 0) return;
    await db
      .updateTable("login_throttle")
      .set({ failures: sql`failures - 1` })
      .where(
        "key",
        "in",
        keys.map((k) => k.key),
      )
      .where("failures", ">", 0)
      .execute();
  }

  async function fail(keys: readonly ThrottleKey[]): Promise<string[]> {
    const t = now();
    const lockedNow: string[] = [];
    for (const { key, max } of keys) {
      const result = await db
        .updateTable("login_throttle")
        .set({ failures: 0, windowStart: t, lockedUntil: t + LOGIN_LOCKOUT_MS, updatedAt: t })
        .where("key", "=", key)
        .where("failures", ">=", max)
        .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<=", t)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) lockedNow.push(key);
    }
    return lockedNow;
  }

  return {
    /** Whether any of the keys is locked now (a read: it reserves nothing). */
    check(keys: readonly ThrottleKey[]): Promise<LockState> {
      return lockState(keys, now());
    },

    /**
     * Reserves one attempt on every key before the password is checked. Refused (and nothing
     * counted) when any key is locked or already holds `max` attempts, counting those in flight.
     */
    async reserve(keys: readonly ThrottleKey[]): Promise<Reservation> {
      const t = now();
      const held: ThrottleKey[] = [];
      for (const key of keys) {
        if (await reserveOne(key, t)) {
          held.push(key);
          continue;
        }
        await release(held);
        const state = await lockState([key], t);
        // At the limit with attempts still in flight: they will most likely end in a lock.
        return {
          ok: false,
          retryAfterS: state.locked ? state.retryAfterS : Math.ceil(LOGIN_LOCKOUT_MS / 1000),
        };
      }
      return { ok: true, keys: held };
    },

    /** Gives reserved attempts back (the password was right, or it was never checked). */
    release,

    /**
     * Keeps reserved attempts counted as failures and locks every key whose count reached its
     * limit; returns the keys that became locked now (exactly one request wins each lock).
     */
    fail,

    /**
     * Counts a failure that was not reserved first (each key, then the lock as in `fail`).
     * Prefer `reserve` + `fail` wherever a secret is checked: only a reservation bounds parallel tries.
     */
    async recordFailure(keys: readonly ThrottleKey[]): Promise<string[]> {
      const t = now();
      const cutoff = t - COUNT_WINDOW_MS;
      for (const { key } of keys) {
        const stale = sql<boolean>`${table("windowStart")} < ${cutoff}`;
        await db
          .insertInto("login_throttle")
          .values({ key, failures: 1, windowStart: t, lockedUntil: null, updatedAt: t })
          .onConflict((oc) =>
            oc.column("key").doUpdateSet({
              failures: sql`CASE WHEN ${stale} THEN 1 ELSE ${table("failures")} + 1 END`,
              windowStart: sql`CASE WHEN ${stale} THEN ${t} ELSE ${table("windowStart")} END`,
              updatedAt: t,
            }),
          )
          .execute();
      }
      return fail(keys);
    },

    /** A successful sign-in clears the account's counter (not the address's, nor a lock). */
    async reset(key: ThrottleKey): Promise<void> {
      await db
        .deleteFrom("login_throttle")
        .where("key", "=", key.key)
        .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<=", now())]))
        .execute();
    },

    /** Admin unlock: clears the account's counter and lock. */
    async unlockAccount(userId: string): Promise<boolean> {
      const result = await db
        .deleteFrom("login_throttle")
        .where("key", "=", accountKey(userId).key)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Admin clear of any throttle key (`acct:`, `name:` or `ip:`): removes its counter and lock.
     * True when the key had a row.
     */
    async clearKey(key: string): Promise<boolean> {
      const result = await db.deleteFrom("login_throttle").where("key", "=", key).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
