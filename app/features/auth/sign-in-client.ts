import { LOGIN_LOCKOUT_MS, LOGIN_MAX_ATTEMPTS } from "../../../core/index.ts";
import { api, settle } from "../../lib/api.ts";
import { readMetrics } from "../../lib/session/session-cache.ts";

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
    return settle(
      api.post("/api/auth/sign-in/phone", { phoneNumber: id.replace(/[\s().-]/g, ""), password }),
    );
  }
  return settle(
    id.includes("@")
      ? api.post("/api/auth/sign-in/email", { email: id, password })
      : api.post("/api/auth/sign-in/username", { username: id, password }),
  );
}
