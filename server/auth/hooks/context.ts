/**
 * What the auth hook modules share: the Better Auth hook context type, body readers, the client
 * address, the signed-in session (checked by the guard) and the lockout answer.
 */
import { APIError, type createAuthMiddleware } from "better-auth/api";
import { LOCKOUT_MESSAGE } from "../../../core/index.ts";
import { normaliseIp } from "../client-ip.ts";
import { CLIENT_IP_HEADER, type GuardResult, type SessionGuard } from "../session-guard.ts";

/** The context Better Auth hands a before or after hook. */
export type AuthHookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
/** What a before hook may return: a changed request (or nothing). */
export type BeforeResult = { context: { body: Record<string, unknown> } } | undefined;
/** A before hook of one concern: it may refuse (throw) or change the request body. */
export type BeforeHook = (ctx: AuthHookContext) => Promise<BeforeResult>;
/** An after hook of one concern: it sees the answer (`ctx.context.returned`) and may replace it (throw). */
export type AfterHook = (ctx: AuthHookContext) => Promise<void>;

export type Body = Record<string, unknown>;
export const bodyOf = (value: unknown): Body =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Body) : {};
export const str = (value: unknown) => (typeof value === "string" ? value : "");

/** The client address the HTTP layer put on the request, normalised (null when absent). */
export function ipOf(headers: Headers | null | undefined): string | null {
  const raw = headers?.get(CLIENT_IP_HEADER);
  return raw ? normaliseIp(raw) : null;
}

/** The answer of a locked account or address. */
export function tooManyAttempts(retryAfterS: number): APIError {
  return new APIError(
    "TOO_MANY_REQUESTS",
    { code: "TOO_MANY_ATTEMPTS", message: LOCKOUT_MESSAGE },
    { "Retry-After": String(retryAfterS) },
  );
}

/** The "scope" detail of a lockout audit row: which kinds of key were locked (acct, name, ip). */
export const lockedScopes = (lockedNow: readonly string[]) =>
  lockedNow.map((k) => k.split(":")[0]!).join(",");

export type SignedIn = Extract<GuardResult, { ok: true }>;
/** The signed-in session of a Better Auth request, checked by the guard (null when none). */
export type GuardedSession = (headers: Headers | undefined) => Promise<SignedIn | null>;

export function guardedSessionOf(guard: SessionGuard): GuardedSession {
  return async (headers) => {
    if (!headers) return null;
    const result = await guard.check(headers);
    return result.ok ? result : null;
  };
}
