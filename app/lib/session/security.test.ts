import { describe, expect, it } from "vitest";
import { deviceLabel, interpretSecurityCheck, signedOutMessage, toEpochMs } from "./security.ts";

describe("signedOutMessage", () => {
  it("explains each reason in plain words", () => {
    expect(signedOutMessage("idle-timeout")).toBe("Your session expired after 30 minutes without activity.");
    expect(signedOutMessage("absolute-timeout")).toBe("Your session reached its 24-hour limit.");
    expect(signedOutMessage("device-mismatch")).toBe(
      "We signed you out because this session was used from a different device.",
    );
  });
  it("has a plain fallback for no-session and unknown reasons", () => {
    for (const r of ["no-session", "something-new", null, undefined]) {
      expect(signedOutMessage(r)).toBe("Your session has ended.");
    }
  });
});

describe("interpretSecurityCheck", () => {
  it("reads a passing check", () => {
    const session = {
      id: "s1",
      createdAt: "2026-11-01T10:00:00Z",
      expiresAt: 1,
      lastActiveAt: 1,
      rotatedAt: 1,
    };
    expect(interpretSecurityCheck(200, { ok: true, level: "high", session })).toEqual({
      kind: "ok",
      level: "high",
      session,
    });
    expect(interpretSecurityCheck(200, { ok: true, level: "extreme" })).toEqual({
      kind: "ok",
      level: null,
      session: null,
    });
  });
  it("reads a refused session with its reason", () => {
    expect(interpretSecurityCheck(401, { ok: false, reason: "idle-timeout" })).toEqual({
      kind: "signed-out",
      reason: "idle-timeout",
    });
    expect(interpretSecurityCheck(401, null)).toEqual({ kind: "signed-out", reason: "no-session" });
  });
  it("concludes nothing from other answers", () => {
    expect(interpretSecurityCheck(404, { error: { message: "Not found" } })).toEqual({
      kind: "unknown",
      status: 404,
    });
    expect(interpretSecurityCheck(500, null).kind).toBe("unknown");
    expect(interpretSecurityCheck(200, { ok: false }).kind).toBe("unknown");
  });
});

describe("deviceLabel", () => {
  const cases: Array<[string | null, string]> = [
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "Chrome on Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
      "Safari on macOS",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      "Safari on iPhone",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Linux"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
      "Headless Chrome on Linux",
    ],
    ["curl/8.5.0", "curl"],
    ["", "Unknown device"],
    [null, "Unknown device"],
    ["SomethingElse/1.0", "Unknown device"],
  ];
  for (const [ua, label] of cases) {
    it(`${label} ← ${String(ua).slice(0, 40)}`, () => expect(deviceLabel(ua)).toBe(label));
  }
});

describe("toEpochMs", () => {
  it("reads ISO strings and numbers", () => {
    expect(toEpochMs("2026-11-01T10:00:00.000Z")).toBe(Date.parse("2026-11-01T10:00:00.000Z"));
    expect(toEpochMs(5)).toBe(5);
    expect(toEpochMs("nope")).toBeNull();
    expect(toEpochMs(null)).toBeNull();
    expect(toEpochMs(Number.POSITIVE_INFINITY)).toBeNull();
  });
});
