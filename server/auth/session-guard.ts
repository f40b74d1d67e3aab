/**
 * The session rules of spec §4/§9 and SECURITY.md §7, in ONE place, used by every channel
 * (pages, REST, Better Auth's own endpoints, later GraphQL) through `identity` and the HTTP app:
 *
 * - absolute lifetime 24 h from the original sign-in (`issuedAt`, kept across rotations);
 * - idle time-out 30 min from the last activity (`lastActiveAt`; pages and POST
 *   /api/account/activity mark activity, the security check itself does not);
 * - rotation every 6 h: a new session row and token, the old row deleted (the old token dies),
 *   the new cookie set — only where the caller can set a cookie (`rotate: true`); the new row
 *   keeps the sign-in's family id (`familyId`, the first row's id), which API ID tokens name;
 * - device binding: a hash of the user agent and accept-language recorded at sign-in; a mismatch
 *   revokes the session and records a `device_mismatch` audit event.
 * A failed check deletes the session row, so the next request is signed out everywhere.
 * Times come from the injected clock (`now`), so tests can move time.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { generateRandomString } from "better-auth/crypto";
import type { Kysely } from "kysely";
import {
  evaluateSession,
  isRecentlyActive,
  SESSION_ABSOLUTE_MS,
  type SessionFailure,
  TOKEN_ROTATION_MS,
} from "../../core/index.ts";
import type { DB } from "../db/schema.ts";
import { normaliseIp } from "./client-ip.ts";
import { sessionCookieName } from "./cookies.ts";
import type { SessionCache } from "./identity-cache.ts";
import type { SecurityAudit } from "./security-audit.ts";

export const CLIENT_IP_HEADER = "x-lumen-client-ip";
/** Activity is written at most this often (page views), to keep reads cheap. */
const ACTIVITY_WRITE_MS = 30_000;

export type GuardFailure = SessionFailure | "no-session";

export interface GuardSession {
  id: string;
  /** The sign-in this row descends from: the first row's id, kept across rotations. */
  familyId: string;
  userId: string;
  issuedAt: number;
  lastActiveAt: number;
  rotatedAt: number;
  expiresAt: number;
  ipAddress: string | null;
  userAgent: string | null;
}

export interface GuardUser {
  id: string;
  email: string;
  name: string;
  username: string | null;
  accountType: string | null;
}

export type GuardResult =
  | { ok: true; session: GuardSession; user: GuardUser; setCookie?: string }
  | { ok: false; reason: GuardFailure; clearCookie?: string };

export interface GuardOptions {
  db: Kysely<DB>;
  secret: string;
  secureCookies: boolean;
  now: () => number;
  audit: SecurityAudit;
  /**
   * Session rows read at most every couple of seconds per token (decision 023); without it every
   * check reads the database.
   */
  cache?: SessionCache<SessionRow>;
}

/** The session and user columns a check reads (one row, cached by token hash). */
export interface SessionRow {
  sessionId: string;
  userId: string;
  expiresAt: unknown;
  createdAt: unknown;
  issuedAt: unknown;
  lastActiveAt: unknown;
  rotatedAt: unknown;
  fingerprint: string | null;
  familyId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  email: string;
  name: string;
  username: string | null;
  accountType: string | null;
  isActive: unknown;
}

const epoch = (value: unknown): number | null => {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number" || typeof value === "bigint") return Number(value);
  const n = Number(value);
  if (Number.isFinite(n) && /^\d+$/.test(String(value))) return n;
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? null : parsed;
};

/**
 * Hash of the device attributes a browser sends on every request (no secrets; not reversible):
 * the user agent and the browser's first language. Only the first language counts: one browser
 * sends "en-US" on some requests and "en-US,en;q=0.9" on others (its own keep-alive and prefetch
 * requests expand the list), and that is still the same device.
 */
export function deviceFingerprint(headers: Headers): string {
  const ua = headers.get("user-agent") ?? "";
  const lang = (headers.get("accept-language") ?? "").split(",")[0]!.split(";")[0]!.trim().toLowerCase();
  return createHash("sha256").update(`${ua}\n${lang}`).digest("base64url");
}

function readCookie(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function createSessionGuard(options: GuardOptions) {
  const { db, now, audit } = options;
  const cookieName = sessionCookieName(options.secureCookies);
  const attributes = `Path=/; HttpOnly; SameSite=Lax${options.secureCookies ? "; Secure" : ""}`;

  /** The session token of a signed cookie, or null when missing or the signature is wrong. */
  async function tokenFrom(headers: Headers): Promise<string | null> {
    const raw = readCookie(headers.get("cookie"), cookieName);
    if (!raw) return null;
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return null;
    }
    const dot = value.lastIndexOf(".");
    if (dot <= 0) return null;
    const token = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(sign(token));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return token;
  }

  /** Better Auth's cookie signature (HMAC-SHA256, base64), computed synchronously. */
  const sign = (token: string) => createHmac("sha256", options.secret).update(token).digest("base64");

  async function cookieFor(token: string, maxAgeS: number): Promise<string> {
    const value = encodeURIComponent(`${token}.${sign(token)}`);
    return `${cookieName}=${value}; Max-Age=${Math.max(0, Math.floor(maxAgeS))}; ${attributes}`;
  }

  const clearCookie = `${cookieName}=; Max-Age=0; ${attributes}`;

  async function revoke(sessionId: string): Promise<void> {
    await db.deleteFrom("session").where("id", "=", sessionId).execute();
  }

  async function readRow(token: string): Promise<SessionRow | undefined> {
    return db
      .selectFrom("session")
      .innerJoin("user", "user.id", "session.userId")
      .select([
        "session.id as sessionId",
        "session.userId",
        "session.expiresAt",
        "session.createdAt",
        "session.issuedAt",
        "session.lastActiveAt",
        "session.rotatedAt",
        "session.fingerprint",
        "session.familyId",
        "session.ipAddress",
        "session.userAgent",
        "user.email",
        "user.name",
        "user.username",
        "user.accountType",
        "user.isActive",
      ])
      .where("session.token", "=", token)
      .executeTakeFirst();
  }

  function sessionOf(
    row: SessionRow,
    issuedAt: number,
    lastActiveAt: number,
    rotatedAt: number,
  ): GuardSession {
    return {
      id: row.sessionId,
      familyId: row.familyId ?? row.sessionId,
      userId: row.userId,
      issuedAt,
      lastActiveAt,
      rotatedAt,
      expiresAt: issuedAt + SESSION_ABSOLUTE_MS,
      ipAddress: row.ipAddress,
      userAgent: row.userAgent,
    };
  }

  function userOf(
    row: Pick<SessionRow, "userId" | "email" | "name" | "username" | "accountType">,
  ): GuardUser {
    return {
      id: row.userId,
      email: row.email,
      name: row.name,
      username: row.username,
      accountType: row.accountType,
    };
  }

  /**
   * The check on a cached row when it passes without anything to decide: not expired, account
   * active, device bound and matching, within the time-outs, no rotation due for a caller that
   * rotates. Activity is recorded (at most every ACTIVITY_WRITE_MS) and kept in the cached row.
   * Anything else → null: the caller reads the row again and decides on that.
   */
  async function passCached(
    row: SessionRow,
    headers: Headers,
    opts: { rotate?: boolean; markActivity?: boolean | "force" },
  ): Promise<GuardResult | null> {
    if ((epoch(row.expiresAt) ?? 0) <= Date.now() || row.isActive === false || row.isActive === 0)
      return null;
    if (row.fingerprint === null || row.fingerprint !== deviceFingerprint(headers)) return null;
    const t = now();
    const issuedAt = epoch(row.issuedAt) ?? epoch(row.createdAt) ?? Number.NaN;
    const lastActiveAt = epoch(row.lastActiveAt) ?? issuedAt;
    const rotatedAt = epoch(row.rotatedAt) ?? issuedAt;
    const verdict = evaluateSession({
      issuedAt,
      lastActivityAt: lastActiveAt,
      lastRotatedAt: rotatedAt,
      now: t,
      fingerprintMatches: true,
    });
    if (!verdict.ok || (opts.rotate && verdict.rotate)) return null;
    let session = sessionOf(row, issuedAt, lastActiveAt, rotatedAt);
    if (opts.markActivity && (opts.markActivity === "force" || t - lastActiveAt >= ACTIVITY_WRITE_MS)) {
      await db.updateTable("session").set({ lastActiveAt: t }).where("id", "=", row.sessionId).execute();
      row.lastActiveAt = t;
      session = { ...session, lastActiveAt: t };
    }
    return { ok: true, session, user: userOf(row) };
  }

  /** The full check on a row read from the database now (revokes, binds and rotates as due). */
  async function evaluateRow(
    row: SessionRow | undefined,
    headers: Headers,
    opts: { rotate?: boolean; markActivity?: boolean | "force" },
  ): Promise<GuardResult> {
    if (!row) return { ok: false, reason: "no-session", clearCookie };
    const ip = normaliseIp(headers.get(CLIENT_IP_HEADER));
    const expiresAt = epoch(row.expiresAt) ?? 0;
    if (expiresAt <= Date.now() || row.isActive === false || row.isActive === 0) {
      await revoke(row.sessionId);
      return { ok: false, reason: "no-session", clearCookie };
    }
    const t = now();
    const issuedAt = epoch(row.issuedAt) ?? epoch(row.createdAt) ?? Number.NaN;
    const lastActiveAt = epoch(row.lastActiveAt) ?? issuedAt;
    const rotatedAt = epoch(row.rotatedAt) ?? issuedAt;
    const fingerprint = deviceFingerprint(headers);
    if (row.fingerprint === null) {
      // A session created without request headers (server-side calls) binds on first use.
      await db.updateTable("session").set({ fingerprint }).where("id", "=", row.sessionId).execute();
    }
    const verdict = evaluateSession({
      issuedAt,
      lastActivityAt: lastActiveAt,
      lastRotatedAt: rotatedAt,
      now: t,
      fingerprintMatches: row.fingerprint === null || row.fingerprint === fingerprint,
    });
    if (!verdict.ok) {
      await revoke(row.sessionId);
      await audit.record(verdict.reason === "device-mismatch" ? "device_mismatch" : "session_expired", {
        actorId: row.userId,
        ip,
        targetType: "session",
        targetId: row.sessionId,
        details: { reason: verdict.reason },
      });
      return { ok: false, reason: verdict.reason, clearCookie };
    }

    const familyId = row.familyId ?? row.sessionId;
    let session = sessionOf(row, issuedAt, lastActiveAt, rotatedAt);
    if (opts.markActivity && (opts.markActivity === "force" || t - lastActiveAt >= ACTIVITY_WRITE_MS)) {
      await db.updateTable("session").set({ lastActiveAt: t }).where("id", "=", row.sessionId).execute();
      row.lastActiveAt = t;
      session = { ...session, lastActiveAt: t };
    }

    let setCookie: string | undefined;
    if (opts.rotate && verdict.rotate) {
      const newToken = generateRandomString(32);
      const newId = randomUUID();
      const realNow = new Date();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("session")
          .values({
            id: newId,
            token: newToken,
            userId: row.userId,
            expiresAt: new Date(expiresAt).toISOString(),
            createdAt: realNow.toISOString(),
            updatedAt: realNow.toISOString(),
            ipAddress: row.ipAddress,
            userAgent: row.userAgent,
            issuedAt,
            lastActiveAt: session.lastActiveAt,
            rotatedAt: t,
            fingerprint: row.fingerprint ?? fingerprint,
            familyId,
          })
          .execute();
        await trx.deleteFrom("session").where("id", "=", row.sessionId).execute();
      });
      session = { ...session, id: newId, rotatedAt: t };
      setCookie = await cookieFor(newToken, (expiresAt - realNow.getTime()) / 1000);
    }

    return {
      ok: true,
      session,
      setCookie,
      user: {
        id: row.userId,
        email: row.email,
        name: row.name,
        username: row.username,
        accountType: row.accountType,
      },
    };
  }

  return {
    cookieName,
    clearCookie,
    tokenFrom,

    /** Records the sign-in time and device of a new session (Better Auth's session.create hook). */
    async bind(sessionId: string, headers: Headers | null | undefined): Promise<void> {
      const t = now();
      await db
        .updateTable("session")
        .set({
          issuedAt: t,
          lastActiveAt: t,
          rotatedAt: t,
          fingerprint: headers ? deviceFingerprint(headers) : null,
          familyId: sessionId,
        })
        .where("id", "=", sessionId)
        .execute();
    },

    /**
     * The check. `rotate`: issue a new token when due (the caller must send `setCookie`).
     * `markActivity`: the request counts as user activity (`force` writes it even if recent).
     * The session row comes from the cache when it has one younger than its TTL; every rule is
     * still applied to it on every request, and anything but a plain pass (expired, idle, device
     * mismatch, rotation due, unbound device) is decided on a fresh read of the database.
     */
    async check(
      headers: Headers,
      opts: { rotate?: boolean; markActivity?: boolean | "force" } = {},
    ): Promise<GuardResult> {
      const token = await tokenFrom(headers);
      if (!token) return { ok: false, reason: "no-session" };
      const cache = options.cache;
      const key = cache?.sessionKey(token);
      if (cache && key) {
        // Writes of any process since the last request here drop the cache first.
        await cache.revalidate();
        const cached = cache.getSession(key);
        if (cached) {
          const fast = await passCached(cached, headers, opts);
          if (fast) return fast;
          cache.dropSession(key);
        }
      }
      const readAt = cache?.generation ?? 0;
      const row = await readRow(token);
      if (row && cache && key) cache.putSession(key, row, readAt);
      return evaluateRow(row, headers, opts);
    },

    /**
     * A session by id, read-only (no rotation, no activity, no revocation): the user when the
     * session exists, its account is active and it is within its absolute and idle time-outs.
     * Used to check links bound to a session (content body links) when they are used.
     */
    inspect(sessionId: string): Promise<GuardUser | null> {
      return inspectWhere("id", sessionId);
    },

    /**
     * The same for a sign-in (session family, kept across rotations): used to check API ID tokens
     * (their `sid`) and their body links on every use.
     */
    inspectFamily(familyId: string): Promise<GuardUser | null> {
      return inspectWhere("family", familyId);
    },

    revoke,
  };

  async function inspectWhere(by: "id" | "family", value: string): Promise<GuardUser | null> {
    const row = await db
      .selectFrom("session")
      .innerJoin("user", "user.id", "session.userId")
      .select([
        "session.expiresAt",
        "session.createdAt",
        "session.issuedAt",
        "session.lastActiveAt",
        "session.rotatedAt",
        "user.id as userId",
        "user.email",
        "user.name",
        "user.username",
        "user.accountType",
        "user.isActive",
      ])
      .where((eb) =>
        by === "id"
          ? eb("session.id", "=", value)
          : // Rows from before the family column have none: their own id names the family.
            eb.or([eb("session.familyId", "=", value), eb("session.id", "=", value)]),
      )
      .orderBy("session.rotatedAt", "desc")
      .executeTakeFirst();
    if (!row || row.isActive === false || row.isActive === 0) return null;
    const t = now();
    if ((epoch(row.expiresAt) ?? 0) <= t) return null;
    const issuedAt = epoch(row.issuedAt) ?? epoch(row.createdAt) ?? Number.NaN;
    const verdict = evaluateSession({
      issuedAt,
      lastActivityAt: epoch(row.lastActiveAt) ?? issuedAt,
      lastRotatedAt: epoch(row.rotatedAt) ?? issuedAt,
      now: t,
      fingerprintMatches: true,
    });
    if (!verdict.ok) return null;
    return userOf(row);
  }
}

export type SessionGuard = ReturnType<typeof createSessionGuard>;

/**
 * Security level (spec §4), scored on the server from the tokens, the security context, the
 * admin role and recent activity:
 * - +1 tokens: the session has more than 60 s of its absolute lifetime left;
 * - +1 security context: the guard passed (device fingerprint bound and matching);
 * - +1 recent activity: within the last 5 minutes;
 * - +1 fresh token: issued or rotated within the 6-hour rotation interval;
 * - −1 admin: a privileged session needs one more point for the same level.
 * Score 4 → high, 2–3 → medium, 0–1 → low.
 */
export function securityLevel(input: {
  session: GuardSession;
  now: number;
  isAdmin: boolean;
}): "low" | "medium" | "high" {
  const { session, now, isAdmin } = input;
  let score = 0;
  if (session.expiresAt - now > 60_000) score += 1;
  score += 1; // the guard passed: fingerprint bound and matching
  if (isRecentlyActive(session.lastActiveAt, now)) score += 1;
  if (now - session.rotatedAt < TOKEN_ROTATION_MS) score += 1;
  if (isAdmin) score -= 1;
  return score >= 4 ? "high" : score >= 2 ? "medium" : "low";
}
