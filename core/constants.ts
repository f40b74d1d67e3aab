/**
 * Business constants and limits (spec §9), the password policy (spec §5) and the presigned-link
 * expiry rule (spec §5, §7, §8).
 */

// Sessions and tokens
export const SESSION_ABSOLUTE_MS = 86_400_000;
export const SESSION_IDLE_MS = 1_800_000;
export const TOKEN_ROTATION_MS = 21_600_000;
export const SECURITY_CHECK_INTERVAL_MS = 300_000;
export const RECENT_ACTIVITY_MS = 300_000;
/** DOM events that count as user activity (spec §9). */
export const ACTIVITY_EVENTS = Object.freeze([
  "mousemove",
  "mousedown",
  "keydown",
  "scroll",
  "touchstart",
  "click",
]);

// Sign-in throttling
export const LOGIN_MAX_ATTEMPTS = 5;
export const LOGIN_LOCKOUT_MS = 300_000;
export const LOCKOUT_MESSAGE = "Too many login attempts. Please try again later.";

// Password policy
export const PASSWORD_MIN_LENGTH = 8;

// Object storage
export const PRESIGN_DEFAULT_EXPIRY_S = 3600;
/** Seven days, the largest expiry S3 SigV4 allows; the spec leaves the maximum unstated. */
export const PRESIGN_MAX_EXPIRY_S = 604_800;

// Data queries
export const QUERY_RETRIES = 3;
export const QUERY_RETRY_MAX_DELAY_MS = 30_000;

/** Delay before retry number `attempt` (0-based): min(1000 · 2^attempt, 30000) ms. */
export function queryRetryDelay(attempt: number): number {
  const n = Number.isFinite(attempt) ? Math.max(0, attempt) : 0;
  return Math.min(1000 * 2 ** n, QUERY_RETRY_MAX_DELAY_MS);
}

// Toasts
export const TOAST_LIMIT = 3;
export const TOAST_DURATION_MS = 4000;
export const TOAST_WIDTH_PX = 356;

// Browser storage
export const SESSION_STORAGE_PREFIX = "lumen.auth.";
export const SESSION_STORAGE_KEYS = Object.freeze([
  "user_context",
  "security_context",
  "token_cache",
  "auth_metrics",
  "remember_session",
] as const);
export type SessionStorageKey = (typeof SESSION_STORAGE_KEYS)[number];

/** The full session-storage key, e.g. "lumen.auth.user_context". */
export function sessionStorageKey(key: SessionStorageKey): string {
  return `${SESSION_STORAGE_PREFIX}${key}`;
}

export const THEME_STORAGE_KEY = "lumen.theme";
export const THEMES = Object.freeze(["light", "dark", "system"] as const);
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = "system";

/** A stored theme value, or the default ('system') when it is missing or unknown. */
export function parseTheme(value: unknown): Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value)
    ? (value as Theme)
    : DEFAULT_THEME;
}

// Script-sandbox lockdown handler
export const LOCKDOWN_MAX_RETRIES = 3;

/** Delay before lockdown retry number `attempt` (1-based): 100 ms × attempt. */
export function lockdownRetryDelay(attempt: number): number {
  return 100 * attempt;
}

// Debug console
export const DEBUG_CONSOLE_MAX_ERRORS = 5;
export const DEBUG_CONSOLE_WINDOW_MS = 1000;

// Status overlay
export const SHORT_USER_ID_LENGTH = 8;

export type PasswordFailure = "length" | "lowercase" | "uppercase" | "number" | "symbol";

/** UI wording of each password rule. */
export const PASSWORD_RULE_TEXT: Readonly<Record<PasswordFailure, string>> = Object.freeze({
  length: `At least ${PASSWORD_MIN_LENGTH} characters`,
  lowercase: "A lowercase letter",
  uppercase: "An uppercase letter",
  number: "A number",
  symbol: "A symbol",
});

/**
 * Password policy (spec §5): at least 8 characters (counted in Unicode code points), a lowercase
 * letter, an uppercase letter, a decimal digit and a symbol (any character that is not a letter, a
 * digit or white space). Failures are listed in the order length, lowercase, uppercase, number,
 * symbol. A non-string fails every rule.
 */
export function checkPassword(pw: unknown): { ok: boolean; failures: PasswordFailure[] } {
  const s = typeof pw === "string" ? pw : "";
  const failures: PasswordFailure[] = [];
  if ([...s].length < PASSWORD_MIN_LENGTH) failures.push("length");
  if (!/\p{Ll}/u.test(s)) failures.push("lowercase");
  if (!/\p{Lu}/u.test(s)) failures.push("uppercase");
  if (!/\p{Nd}/u.test(s)) failures.push("number");
  if (!/[^\p{L}\p{N}\p{M}\s]/u.test(s)) failures.push("symbol");
  return { ok: failures.length === 0, failures };
}

/** Spec §8 'Expiry over the maximum': a URL-expiration-limit error. */
export class PresignExpiryLimitError extends Error {
  readonly code = "URL_EXPIRATION_LIMIT";
  readonly requestedS: number;
  readonly maxS: number;
  constructor(requestedS: number, maxS: number = PRESIGN_MAX_EXPIRY_S) {
    super(`Presigned URL expiry of ${requestedS} s exceeds the maximum of ${maxS} s`);
    this.name = "PresignExpiryLimitError";
    this.requestedS = requestedS;
    this.maxS = maxS;
  }
}

/**
 * The expiry (whole seconds) of a presigned link (spec §5): the requested value (default 3600 s);
 * over `PRESIGN_MAX_EXPIRY_S` throws `PresignExpiryLimitError`; then capped by the remaining lifetime
 * of the signing credentials when that is known. Never below 1 s.
 */
export function resolvePresignExpiry(
  requestedS: number = PRESIGN_DEFAULT_EXPIRY_S,
  credentialsRemainingS?: number | null,
): number {
  if (!Number.isFinite(requestedS) || requestedS <= 0) {
    throw new RangeError(`Presigned URL expiry must be a positive number of seconds, got ${requestedS}`);
  }
  if (requestedS > PRESIGN_MAX_EXPIRY_S) throw new PresignExpiryLimitError(requestedS);
  let s = Math.floor(requestedS);
  if (typeof credentialsRemainingS === "number" && Number.isFinite(credentialsRemainingS)) {
    s = Math.min(s, Math.floor(credentialsRemainingS));
  }
  return Math.max(1, s);
}
