import { describe, expect, it } from "vitest";
import type { CounterStore } from "./counter-store.ts";
import { createRateLimiter, type RateRule } from "./rate-limiter.ts";

/** The shared table, in memory: what several processes' limiters see in the database. */
function memoryStore(): CounterStore & { rows: Map<string, number>; adds: number } {
  const rows = new Map<string, number>();
  const id = (key: string, w: number) => `${key}@${w}`;
  return {
    rows,
    adds: 0,
    async add(key, w, amount) {
      this.adds++;
      const total = (rows.get(id(key, w)) ?? 0) + amount;
      rows.set(id(key, w), total);
      return total;
    },
    async addWithin(key, w, amount, limit) {
      const current = rows.get(id(key, w)) ?? 0;
      if (current + amount > limit) return null;
      rows.set(id(key, w), current + amount);
      return current + amount;
    },
    async subtract(key, w, amount) {
      rows.set(id(key, w), (rows.get(id(key, w)) ?? 0) - amount);
    },
    async purge() {},
  };
}

const reads: RateRule = { name: "r", limit: 100, windowMs: 60_000, mode: "batched" };
const writes: RateRule = { name: "w", limit: 10, windowMs: 60_000, mode: "exact" };
const clock = { t: 1_800_000_000_000 - (1_800_000_000_000 % 60_000) };
const now = () => clock.t;

describe("rate limiter", () => {
  it("one process, batched: exactly the limit, then refusals with the seconds left in the window", async () => {
    const store = memoryStore();
    const limiter = createRateLimiter({ store, now });
    const verdicts = await Promise.all(
      Array.from({ length: 250 }, () => limiter.charge([{ rule: reads, subject: "u:1", cost: 1 }])),
    );
    expect(verdicts.filter((v) => v.ok)).toHaveLength(100);
    const refused = verdicts.find((v) => !v.ok);
    expect(refused).toMatchObject({ ok: false, retryAfterS: 60, rule: "r", limit: 100 });
    // Counted in batches, not one store write per request.
    expect(store.adds).toBeLessThanOrEqual(12);
  });

  it("several processes on one store: at most the limit plus each process's unsent share", async () => {
    const store = memoryStore();
    const processes = Array.from({ length: 4 }, () => createRateLimiter({ store, now }));
    let served = 0;
    for (let i = 0; i < 1000; i++) {
      const verdict = await processes[i % 4]!.charge([{ rule: reads, subject: "u:1", cost: 1 }]);
      if (verdict.ok) served++;
    }
    // Decision 014: ≤ limit + (processes + 1) × 10 % of the limit; at least the limit.
    expect(served).toBeGreaterThanOrEqual(100);
    expect(served).toBeLessThanOrEqual(100 + 5 * 10);
  });

  it("the same bound holds for a parallel burst split over two processes", async () => {
    const store = memoryStore();
    const [a, b] = [createRateLimiter({ store, now }), createRateLimiter({ store, now })];
    const verdicts = await Promise.all(
      Array.from({ length: 700 }, (_, i) =>
        (i % 2 ? a : b).charge([{ rule: reads, subject: "u:3", cost: 1 }]),
      ),
    );
    const served = verdicts.filter((v) => v.ok).length;
    expect(served).toBeGreaterThanOrEqual(100);
    expect(served).toBeLessThanOrEqual(100 + 3 * 10);
  });

  it("exact: writes across processes never pass the limit; a refusal gives back the other keys' units", async () => {
    const store = memoryStore();
    const [a, b] = [createRateLimiter({ store, now }), createRateLimiter({ store, now })];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).charge([
          { rule: { ...writes, name: "wa", limit: 1000 }, subject: "a:1", cost: 1 },
          { rule: writes, subject: "u:1", cost: 1 },
        ]),
      ),
    );
    expect(results.filter((v) => v.ok)).toHaveLength(10);
    expect(store.rows.get(`wa:a:1@${clock.t}`)).toBe(10);
  });

  it("a new window starts from zero; a GraphQL-sized cost is charged whole", async () => {
    const store = memoryStore();
    const limiter = createRateLimiter({ store, now });
    const cost: RateRule = { name: "q", limit: 3000, windowMs: 60_000, mode: "batched" };
    const charge = () => limiter.charge([{ rule: cost, subject: "u:1", cost: 909 }]);
    expect((await charge()).ok).toBe(true);
    expect((await charge()).ok).toBe(true);
    expect((await charge()).ok).toBe(true);
    expect((await charge()).ok).toBe(false);
    clock.t += 60_000;
    expect((await charge()).ok).toBe(true);
  });

  it("keeps serving when the store fails (the units stay pending)", async () => {
    const store = memoryStore();
    store.add = async () => {
      throw new Error("database down");
    };
    const errors: unknown[] = [];
    const limiter = createRateLimiter({ store, now, onError: (e) => errors.push(e) });
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, () => limiter.charge([{ rule: reads, subject: "u:2", cost: 1 }])),
    );
    expect(verdicts.every((v) => v.ok)).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
  });
});
