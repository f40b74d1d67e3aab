import { LOCKOUT_MESSAGE, LOGIN_LOCKOUT_MS, LOGIN_MAX_ATTEMPTS } from "../../../core/index.ts";
import { readMetrics, updateMetrics } from "../../lib/session/session-cache.ts";
import { postJson } from "./api.ts";

/** Client-side throttle (spec §5): the end of the block on this browser (epoch ms), or null. */
export function clientBlockedUntil(now = Date.now()): number | null {
  const { blockedUntil } = readMetrics();
  return blockedUntil !== null && blockedUntil > now ? blockedUntil : null;
}

/** Spec §5: after 5 failures in a row sign-in is blocked here for 5 minutes (the server does the same). */
export function nextThrottle(
  failures: number,
  blockedUntil: number | null,
  now: number,
): { signInFailures: number; blockedUntil: number | null } {
  const count = (blockedUntil !== null && blockedUntil <= now ? 0 : failures) + 1;
  return {
    signInFailures: count,
    blockedUntil: count >= LOGIN_MAX_ATTEMPTS ? now + LOGIN_LOCKOUT_MS : null,
  };
}

function recordFailure(now = Date.now()) {
  updateMetrics((m) => nextThrottle(m.signInFailures, m.blockedUntil, now));
}

function recordBlock(until: number) {
  updateMetrics(() => ({ blockedUntil: until }));
}

function recordSuccess() {
  updateMetrics(() => ({ signInFailures: 0, blockedUntil: null }));
}

export type SignInResult =
  | { ok: true }
  | {
      ok: false;
      message: string;
      /** EMAIL_NOT_VERIFIED: the address to confirm (when the user typed an e-mail address). */
      unverified?: { email: string | null };
      /** Locked out: sign-in is disabled until this time (epoch ms). */
      retryAt?: number;
    };

/** True when the value looks like a phone number rather than a username. */
export function looksLikePhone(value: string): boolean {
  const v = value.trim();
  return /^\+?[\d\s().-]{7,}$/.test(v) && /\d{6,}/.test(v.replace(/\D/g, ""));
}

/**
 * The first sign-in request: a phone number goes to /api/auth/sign-in/phone (a verified number
 * of the account), an identifier with "@" to /api/auth/sign-in/email, anything else to
 * /api/auth/sign-in/username. The session cookie is set by the server (httpOnly).
 */
export function postSignIn(id: string, password: string) {
  if (looksLikePhone(id)) {
    return postJson("/api/auth/sign-in/phone", { phoneNumber: id.replace(/[\s().-]/g, ""), password });
  }
  return id.includes("@")
    ? postJson("/api/auth/sign-in/email", { email: id, password })
    : postJson("/api/auth/sign-in/username", { username: id, password });
}

/**
 * Signs in through Better Auth: an identifier with "@" uses /api/auth/sign-in/email, anything else
 * /api/auth/sign-in/username. The session cookie is set by the server (httpOnly).
 */
export async function signIn(identifier: string, password: string): Promise<SignInResult> {
  const blocked = clientBlockedUntil();
  if (blocked) return { ok: false, message: LOCKOUT_MESSAGE, retryAt: blocked };
  const id = identifier.trim();
  const byEmail = id.includes("@");
  const result = await postSignIn(id, password);
  if (result.ok) {
    recordSuccess();
    return { ok: true };
  }
  if (result.status === 429) {
    const retryAt = Date.now() + (result.retryAfterS ?? LOGIN_LOCKOUT_MS / 1000) * 1000;
    recordBlock(retryAt);
    return { ok: false, message: LOCKOUT_MESSAGE, retryAt };
  }
  if (result.status === 403 && result.code === "EMAIL_NOT_VERIFIED") {
    return {
      ok: false,
      message: result.message || "Confirm your e-mail address before you sign in.",
      unverified: { email: byEmail ? id : null },
    };
  }
  // The next attempt after the 5th failure is refused here (spec §5: 'further sign-in is blocked').
  if (result.status === 401) recordFailure();
  return { ok: false, message: result.message };
}
