import { describe, expect, it } from "vitest";
import type { JobLeases } from "./job-lease.ts";
import { createJobRegistry } from "./job-registry.ts";
import { redactDatabaseUrl } from "./operations.service.ts";
import { createProcessMetrics } from "./process-metrics.ts";

describe("job registry", () => {
  it("records runs, durations, failures and the next run", async () => {
    let now = Date.parse("2026-11-24T10:00:00.000Z");
    const jobs = createJobRegistry(() => now);
    const track = jobs.register({ name: "sweep", label: "Sweep", intervalMs: 1000 });
    expect(jobs.snapshot()[0]).toMatchObject({ runs: 0, lastOutcome: null, lastStartedAt: null });
    expect(await track(async () => 42)).toBe(42);
    now += 5000;
    await expect(
      track(async () => {
        throw new Error("database is locked");
      }),
    ).rejects.toThrow("database is locked");
    const [job] = jobs.snapshot();
    expect(job).toMatchObject({
      runs: 2,
      failures: 1,
      consecutiveFailures: 1,
      lastOutcome: "error",
      lastError: "database is locked",
      lastStartedAt: "2026-11-24T10:00:05.000Z",
      nextRunAt: "2026-11-24T10:00:06.000Z",
    });
    await track(async () => null);
    expect(jobs.snapshot()[0]).toMatchObject({
      runs: 3,
      failures: 1,
      consecutiveFailures: 0,
      lastOutcome: "ok",
    });
  });

  it("counts a shared job's tick run by another process as skipped, not as a run", async () => {
    let holderRuns = true;
    const asked: Array<{ name: string; leaseMs: number; spacingMs?: number }> = [];
    const leases: JobLeases = {
      holder: "proc-a",
      async runExclusive(name, leaseMs, fn, options) {
        asked.push({ name, leaseMs, spacingMs: options?.spacingMs });
        if (!holderRuns) return { ran: false, holder: "proc-b" };
        return { ran: true, value: await fn({ freeAtEnd() {} }) };
      },
      list: async () => [],
    };
    const jobs = createJobRegistry(Date.now, { leases });
    const track = jobs.registerExclusive({
      name: "billing",
      label: "Billing",
      intervalMs: 1000,
      leaseMs: 30_000,
    });
    expect(await track(async () => "done")).toBe("done");
    holderRuns = false;
    let ranHere = false;
    expect(
      await track(async () => {
        ranHere = true;
      }),
    ).toBeUndefined();
    expect(ranHere).toBe(false);
    expect(jobs.snapshot()[0]).toMatchObject({ runs: 1, skipped: 1, exclusive: true, lastOutcome: "ok" });
    expect(asked).toEqual([
      { name: "billing", leaseMs: 30_000, spacingMs: 900 },
      { name: "billing", leaseMs: 30_000, spacingMs: 900 },
    ]);
    // Without leases (one process), a shared job is an ordinary one.
    const alone = createJobRegistry().registerExclusive({
      name: "x",
      label: "X",
      intervalMs: 1000,
      leaseMs: 1,
    });
    expect(await alone(async () => 7)).toBe(7);
  });

  it("gives one-off jobs no next run", async () => {
    const jobs = createJobRegistry();
    const track = jobs.register({ name: "index", label: "Index", intervalMs: null });
    await track(async () => undefined);
    expect(jobs.snapshot()[0]).toMatchObject({ runs: 1, nextRunAt: null });
  });
});

describe("process metrics", () => {
  it("counts requests of the last minute only", () => {
    let now = 1_000_000;
    const metrics = createProcessMetrics(() => now);
    try {
      for (let i = 0; i < 5; i++) metrics.countRequest();
      now += 30_000;
      metrics.countRequest();
      expect(metrics.requestsLastMinute()).toBe(6);
      now += 31_000;
      expect(metrics.requestsLastMinute()).toBe(1);
      now += 60_000;
      expect(metrics.requestsLastMinute()).toBe(0);
      expect(metrics.pageCache()).toEqual({ hits: 0, misses: 0 });
      metrics.attachPageCache(() => ({ hits: 3, misses: 1 }));
      expect(metrics.pageCache()).toEqual({ hits: 3, misses: 1 });
    } finally {
      metrics.stop();
    }
  });
});

describe("redactDatabaseUrl", () => {
  it("drops the password and options other than sslmode", () => {
    expect(
      redactDatabaseUrl("postgres://app:s3cret@db.internal:5432/hub?sslmode=require&options=-c%20x"),
    ).toBe("postgres://app@db.internal:5432/hub?sslmode=require");
    expect(redactDatabaseUrl("not a url")).not.toContain("not a url");
  });
});
