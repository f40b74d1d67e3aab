/**
 * Session security rules (spec §4, §9): absolute and idle time-outs, device binding, token rotation and
 * recent activity, as pure functions of timestamps. The server enforces them; the client only asks.
 */
import type { SessionInfo } from "./claims.ts";
import { RECENT_ACTIVITY_MS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, TOKEN_ROTATION_MS } from "./constants.ts";

export type SessionFailure = "absolute-timeout" | "idle-timeout" | "device-mismatch";

export type SessionCheck = { ok: true; rotate: boolean } | { ok: false; reason: SessionFailure };

export interface SessionCheckInput {
  /** epoch ms the session started */
  issuedAt: number;
  /** epoch ms of the last user activity (or the last request) */
  lastActivityAt: number;
  /** epoch ms the tokens were last re-read; defaults to issuedAt */
  lastRotatedAt?: number;
  /** epoch ms now */
  now: number;
  /** false when the device fingerprint differs from the one bound at sign-in (a security event) */
  fingerprintMatches: boolean;
  absoluteTimeoutMs?: number;
  idleTimeoutMs?: number;
  rotationIntervalMs?: number;
}

/**
 * The security check (spec §4): fails on a device-fingerprint mismatch, then on the absolute time-out
 * (now − issuedAt ≥ 24 h), then on the idle time-out (now − lastActivityAt ≥ 30 min). When it passes,
 * `rotate` says whether the tokens are due to be re-read (now − lastRotatedAt ≥ 6 h).
 * Non-finite timestamps fail closed as a time-out.
 */
export function evaluateSession(input: SessionCheckInput): SessionCheck {
  const absolute = input.absoluteTimeoutMs ?? SESSION_ABSOLUTE_MS;
  const idle = input.idleTimeoutMs ?? SESSION_IDLE_MS;
  const rotation = input.rotationIntervalMs ?? TOKEN_ROTATION_MS;
  if (input.fingerprintMatches !== true) return { ok: false, reason: "device-mismatch" };
  if (
    !Number.isFinite(input.now) ||
    !Number.isFinite(input.issuedAt) ||
    input.now - input.issuedAt >= absolute
  ) {
    return { ok: false, reason: "absolute-timeout" };
  }
  if (!Number.isFinite(input.lastActivityAt) || input.now - input.lastActivityAt >= idle) {
    return { ok: false, reason: "idle-timeout" };
  }
  const rotatedAt = input.lastRotatedAt ?? input.issuedAt;
  const rotate = !Number.isFinite(rotatedAt) || input.now - rotatedAt >= rotation;
  return { ok: true, rotate };
}

/** A user is recently active when the last activity was less than 5 minutes ago. */
export function isRecentlyActive(lastActivityAt: number | null | undefined, now: number): boolean {
  if (typeof lastActivityAt !== "number" || !Number.isFinite(lastActivityAt)) return false;
  const age = now - lastActivityAt;
  return age >= 0 && age < RECENT_ACTIVITY_MS;
}

/** A new session record with the spec's time-outs, starting at `now`. */
export function newSessionInfo(sessionId: string, now: number): SessionInfo {
  return {
    sessionId,
    issuedAt: now,
    expiresAt: now + SESSION_ABSOLUTE_MS,
    idleTimeoutMs: SESSION_IDLE_MS,
    absoluteTimeoutMs: SESSION_ABSOLUTE_MS,
    lastRotatedAt: now,
    rotationIntervalMs: TOKEN_ROTATION_MS,
  };
}
