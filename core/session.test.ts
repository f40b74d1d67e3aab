import { describe, expect, it } from "vitest";
import { evaluateSession, isRecentlyActive, newSessionInfo } from "./session.ts";

const H = 3_600_000;
const M = 60_000;
const t0 = 1_700_000_000_000;

describe("evaluateSession", () => {
  const base = { issuedAt: t0, lastActivityAt: t0, fingerprintMatches: true };

  it("passes a fresh session", () => {
    expect(evaluateSession({ ...base, now: t0 + M })).toEqual({ ok: true, rotate: false });
  });

  it("fails on a device-fingerprint mismatch first", () => {
    expect(evaluateSession({ ...base, now: t0 + 48 * H, fingerprintMatches: false })).toEqual({
      ok: false,
      reason: "device-mismatch",
    });
  });

  it("fails at 24 h since sign-in however active", () => {
    expect(evaluateSession({ ...base, lastActivityAt: t0 + 24 * H - 1, now: t0 + 24 * H - 1 }).ok).toBe(true);
    expect(evaluateSession({ ...base, lastActivityAt: t0 + 24 * H, now: t0 + 24 * H })).toEqual({
      ok: false,
      reason: "absolute-timeout",
    });
  });

  it("fails after 30 minutes idle", () => {
    expect(evaluateSession({ ...base, now: t0 + 30 * M - 1 }).ok).toBe(true);
    expect(evaluateSession({ ...base, now: t0 + 30 * M })).toEqual({ ok: false, reason: "idle-timeout" });
  });

  it("asks for rotation after 6 h", () => {
    const active = (now: number) => ({ ...base, lastActivityAt: now - M, now });
    expect(evaluateSession(active(t0 + 6 * H - 1))).toEqual({ ok: true, rotate: false });
    expect(evaluateSession(active(t0 + 6 * H))).toEqual({ ok: true, rotate: true });
    expect(evaluateSession({ ...active(t0 + 7 * H), lastRotatedAt: t0 + 6 * H })).toEqual({
      ok: true,
      rotate: false,
    });
  });

  it("honours custom time-outs and fails closed on bad timestamps", () => {
    expect(evaluateSession({ ...base, now: t0 + 2 * M, idleTimeoutMs: M }).ok).toBe(false);
    expect(evaluateSession({ ...base, now: t0 + 2 * M, absoluteTimeoutMs: M })).toEqual({
      ok: false,
      reason: "absolute-timeout",
    });
    expect(evaluateSession({ ...base, issuedAt: Number.NaN, now: t0 }).ok).toBe(false);
    expect(evaluateSession({ ...base, lastActivityAt: Number.NaN, now: t0 }).ok).toBe(false);
  });
});

describe("isRecentlyActive", () => {
  it("is true within 5 minutes", () => {
    expect(isRecentlyActive(t0, t0)).toBe(true);
    expect(isRecentlyActive(t0, t0 + 5 * M - 1)).toBe(true);
    expect(isRecentlyActive(t0, t0 + 5 * M)).toBe(false);
    expect(isRecentlyActive(t0 + M, t0)).toBe(false);
    expect(isRecentlyActive(null, t0)).toBe(false);
    expect(isRecentlyActive(undefined, t0)).toBe(false);
  });
});

describe("newSessionInfo", () => {
  it("uses the spec's time-outs", () => {
    expect(newSessionInfo("s1", t0)).toEqual({
      sessionId: "s1",
      issuedAt: t0,
      expiresAt: t0 + 24 * H,
      idleTimeoutMs: 30 * M,
      absoluteTimeoutMs: 24 * H,
      lastRotatedAt: t0,
      rotationIntervalMs: 6 * H,
    });
  });
});
