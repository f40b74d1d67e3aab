/**
 * The rate-limit counters in Redis (decision 033), against a real Redis when TEST_REDIS_URL is
 * set (CI sets it): the same semantics as the database store, atomic under parallel charges, and
 * every counter expiring by itself.
 */
import { randomBytes } from "node:crypto";
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisCounterStore } from "./redis-counter-store.ts";

const url = process.env.TEST_REDIS_URL;

describe.skipIf(!url)("Redis rate-limit counters", () => {
  const client = createClient({ url });
  const prefix = `lumen-test-${randomBytes(4).toString("hex")}:`;
  const store = createRedisCounterStore(client, { ttlMs: 120_000, prefix });

  beforeAll(async () => {
    await client.connect();
  });
  afterAll(async () => {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(keys);
    await client.close();
  });

  it("adds, subtracts and keeps windows and keys apart", async () => {
    expect(await store.add("a", 1000, 3)).toBe(3);
    expect(await store.add("a", 1000, 2)).toBe(5);
    expect(await store.add("a", 61_000, 1)).toBe(1);
    expect(await store.add("b", 1000, 7)).toBe(7);
    await store.subtract("a", 1000, 2);
    expect(await store.add("a", 1000, 0)).toBe(3);
    // Subtracting from a counter that does not exist creates nothing.
    await store.subtract("nothing", 1000, 5);
    expect(await client.exists(`${prefix}rl:nothing:1000`)).toBe(0);
  });

  it("adds within a limit only, exactly the limit under 50 parallel charges", async () => {
    expect(await store.addWithin("w", 1000, 11, 10)).toBeNull();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.addWithin("w", 1000, 1, 10)));
    expect(results.filter((r) => r !== null)).toHaveLength(10);
    expect(results.filter((r) => r === null)).toHaveLength(40);
    expect(await store.addWithin("w", 1000, 1, 10)).toBeNull();
    expect(await store.add("w", 1000, 0)).toBe(10);
  });

  it("lets every counter expire by itself (two windows)", async () => {
    await store.add("ttl", 5000, 1);
    const ttl = await client.pTTL(`${prefix}rl:ttl:5000`);
    expect(ttl).toBeGreaterThan(100_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });
});
