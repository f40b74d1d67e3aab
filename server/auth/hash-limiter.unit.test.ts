import { describe, expect, it } from "vitest";
import { createHashLimiter, HASH_CONCURRENCY, HashBusyError } from "./hash-limiter.ts";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("hash limiter", () => {
  it("runs at most `concurrency` at once, queues the next ones in order and refuses beyond the queue", async () => {
    const limiter = createHashLimiter(2, 3);
    const gates = Array.from({ length: 5 }, deferred);
    const order: number[] = [];
    const runs = gates.map((gate, i) =>
      limiter.run(async () => {
        order.push(i);
        await gate.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(limiter.stats()).toMatchObject({ active: 2, queued: 3 });
    await expect(limiter.run(async () => 99)).rejects.toBeInstanceOf(HashBusyError);
    expect(limiter.stats().refused).toBe(1);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.stats()).toMatchObject({ active: 0, queued: 0, peakActive: 2, peakQueued: 3 });
  });

  it("frees the slot when the work fails", async () => {
    const limiter = createHashLimiter(1, 1);
    await expect(limiter.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await limiter.run(async () => "ok")).toBe("ok");
    expect(limiter.stats().active).toBe(0);
  });

  it("a refusal carries a Retry-After of at least one second; the process bound leaves pool threads free", () => {
    expect(new HashBusyError(1).retryAfterS).toBe(1);
    expect(HASH_CONCURRENCY).toBeGreaterThanOrEqual(1);
    expect(HASH_CONCURRENCY).toBeLessThanOrEqual(
      Math.max(1, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 2),
    );
  });
});
