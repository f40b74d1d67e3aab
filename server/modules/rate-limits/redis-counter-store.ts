/**
 * The rate-limit counters in Redis (decision 033), used instead of the `api_rate_limit` table when
 * REDIS_URL is set: one key per counter and window (`<prefix>rl:<key>:<window start>`), changed by
 * short Lua scripts so each step is atomic on the Redis server whatever the number of processes,
 * and expiring by itself two windows later (no purge pass). Semantics are those of the database
 * store (`counter-store.ts`): `addWithin` adds only while the total stays within the limit.
 */
import type { RedisClientType } from "@redis/client";
import type { CounterStore } from "./counter-store.ts";

const ADD = `local v = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return v`;

const ADD_WITHIN = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c + tonumber(ARGV[1]) > tonumber(ARGV[3]) then return -1 end
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return v`;

const SUBTRACT = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECRBY', KEYS[1], ARGV[1]) end
return 0`;

export interface RedisCounterStoreOptions {
  /** How long a window's counter lives (two rate-limit windows). */
  ttlMs: number;
  /** Key prefix, so several hubs can share one Redis. Default "lumen:". */
  prefix?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: any module/script shape of the node-redis client
type AnyRedisClient = RedisClientType<any, any, any, any, any>;

export function createRedisCounterStore(
  client: AnyRedisClient,
  options: RedisCounterStoreOptions,
): CounterStore {
  const prefix = options.prefix ?? "lumen:";
  const ttl = String(Math.max(1000, Math.round(options.ttlMs)));
  const keyOf = (key: string, windowStart: number) => `${prefix}rl:${key}:${windowStart}`;
  const run = (script: string, key: string, args: Array<string | number>) =>
    client.sendCommand<number>(["EVAL", script, "1", key, ...args.map(String)]);
  return {
    async add(key, windowStart, amount) {
      return Number(await run(ADD, keyOf(key, windowStart), [amount, ttl]));
    },
    async addWithin(key, windowStart, amount, limit) {
      if (amount > limit) return null;
      const total = Number(await run(ADD_WITHIN, keyOf(key, windowStart), [amount, ttl, limit]));
      return total < 0 ? null : total;
    },
    async subtract(key, windowStart, amount) {
      await run(SUBTRACT, keyOf(key, windowStart), [amount]);
    },
    async purge() {
      // Keys expire by themselves.
    },
  };
}
