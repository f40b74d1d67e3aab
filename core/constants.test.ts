import { describe, expect, it } from "vitest";
import {
  checkPassword,
  DEBUG_CONSOLE_MAX_ERRORS,
  DEBUG_CONSOLE_WINDOW_MS,
  DEFAULT_THEME,
  LOCKDOWN_MAX_RETRIES,
  LOCKOUT_MESSAGE,
  LOGIN_LOCKOUT_MS,
  LOGIN_MAX_ATTEMPTS,
  lockdownRetryDelay,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULE_TEXT,
  PRESIGN_DEFAULT_EXPIRY_S,
  PRESIGN_MAX_EXPIRY_S,
  PresignExpiryLimitError,
  parseTheme,
  QUERY_RETRIES,
  queryRetryDelay,
  RECENT_ACTIVITY_MS,
  resolvePresignExpiry,
  SECURITY_CHECK_INTERVAL_MS,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  SESSION_STORAGE_KEYS,
  SESSION_STORAGE_PREFIX,
  SHORT_USER_ID_LENGTH,
  sessionStorageKey,
  THEME_STORAGE_KEY,
  TOAST_DURATION_MS,
  TOAST_LIMIT,
  TOAST_WIDTH_PX,
  TOKEN_ROTATION_MS,
} from "./constants.ts";

describe("spec §9 constants", () => {
  it("sessions and tokens", () => {
    expect(SESSION_ABSOLUTE_MS).toBe(24 * 60 * 60 * 1000);
    expect(SESSION_IDLE_MS).toBe(30 * 60 * 1000);
    expect(TOKEN_ROTATION_MS).toBe(6 * 60 * 60 * 1000);
    expect(SECURITY_CHECK_INTERVAL_MS).toBe(5 * 60 * 1000);
    expect(RECENT_ACTIVITY_MS).toBe(5 * 60 * 1000);
  });

  it("lockout", () => {
    expect(LOGIN_MAX_ATTEMPTS).toBe(5);
    expect(LOGIN_LOCKOUT_MS).toBe(5 * 60 * 1000);
    expect(LOCKOUT_MESSAGE).toBe("Too many login attempts. Please try again later.");
  });

  it("storage, toasts, presign, debug console, overlay", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(PRESIGN_DEFAULT_EXPIRY_S).toBe(3600);
    expect(PRESIGN_MAX_EXPIRY_S).toBe(7 * 24 * 3600);
    expect(QUERY_RETRIES).toBe(3);
    expect([TOAST_LIMIT, TOAST_DURATION_MS, TOAST_WIDTH_PX]).toEqual([3, 4000, 356]);
    expect(SESSION_STORAGE_PREFIX).toBe("lumen.auth.");
    expect(SESSION_STORAGE_KEYS).toEqual([
      "user_context",
      "security_context",
      "token_cache",
      "auth_metrics",
      "remember_session",
    ]);
    expect(sessionStorageKey("token_cache")).toBe("lumen.auth.token_cache");
    expect(THEME_STORAGE_KEY).toBe("lumen.theme");
    expect(DEFAULT_THEME).toBe("system");
    expect(LOCKDOWN_MAX_RETRIES).toBe(3);
    expect(DEBUG_CONSOLE_MAX_ERRORS).toBe(5);
    expect(DEBUG_CONSOLE_WINDOW_MS).toBe(1000);
    expect(SHORT_USER_ID_LENGTH).toBe(8);
  });

  it("parseTheme falls back to system", () => {
    expect(parseTheme("dark")).toBe("dark");
    expect(parseTheme("light")).toBe("light");
    expect(parseTheme("system")).toBe("system");
    expect(parseTheme("blue")).toBe("system");
    expect(parseTheme(null)).toBe("system");
  });
});

describe("retry delays", () => {
  it.each([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [3, 8000],
    [4, 16000],
    [5, 30000],
    [10, 30000],
    [-1, 1000],
    [Number.NaN, 1000],
  ])("queryRetryDelay(%d) = %d", (attempt, ms) => {
    expect(queryRetryDelay(attempt)).toBe(ms);
  });

  it("lockdownRetryDelay = 100 ms × attempt", () => {
    expect([1, 2, 3].map(lockdownRetryDelay)).toEqual([100, 200, 300]);
  });
});

describe("checkPassword", () => {
  it.each([
    ["Demo-Passw0rd!", []],
    ["Aa1!aaaa", []],
    ["Aa1!aaa", ["length"]],
    ["AA1!AAAA", ["lowercase"]],
    ["aa1!aaaa", ["uppercase"]],
    ["Aa!!aaaa", ["number"]],
    ["Aa1aaaaa", ["symbol"]],
    ["Aa1 aaaa", ["symbol"]],
    ["", ["length", "lowercase", "uppercase", "number", "symbol"]],
    ["abc", ["length", "uppercase", "number", "symbol"]],
    ["Ünïcödé1€", []],
    ["Aa1!😀", ["length"]],
  ] as Array<[string, string[]]>)("%j → %j", (pw, failures) => {
    expect(checkPassword(pw)).toEqual({ ok: failures.length === 0, failures });
  });

  it("counts code points, not UTF-16 units", () => {
    // 4 emoji are 8 UTF-16 units but 4 characters.
    expect(checkPassword("A1a😀😀😀😀").failures).toEqual(["length"]);
    expect(checkPassword("A1a😀😀😀😀😀").ok).toBe(true);
  });

  it("fails every rule for a non-string", () => {
    expect(checkPassword(undefined).failures).toHaveLength(5);
    expect(checkPassword(12345678).ok).toBe(false);
  });

  it("describes every rule", () => {
    expect(Object.keys(PASSWORD_RULE_TEXT)).toEqual(["length", "lowercase", "uppercase", "number", "symbol"]);
    expect(PASSWORD_RULE_TEXT.length).toBe("At least 8 characters");
  });
});

describe("resolvePresignExpiry", () => {
  it("defaults to 3600 s", () => {
    expect(resolvePresignExpiry()).toBe(3600);
  });

  it("accepts up to the maximum and throws above it", () => {
    expect(resolvePresignExpiry(604_800)).toBe(604_800);
    expect(() => resolvePresignExpiry(604_801)).toThrow(PresignExpiryLimitError);
    try {
      resolvePresignExpiry(700_000);
    } catch (e) {
      expect((e as PresignExpiryLimitError).code).toBe("URL_EXPIRATION_LIMIT");
      expect((e as PresignExpiryLimitError).requestedS).toBe(700_000);
    }
  });

  it("is capped by the credentials' remaining lifetime", () => {
    expect(resolvePresignExpiry(3600, 120)).toBe(120);
    expect(resolvePresignExpiry(60, 120)).toBe(60);
    expect(resolvePresignExpiry(3600, null)).toBe(3600);
    expect(resolvePresignExpiry(3600, 0)).toBe(1);
    expect(resolvePresignExpiry(3600.9, 999.5)).toBe(999);
  });

  it("rejects non-positive or non-finite requests", () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => resolvePresignExpiry(bad)).toThrow();
    }
  });
});
