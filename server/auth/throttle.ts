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
 * When a lock is set the counter restarts, so after the lock expires a wrong password answers as
 * any wrong password does.
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

export function createLoginThrottle(db: Kysely<DB>, now: () => number) {
  return {
    /** Whether any of the keys is locked now. */
    async check(keys: readonly ThrottleKey[]): Promise<LockState> {
      const t = now();
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
    },

    /** Counts a failure on each key; returns the keys that became locked by this failure. */
    async recordFailure(keys: readonly ThrottleKey[]): Promise<string[]> {
      const t = now();
      const lockedNow: string[] = [];
      for (const { key, max } of keys) {
        await db
          .insertInto("login_throttle")
          .values({ key, failures: 0, windowStart: t, lockedUntil: null, updatedAt: t })
          .onConflict((oc) => oc.column("key").doNothing())
          .execute();
        // Old failures no longer count.
        await db
          .updateTable("login_throttle")
          .set({ failures: 0, windowStart: t })
          .where("key", "=", key)
          .where("windowStart", "<", t - COUNT_WINDOW_MS)
          .execute();
        await db
          .updateTable("login_throttle")
          .set({ failures: sql`failures + 1`, updatedAt: t })
          .where("key", "=", key)
          .execute();
        // Exactly one process wins the transition to locked.
        const result = await db
          .updateTable("login_throttle")
          .set({ failures: 0, windowStart: t, lockedUntil: t + LOGIN_LOCKOUT_MS, updatedAt: t })
          .where("key", "=", key)
          .where("failures", ">=", max)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) lockedNow.push(key);
      }
      return lockedNow;
    },

    /** A successful sign-in clears the account's counter (not the address's). */
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
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
