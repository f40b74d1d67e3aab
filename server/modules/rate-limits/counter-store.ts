/**
 * The shared store of the API rate limits (decision 014): the `api_rate_limit` table, one row per
 * key and fixed window. Every server process on the same database adds to the same rows, with
 * single-statement upserts (atomic on SQLite and PostgreSQL).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";

export interface CounterStore {
  /** Adds `amount` to the key's counter for the window; the new total. */
  add(key: string, windowStart: number, amount: number): Promise<number>;
  /** Adds `amount` only if the total stays within `limit`; the new total, or null (refused). */
  addWithin(key: string, windowStart: number, amount: number, limit: number): Promise<number | null>;
  /** Gives back units (a refused request that was charged to another key first). */
  subtract(key: string, windowStart: number, amount: number): Promise<void>;
  /** Deletes the counters of windows that started before `before`. */
  purge(before: number): Promise<void>;
}

export function createDatabaseCounterStore(db: Kysely<DB>): CounterStore {
  return {
    async add(key, windowStart, amount) {
      const row = await db
        .insertInto("api_rate_limit")
        .values({ key, windowStart, count: amount })
        .onConflict((oc) =>
          oc.columns(["key", "windowStart"]).doUpdateSet((eb) => ({
            count: eb("api_rate_limit.count", "+", amount),
          })),
        )
        .returning("count")
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async addWithin(key, windowStart, amount, limit) {
      if (amount > limit) return null;
      const row = await db
        .insertInto("api_rate_limit")
        .values({ key, windowStart, count: amount })
        .onConflict((oc) =>
          oc
            .columns(["key", "windowStart"])
            .doUpdateSet((eb) => ({ count: eb("api_rate_limit.count", "+", amount) }))
            .where("api_rate_limit.count", "<=", limit - amount),
        )
        .returning("count")
        .executeTakeFirst();
      return row ? Number(row.count) : null;
    },

    async subtract(key, windowStart, amount) {
      await db
        .updateTable("api_rate_limit")
        .set((eb) => ({ count: eb("count", "-", amount) }))
        .where("key", "=", key)
        .where("windowStart", "=", windowStart)
        .execute();
    },

    async purge(before) {
      await db.deleteFrom("api_rate_limit").where("windowStart", "<", before).execute();
    },
  };
}
