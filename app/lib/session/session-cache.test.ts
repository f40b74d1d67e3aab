import { describe, expect, it } from "vitest";
import { SESSION_STORAGE_KEYS, SESSION_STORAGE_PREFIX, visitorContext } from "../../../core/index.ts";
import { toClientUser } from "./auth-context.tsx";
import {
  clearAuthCache,
  readMetrics,
  readRememberSession,
  readSecurityContext,
  stripSecrets,
  updateMetrics,
  writeCache,
  writeRememberSession,
  writeSecurityContext,
} from "./session-cache.ts";

/** An in-memory Storage (the unit tests run in node, without a DOM). */
class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
  dump(): string {
    return JSON.stringify([...this.map.entries()]);
  }
}

const FORBIDDEN = /token|password|secret/i;

function keysDeep(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysDeep(v, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      keysDeep(v, out);
    }
  }
  return out;
}

describe("stripSecrets", () => {
  it("drops any key named like token, password or secret, at any depth", () => {
    const input = {
      level: "high",
      accessToken: "a",
      session_token: "b",
      nested: { password: "p", keep: 1, deeper: [{ clientSecret: "s", ok: true }] },
      expiresAt: 5,
    };
    const out = stripSecrets(input);
    expect(out).toEqual({ level: "high", nested: { keep: 1, deeper: [{ ok: true }] }, expiresAt: 5 });
    expect(keysDeep(out).filter((k) => FORBIDDEN.test(k))).toEqual([]);
  });
  it("leaves primitives alone", () => {
    expect(stripSecrets(true)).toBe(true);
    expect(stripSecrets(null)).toBeNull();
    expect(stripSecrets("token")).toBe("token");
  });
});

describe("the session-storage cache", () => {
  it("stores only the spec's keys under the prefix and never a token, password or secret", () => {
    const store = new MemoryStorage();
    const user = toClientUser({
      ...visitorContext("test"),
      authStatus: "authenticated",
      userId: "0123456789abcdef",
      email: "pro@demo.local",
      claims: { sub: "0123456789abcdef", idToken: "should-not-leak" } as never,
    });
    writeCache("user_context", { ...user, sessionToken: "nope", refresh_token: "nope" }, store);
    writeSecurityContext({ level: "medium", checkedAt: 1 }, store);
    writeCache("token_cache", { expiresAt: 2, rotatedAt: 3, token: "nope", idToken: "nope" }, store);
    updateMetrics((m) => ({ checks: m.checks + 1, lastActivityAt: 4 }), store);
    writeRememberSession(false, store);

    for (let i = 0; i < store.length; i++) {
      const key = store.key(i) ?? "";
      expect(key.startsWith(SESSION_STORAGE_PREFIX)).toBe(true);
      expect(SESSION_STORAGE_KEYS).toContain(key.slice(SESSION_STORAGE_PREFIX.length));
      const value = JSON.parse(store.getItem(key) ?? "null") as unknown;
      expect(keysDeep(value).filter((k) => FORBIDDEN.test(k))).toEqual([]);
    }
    expect(store.dump()).not.toMatch(/nope|should-not-leak/);
    expect(store.dump()).not.toMatch(/"claims"/);
  });

  it("reads back what it wrote, with defaults", () => {
    const store = new MemoryStorage();
    expect(readSecurityContext(store)).toBeNull();
    expect(readRememberSession(store)).toBe(false);
    expect(readMetrics(store)).toEqual({
      checks: 0,
      failures: 0,
      lastActivityAt: null,
      signInFailures: 0,
      blockedUntil: null,
    });
    writeSecurityContext({ level: "low", checkedAt: 10, reason: "idle-timeout" }, store);
    expect(readSecurityContext(store)).toEqual({ level: "low", checkedAt: 10, reason: "idle-timeout" });
    writeRememberSession(true, store);
    expect(readRememberSession(store)).toBe(true);
    updateMetrics((m) => ({ failures: m.failures + 2 }), store);
    expect(readMetrics(store).failures).toBe(2);
  });

  it("survives corrupt values", () => {
    const store = new MemoryStorage();
    store.setItem(`${SESSION_STORAGE_PREFIX}auth_metrics`, "{not json");
    store.setItem(`${SESSION_STORAGE_PREFIX}security_context`, JSON.stringify({ level: "extreme" }));
    expect(readMetrics(store).checks).toBe(0);
    expect(readSecurityContext(store)).toBeNull();
  });

  it("clears every auth key on sign-out and nothing else", () => {
    const store = new MemoryStorage();
    for (const key of SESSION_STORAGE_KEYS) writeCache(key, { a: 1 }, store);
    store.setItem("lumen.theme", "dark");
    store.setItem("other", "x");
    clearAuthCache(store);
    expect(store.length).toBe(2);
    expect(store.getItem("lumen.theme")).toBe("dark");
  });
});
