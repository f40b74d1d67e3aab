import { describe, expect, it } from "vitest";
import { createBoundedCache, stringBytes } from "./bounded-cache.ts";

describe("bounded cache", () => {
  const make = (maxEntries: number, maxBytes: number, ttlMs?: number, now?: () => number) =>
    createBoundedCache<string, string>({ maxEntries, maxBytes, sizeOf: stringBytes, ttlMs, now });

  it("drops the least recently used entry beyond its entry bound", () => {
    const cache = make(2, 1_000);
    cache.set("a", "1");
    cache.set("b", "2");
    expect(cache.get("a")).toBe("1"); // a is now the most recent
    cache.set("c", "3");
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe("1");
    expect(cache.get("c")).toBe("3");
    expect(cache.stats()).toMatchObject({ entries: 2, maxEntries: 2, evictions: 1, hits: 3, misses: 1 });
  });

  it("keeps its estimated bytes within the byte bound and refuses a value over a quarter of it", () => {
    const cache = make(100, 400);
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, "x".repeat(50)); // 100 bytes each
    expect(cache.stats().bytes).toBeLessThanOrEqual(400);
    expect(cache.size).toBe(4);
    expect(cache.get("k9")).toBeDefined();
    expect(cache.get("k0")).toBeUndefined();
    cache.set("huge", "x".repeat(51)); // 102 bytes > 400 / 4
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.stats().bytes).toBe(400);
  });

  it("replaces a key's value and its bytes, and forgets entries older than the ttl", () => {
    let t = 0;
    const cache = make(10, 1_000, 100, () => t);
    cache.set("a", "xx");
    cache.set("a", "x");
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 2 });
    t = 99;
    expect(cache.get("a")).toBe("x");
    t = 100;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
    cache.set("b", "y");
    cache.clear();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
