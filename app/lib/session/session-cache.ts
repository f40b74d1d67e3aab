import { SESSION_STORAGE_PREFIX, type SessionStorageKey, sessionStorageKey } from "../../../core/index.ts";

/**
 * The non-secret auth cache in sessionStorage (spec §9, DESIGN 'Deliberate departures'): under the
 * fixed prefix, only the spec's keys, never a token, password or secret. Session tokens live in
 * httpOnly cookies and are never readable here.
 */

export type SecurityLevel = "low" | "medium" | "high";

/** security_context: the result of the last server security check. */
export interface SecurityContextCache {
  level: SecurityLevel | null;
  checkedAt: number;
  reason?: string;
}

/** token_cache: expiry metadata only (epoch ms), never a token. */
export interface TokenCache {
  expiresAt: number | null;
  rotatedAt: number | null;
}

/** auth_metrics: security-check counters, the last activity and the client-side sign-in throttle. */
export interface AuthMetrics {
  checks: number;
  failures: number;
  lastActivityAt: number | null;
  /** failed sign-in attempts in a row (spec §5 client-side throttling) */
  signInFailures: number;
  /** epoch ms until which sign-in is blocked on this browser, or null */
  blockedUntil: number | null;
}

export const EMPTY_METRICS: AuthMetrics = Object.freeze({
  checks: 0,
  failures: 0,
  lastActivityAt: null,
  signInFailures: 0,
  blockedUntil: null,
});

/** Key names that must never be written to web storage, at any depth. */
const FORBIDDEN_KEY = /token|password|secret/i;

/**
 * A copy of `value` without any property whose name contains token, password or secret (at any
 * depth). Metadata about a token is stored under names like expiresAt / rotatedAt instead.
 */
export function stripSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => stripSecrets(v)) as T;
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (FORBIDDEN_KEY.test(key)) continue;
    out[key] = stripSecrets(v);
  }
  return out as T;
}

function storage(explicit?: Storage | null): Storage | null {
  if (explicit) return explicit;
  try {
    return typeof window !== "undefined" ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

export function readCache<T>(key: SessionStorageKey, store?: Storage | null): T | null {
  const s = storage(store);
  if (!s) return null;
  try {
    const raw = s.getItem(sessionStorageKey(key));
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

/** Writes one spec key (secrets stripped). Storage failures are ignored: it is only a cache. */
export function writeCache(key: SessionStorageKey, value: unknown, store?: Storage | null): void {
  const s = storage(store);
  if (!s) return;
  try {
    s.setItem(sessionStorageKey(key), JSON.stringify(stripSecrets(value)));
  } catch {
    // storage full or unavailable
  }
}

export function removeCache(key: SessionStorageKey, store?: Storage | null): void {
  try {
    storage(store)?.removeItem(sessionStorageKey(key));
  } catch {
    // nothing to remove
  }
}

/** Removes every key under the auth prefix (sign-out, failed check, server says visitor). */
export function clearAuthCache(store?: Storage | null): void {
  const s = storage(store);
  if (!s) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < s.length; i++) {
      const key = s.key(i);
      if (key?.startsWith(SESSION_STORAGE_PREFIX)) keys.push(key);
    }
    for (const key of keys) s.removeItem(key);
  } catch {
    // nothing to clear
  }
  notifySecurityListeners();
}

export function readMetrics(store?: Storage | null): AuthMetrics {
  const m = readCache<Partial<AuthMetrics>>("auth_metrics", store) ?? {};
  const num = (v: unknown, d: number) => (typeof v === "number" && Number.isFinite(v) ? v : d);
  const opt = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  return {
    checks: num(m.checks, 0),
    failures: num(m.failures, 0),
    lastActivityAt: opt(m.lastActivityAt),
    signInFailures: num(m.signInFailures, 0),
    blockedUntil: opt(m.blockedUntil),
  };
}

export function updateMetrics(
  change: (m: AuthMetrics) => Partial<AuthMetrics>,
  store?: Storage | null,
): AuthMetrics {
  const current = readMetrics(store);
  const next = { ...current, ...change(current) };
  writeCache("auth_metrics", next, store);
  return next;
}

/** remember_session: the user's "keep me signed in" preference; false unless they chose it. */
export function readRememberSession(store?: Storage | null): boolean {
  return readCache<boolean>("remember_session", store) === true;
}

export function writeRememberSession(value: boolean, store?: Storage | null): void {
  writeCache("remember_session", value === true, store);
}

export function isSecurityLevel(value: unknown): value is SecurityLevel {
  return value === "low" || value === "medium" || value === "high";
}

export function readSecurityContext(store?: Storage | null): SecurityContextCache | null {
  const c = readCache<Partial<SecurityContextCache>>("security_context", store);
  if (!c || typeof c.checkedAt !== "number") return null;
  return {
    level: isSecurityLevel(c.level) ? c.level : null,
    checkedAt: c.checkedAt,
    ...(typeof c.reason === "string" ? { reason: c.reason } : {}),
  };
}

// A tiny external store so the status overlay and /settings re-render after each check.
const listeners = new Set<() => void>();
let snapshot: { raw: string | null; value: SecurityContextCache | null } = { raw: null, value: null };

function notifySecurityListeners() {
  for (const l of listeners) l();
}

export function writeSecurityContext(value: SecurityContextCache, store?: Storage | null): void {
  writeCache("security_context", value, store);
  notifySecurityListeners();
}

export function subscribeSecurityContext(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Stable snapshot for useSyncExternalStore: the same object until the stored JSON changes. */
export function getSecurityContextSnapshot(): SecurityContextCache | null {
  let raw: string | null = null;
  try {
    raw = window.sessionStorage.getItem(sessionStorageKey("security_context"));
  } catch {
    raw = null;
  }
  if (raw !== snapshot.raw) snapshot = { raw, value: readSecurityContext() };
  return snapshot.value;
}

export const getServerSecurityContextSnapshot = (): SecurityContextCache | null => null;

/**
 * True while this browser's first security check of the session is in flight (nothing cached yet):
 * the security context is really unknown then, and the start-up loader says so.
 */
let firstCheckPending = false;
export function setFirstSecurityCheckPending(pending: boolean): void {
  if (firstCheckPending === pending) return;
  firstCheckPending = pending;
  notifySecurityListeners();
}
export const getFirstSecurityCheckPending = (): boolean => firstCheckPending;
export const getServerFirstSecurityCheckPending = (): boolean => false;
