import type { SecurityLevel } from "./session-cache.ts";

/** Why the server refused the session (GET /api/account/security-check → 401). */
export type SecurityCheckReason = "absolute-timeout" | "idle-timeout" | "device-mismatch" | "no-session";

export interface SecurityCheckSession {
  id: string;
  createdAt: string | number;
  expiresAt: string | number;
  lastActiveAt: string | number | null;
  rotatedAt: string | number | null;
}

export type SecurityCheckResult =
  | { kind: "ok"; level: SecurityLevel | null; session: SecurityCheckSession | null }
  | { kind: "signed-out"; reason: string }
  /** Network failure, 404 before the endpoint exists, 5xx: nothing is concluded. */
  | { kind: "unknown"; status: number };

/** The plain-words toast for a failed security check. */
export function signedOutMessage(reason: string | null | undefined): string {
  switch (reason) {
    case "idle-timeout":
      return "Your session expired after 30 minutes without activity.";
    case "absolute-timeout":
      return "Your session reached its 24-hour limit.";
    case "device-mismatch":
      return "We signed you out because this session was used from a different device.";
    default:
      return "Your session has ended.";
  }
}

/** Reads the security-check answer (status + body) without trusting its shape. */
export function interpretSecurityCheck(status: number, body: unknown): SecurityCheckResult {
  const b = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  if (status === 401) {
    return { kind: "signed-out", reason: typeof b.reason === "string" ? b.reason : "no-session" };
  }
  if (status >= 200 && status < 300 && b.ok === true) {
    const level = b.level === "low" || b.level === "medium" || b.level === "high" ? b.level : null;
    const s = b.session && typeof b.session === "object" ? (b.session as SecurityCheckSession) : null;
    return { kind: "ok", level, session: s };
  }
  return { kind: "unknown", status };
}

/** A timestamp as epoch ms (ISO string or number), or null. */
export function toEpochMs(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value) {
    const t = Date.parse(value);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

export const SECURITY_LEVEL_TEXT: Readonly<Record<SecurityLevel, string>> = Object.freeze({
  low: "Low",
  medium: "Medium",
  high: "High",
});

export const SECURITY_LEVEL_HELP: Readonly<Record<SecurityLevel, string>> = Object.freeze({
  low: "Your session is valid but has little recent activity or security context.",
  medium: "A valid, recently used session.",
  high: "A valid, recently used session with a strong security context.",
});

/** A user agent string → "Chrome on Windows", "Safari on iPhone", or "Unknown device". */
export function deviceLabel(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? "").trim();
  if (!ua) return "Unknown device";
  let browser: string | null = null;
  if (/\bEdg(e|A|iOS)?\//.test(ua)) browser = "Edge";
  else if (/\bOPR\/|\bOpera\b/.test(ua)) browser = "Opera";
  else if (/\bSamsungBrowser\//.test(ua)) browser = "Samsung Internet";
  else if (/\bFirefox\/|\bFxiOS\//.test(ua)) browser = "Firefox";
  else if (/\bHeadlessChrome\//.test(ua)) browser = "Headless Chrome";
  else if (/\bChrom(e|ium)\/|\bCriOS\//.test(ua)) browser = "Chrome";
  else if (/\bSafari\//.test(ua) && /\bVersion\//.test(ua)) browser = "Safari";
  else if (/^curl\//i.test(ua)) browser = "curl";
  else if (/node|undici/i.test(ua)) browser = "A script";

  let os: string | null = null;
  if (/\biPhone\b/.test(ua)) os = "iPhone";
  else if (/\biPad\b/.test(ua)) os = "iPad";
  else if (/\bAndroid\b/.test(ua)) os = "Android";
  else if (/\bCrOS\b/.test(ua)) os = "ChromeOS";
  else if (/\bWindows\b/.test(ua)) os = "Windows";
  else if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) os = "macOS";
  else if (/\bLinux\b/.test(ua)) os = "Linux";

  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `Browser on ${os}`;
  return "Unknown device";
}

const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

/** A timestamp for display in the user's time zone, or "—". */
export function formatWhen(value: unknown): string {
  const ms = toEpochMs(value);
  return ms === null ? "—" : dateTime.format(new Date(ms));
}
