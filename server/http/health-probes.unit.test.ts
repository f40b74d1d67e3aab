import { describe, expect, it } from "vitest";
import type { PingResult } from "../db/database.ts";
import { createReadiness, READY_DB_TIMEOUT_MS, READY_REUSE_MS } from "./health-probes.ts";

function fakePing(result: PingResult) {
  const calls: number[] = [];
  let release: (() => void) | undefined;
  let held = false;
  return {
    calls,
    hold() {
      held = true;
    },
    release() {
      held = false;
      release?.();
    },
    ping(timeoutMs: number) {
      calls.push(timeoutMs);
      if (!held) return Promise.resolve(result);
      return new Promise<PingResult>((resolve) => {
        release = () => resolve(result);
      });
    },
  };
}

describe("readiness", () => {
  it("is ready when the database answers, with a short timeout", async () => {
    const db = fakePing({ ok: true, latencyMs: 1.5 });
    const ready = createReadiness({ draining: () => false, ping: db.ping });
    expect(await ready()).toEqual({ status: "ready", db: { latencyMs: 1.5 } });
    expect(db.calls).toEqual([READY_DB_TIMEOUT_MS]);
  });

  it("names the database when it does not answer", async () => {
    const db = fakePing({ ok: false, latencyMs: 1000, error: "no answer within 1000 ms" });
    const ready = createReadiness({ draining: () => false, ping: db.ping });
    expect(await ready()).toEqual({
      status: "unavailable",
      reason: "database",
      message: "The database did not answer: no answer within 1000 ms",
    });
  });

  it("fails at once while draining, without asking the database", async () => {
    const db = fakePing({ ok: true, latencyMs: 1 });
    const ready = createReadiness({ draining: () => true, ping: db.ping });
    expect(await ready()).toMatchObject({ status: "unavailable", reason: "draining" });
    expect(db.calls).toEqual([]);
  });

  it("reports draining when the drain began while the database was asked", async () => {
    const db = fakePing({ ok: true, latencyMs: 1 });
    let draining = false;
    db.hold();
    const ready = createReadiness({ draining: () => draining, ping: db.ping });
    const answer = ready();
    draining = true;
    db.release();
    expect(await answer).toMatchObject({ status: "unavailable", reason: "draining" });
  });

  it("shares one round trip among probes arriving together and reuses it briefly", async () => {
    let now = 1_000_000;
    const db = fakePing({ ok: true, latencyMs: 1 });
    db.hold();
    const ready = createReadiness({ draining: () => false, ping: db.ping, now: () => now });
    const together = [ready(), ready(), ready()];
    db.release();
    for (const answer of await Promise.all(together)) expect(answer.status).toBe("ready");
    expect(db.calls).toHaveLength(1);

    now += READY_REUSE_MS - 1;
    await ready();
    expect(db.calls).toHaveLength(1);
    now += 1;
    await ready();
    expect(db.calls).toHaveLength(2);
  });
});
