/**
 * Account and admin REST handlers for identity (SECURITY.md §7–8):
 *
 * - GET  /api/account/security-check → 200 {ok:true, level, session:{id, createdAt, expiresAt,
 *        lastActiveAt, rotatedAt}} | 401 {ok:false, reason}; may rotate the token (sets the cookie);
 *        does not count as activity.
 * - POST /api/account/activity → 204 (the idle clock restarts) | 401 {ok:false, reason}
 * - GET  /api/account/sessions → [{id, createdAt, lastActiveAt, ipAddress, userAgent, current}]
 * - DELETE /api/account/sessions/{id} → 204 (own sessions only; 404 otherwise)
 * - POST /api/account/sessions/revoke-all → 204 (every session of the user, this one included)
 * - GET  /api/account/mfa → second-factor status (see ../auth/mfa-api.ts)
 * - POST /api/admin/users/{userId}/unlock → 200 {ok:true, userId, unlocked} (permission user:manage,
 *        organisation scope: an organisation admin unlocks only its organisations' members)
 *
 * State-changing requests need an Origin (or Referer) of this app; nothing changes on GET.
 * Datetimes are ISO-8601 UTC. No token ever leaves the server.
 */
import type { Context, Hono } from "hono";
import { adminAccess, rolesFromGroups, toAccessContext } from "../../core/index.ts";
import { normaliseIp } from "../auth/client-ip.ts";
import { claimsForUser } from "../auth/identity.ts";
import { registerMfaApi } from "../auth/mfa-api.ts";
import { CLIENT_IP_HEADER, type GuardResult, securityLevel } from "../auth/session-guard.ts";
import type { Runtime } from "../runtime.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

const iso = (ms: number) => new Date(ms).toISOString();

const epochOf = (value: unknown, fallback: number): number => {
  if (value === null || value === undefined) return fallback;
  if (value instanceof Date) return value.getTime();
  const n = Number(value);
  if (Number.isFinite(n)) return n;
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? fallback : parsed;
};

function apiError(c: Context, status: 401 | 403 | 404, code: string, message: string) {
  c.header("Cache-Control", "no-store");
  return c.json({ error: { code, message } }, status);
}

/** The origins this app answers as: its own (from Host) and PUBLIC_URL. */
export function allowedOrigins(c: Context, runtime: Runtime): Set<string> {
  const set = new Set<string>();
  const host = c.req.header("host");
  if (host) set.add(`${new URL(c.req.url).protocol}//${host}`);
  if (runtime.env.PUBLIC_URL) set.add(new URL(runtime.env.PUBLIC_URL).origin);
  return set;
}

/** Origin, or the origin of Referer, of a request (null when neither parses). */
export function requestOrigin(c: Context): string | null {
  const origin = c.req.header("origin");
  if (origin && origin !== "null") return origin;
  const referer = c.req.header("referer");
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

export function registerAccountApi(app: AnyHono, runtime: Runtime): void {
  const { guard, audit, throttle, now } = runtime.authSecurity;
  registerMfaApi(app, runtime.authSecurity);

  const headersOf = (c: Context) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, normaliseIp(c.get("clientIp") as string | undefined));
    return headers;
  };
  const ipOf = (c: Context) => normaliseIp(c.get("clientIp") as string | undefined);

  const applyCookies = (c: Context, result: GuardResult) => {
    const cookie = result.ok ? result.setCookie : result.clearCookie;
    if (cookie) c.header("Set-Cookie", cookie, { append: true });
  };

  const signedOut = (c: Context, result: GuardResult & { ok: false }) => {
    applyCookies(c, result);
    c.header("Cache-Control", "no-store");
    return c.json({ ok: false, reason: result.reason }, 401);
  };

  // State changes only from this app's pages (CSRF), on every account and admin route.
  for (const prefix of ["/api/account/*", "/api/admin/*"]) {
    app.use(prefix, async (c, next) => {
      if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.method !== "OPTIONS") {
        const origin = requestOrigin(c);
        if (!origin || !allowedOrigins(c, runtime).has(origin)) {
          return apiError(
            c,
            403,
            "FORBIDDEN_ORIGIN",
            "This request did not come from this site, so it was refused.",
          );
        }
      }
      await next();
    });
  }

  // Spec §7 "fetch current user": the server-built user context of the caller (session cookie
  // or bearer token); the caller's own data only, never tokens.
  app.get("/api/account/me", async (c) => {
    const user = await runtime.identity.resolveUser(headersOf(c));
    c.header("Cache-Control", "no-store");
    if (user.authStatus === "visitor" || !user.userId) {
      return apiError(c, 401, "UNAUTHENTICATED", "Sign in first.");
    }
    return c.json(user);
  });

  app.get("/api/account/security-check", async (c) => {
    const result = await guard.check(headersOf(c), { rotate: true });
    if (!result.ok) return signedOut(c, result);
    applyCookies(c, result);
    const claims = await claimsForUser(runtime.database.db, result.user, new Date(now()));
    const groups = claims["cognito:groups"];
    const isAdmin = rolesFromGroups(Array.isArray(groups) ? (groups as string[]) : []).includes("Admin");
    const { session } = result;
    c.header("Cache-Control", "no-store");
    return c.json({
      ok: true,
      level: securityLevel({ session, now: now(), isAdmin }),
      session: {
        id: session.id,
        createdAt: iso(session.issuedAt),
        expiresAt: iso(session.expiresAt),
        lastActiveAt: iso(session.lastActiveAt),
        rotatedAt: iso(session.rotatedAt),
      },
    });
  });

  app.post("/api/account/activity", async (c) => {
    const result = await guard.check(headersOf(c), { rotate: true, markActivity: "force" });
    if (!result.ok) return signedOut(c, result);
    applyCookies(c, result);
    c.header("Cache-Control", "no-store");
    return c.body(null, 204);
  });

  app.get("/api/account/sessions", async (c) => {
    const result = await guard.check(headersOf(c));
    if (!result.ok) return signedOut(c, result);
    const rows = await runtime.database.db
      .selectFrom("session")
      .select(["id", "createdAt", "issuedAt", "lastActiveAt", "ipAddress", "userAgent"])
      .where("userId", "=", result.user.id)
      .execute();
    const list = rows
      .map((r) => {
        const createdAt = epochOf(r.issuedAt, epochOf(r.createdAt, 0));
        return {
          id: r.id,
          createdAt: iso(createdAt),
          lastActiveAt: iso(epochOf(r.lastActiveAt, createdAt)),
          ipAddress: r.ipAddress,
          userAgent: r.userAgent,
          current: r.id === result.session.id,
        };
      })
      .sort((a, b) => b.lastActiveAt.localeCompare(a.lastActiveAt));
    c.header("Cache-Control", "no-store");
    return c.json(list);
  });

  app.delete("/api/account/sessions/:id", async (c) => {
    const result = await guard.check(headersOf(c));
    if (!result.ok) return signedOut(c, result);
    const id = c.req.param("id");
    const deleted = await runtime.database.db
      .deleteFrom("session")
      .where("id", "=", id)
      .where("userId", "=", result.user.id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) {
      return apiError(c, 404, "NOT_FOUND", "No such session on your account.");
    }
    await audit.record("session_revoked", {
      actorId: result.user.id,
      ip: ipOf(c),
      targetType: "session",
      targetId: id,
      details: { scope: id === result.session.id ? "current" : "one" },
    });
    if (id === result.session.id) c.header("Set-Cookie", guard.clearCookie, { append: true });
    c.header("Cache-Control", "no-store");
    return c.body(null, 204);
  });

  app.post("/api/account/sessions/revoke-all", async (c) => {
    const result = await guard.check(headersOf(c));
    if (!result.ok) return signedOut(c, result);
    const deleted = await runtime.database.db
      .deleteFrom("session")
      .where("userId", "=", result.user.id)
      .executeTakeFirst();
    await audit.record("session_revoked", {
      actorId: result.user.id,
      ip: ipOf(c),
      targetType: "user",
      targetId: result.user.id,
      details: { scope: "all", count: Number(deleted.numDeletedRows) },
    });
    c.header("Set-Cookie", guard.clearCookie, { append: true });
    c.header("Cache-Control", "no-store");
    return c.body(null, 204);
  });

  app.post("/api/admin/users/:userId/unlock", async (c) => {
    const actor = await runtime.identity.resolveUser(headersOf(c));
    if (actor.authStatus === "visitor" || !actor.userId) {
      return apiError(c, 401, "UNAUTHENTICATED", "Sign in first.");
    }
    const decision = adminAccess("users.unlock", toAccessContext(actor));
    if (decision.kind === "denied") {
      return decision.reason === "auth"
        ? apiError(c, 401, "UNAUTHENTICATED", decision.message)
        : apiError(c, 403, "FORBIDDEN", decision.message);
    }
    const userId = c.req.param("userId");
    const user = await runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user) return apiError(c, 404, "NOT_FOUND", "No such user.");
    // Organisation admins hold Admin (spec §6) but manage only their own organisation's members.
    const scope = decision.orgs;
    if (scope !== null) {
      const member = scope.length
        ? await runtime.database.db
            .selectFrom("user_group")
            .select("userId")
            .where("userId", "=", userId)
            .where(
              "groupName",
              "in",
              scope.map((slug) => `org-${slug}`),
            )
            .executeTakeFirst()
        : undefined;
      if (!member) return apiError(c, 404, "NOT_FOUND", "No such user.");
    }
    const unlocked = await throttle.unlockAccount(userId);
    await audit.record("admin_unlock", {
      actorId: actor.userId,
      ip: ipOf(c),
      targetType: "user",
      targetId: userId,
      details: { wasLocked: unlocked },
    });
    c.header("Cache-Control", "no-store");
    return c.json({ ok: true, userId, unlocked });
  });
}
