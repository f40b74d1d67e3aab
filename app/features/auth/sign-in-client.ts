import {
  LOCKOUT_MESSAGE,
  LOGIN_LOCKOUT_MS,
  LOGIN_MAX_ATTEMPTS,
  SESSION_STORAGE_PREFIX,
} from "../../../core/index.ts";

const METRICS_KEY = `${SESSION_STORAGE_PREFIX}auth_metrics`;

interface AuthMetrics {
  failedAttempts: number;
  blockedUntil: number | null;
}

function readMetrics(): AuthMetrics {
  try {
    const raw = window.sessionStorage.getItem(METRICS_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<AuthMetrics>) : {};
    return {
      failedAttempts: typeof parsed.failedAttempts === "number" ? parsed.failedAttempts : 0,
      blockedUntil: typeof parsed.blockedUntil === "number" ? parsed.blockedUntil : null,
    };
  } catch {
    return { failedAttempts: 0, blockedUntil: null };
  }
}

function writeMetrics(metrics: AuthMetrics) {
  try {
    window.sessionStorage.setItem(METRICS_KEY, JSON.stringify(metrics));
  } catch {
    // storage unavailable: the server's lockout still applies
  }
}

/** Client-side throttle (spec §5). The server enforces the same lockout per account and address. */
export function clientLockoutMessage(now = Date.now()): string | null {
  const m = readMetrics();
  return m.blockedUntil !== null && m.blockedUntil > now ? LOCKOUT_MESSAGE : null;
}

function recordFailure(now = Date.now()) {
  const m = readMetrics();
  const failedAttempts = (m.blockedUntil !== null && m.blockedUntil <= now ? 0 : m.failedAttempts) + 1;
  writeMetrics({
    failedAttempts,
    blockedUntil: failedAttempts >= LOGIN_MAX_ATTEMPTS ? now + LOGIN_LOCKOUT_MS : null,
  });
}

function recordSuccess() {
  writeMetrics({ failedAttempts: 0, blockedUntil: null });
}

export type SignInResult = { ok: true } | { ok: false; message: string };

function looksLikePhone(value: string): boolean {
  return /^\+?[\d\s().-]{7,}$/.test(value) && /\d{6,}/.test(value.replace(/\D/g, ""));
}

/**
 * Signs in through Better Auth: an e-mail address uses /api/auth/sign-in/email, a username uses
 * /api/auth/sign-in/username. The session cookie is set by the server (httpOnly).
 */
export async function signIn(identifier: string, password: string): Promise<SignInResult> {
  const blocked = clientLockoutMessage();
  if (blocked) return { ok: false, message: blocked };
  const id = identifier.trim();
  if (looksLikePhone(id)) {
    return {
      ok: false,
      message:
        "Signing in with a phone number arrives in a later release. Use your e-mail address or username.",
    };
  }
  const byEmail = id.includes("@");
  const endpoint = byEmail ? "/api/auth/sign-in/email" : "/api/auth/sign-in/username";
  const body = byEmail ? { email: id, password } : { username: id, password };
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: "Could not reach the server. Check your connection and try again." };
  }
  if (response.ok) {
    recordSuccess();
    return { ok: true };
  }
  const payload = (await response.json().catch(() => null)) as {
    message?: unknown;
    error?: { message?: unknown };
  } | null;
  const serverMessage =
    typeof payload?.message === "string"
      ? payload.message
      : typeof payload?.error?.message === "string"
        ? payload.error.message
        : null;
  if (response.status === 429) return { ok: false, message: serverMessage ?? LOCKOUT_MESSAGE };
  if (response.status === 401) recordFailure();
  return {
    ok: false,
    message: serverMessage ?? `Sign-in failed (${response.status}). Please try again.`,
  };
}
