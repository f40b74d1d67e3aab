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
 * - POST /api/admin/users/{userId}/unlock [{note}] → 200 {ok:true, userId, unlocked} (permission user:manage,
 *        organisation scope: an organisation admin unlocks only its organisations' members)
 *
 * State-changing requests need an Origin (or Referer) of this app; nothing changes on GET.
 * Datetimes are ISO-8601 UTC. No token ever leaves the server.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { rolesFromGroups } from "../../core/index.ts";
import { registerMfaApi } from "../auth/mfa-api.ts";
import { type GuardResult, securityLevel } from "../auth/session-guard.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import {
  actorHeaders,
  fail,
  handler,
  ipOf,
  JSON_BODY_LIMIT,
  parseJsonObject,
  readLimited,
  refuseForeignOrigin,
} from "./toolkit.ts";

const unlockBody = z.strictObject({ note: z.string().trim().max(500).optional() });

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

const iso = (ms: number) => new Date(ms).toISOString();

/** What the account handlers use. */
export type AccountApiDeps = Pick<Runtime, "env" | "logger" | "identity" | "authSecurity" | "accounts">;

export const accountRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/account/me",
    summary: "Who the caller is (user, roles, tier)",
    tag: "Account",
    access: "session",
  },
  {
    method: "get",
    path: "/api/account/security-check",
    summary: "Check the session (may rotate its token; not counted as activity)",
    tag: "Account",
    access: "session",
    responses: {
      200: {
        description: "`{ok: true, level, session: {id, createdAt, expiresAt, lastActiveAt, rotatedAt}}`",
      },
    },
  },
  {
    method: "post",
    path: "/api/account/activity",
    summary: "Restart the idle clock",
    tag: "Account",
    access: "session",
    mutates: true,
    responses: { 204: { description: "Done." } },
  },
  {
    method: "get",
    path: "/api/account/sessions",
    summary: "The caller's sessions",
    tag: "Account",
    access: "session",
    responses: { 200: { description: "`[{id, createdAt, lastActiveAt, ipAddress, userAgent, current}]`" } },
  },
  {
    method: "delete",
    path: "/api/account/sessions/:id",
    summary: "End one of the caller's sessions",
    tag: "Account",
    access: "session",
    mutates: true,
    responses: { 204: { description: "Ended." } },
  },
  {
    method: "post",
    path: "/api/account/sessions/revoke-all",
    summary: "End every session of the caller (this one included)",
    tag: "Account",
    access: "session",
    mutates: true,
    responses: { 204: { description: "Ended." } },
  },
  {
    method: "get",
    path: "/api/account/mfa",
    summary: "Second-factor status",
    tag: "Account",
    access: "session",
  },
  {
    method: "post",
    path: "/api/admin/users/:userId/unlock",
    summary: "Unlock a locked account",
    tag: "Admin: users",
    access: "person",
    who: "permission user:manage; organisation admins for their members only",
    mutates: true,
    body: unlockBody,
    responses: { 200: { description: "`{ok: true, userId, unlocked}`" } },
  },
]);

export function registerAccountApi(app: AnyHono, deps: AccountApiDeps): void {
  const { guard, now } = deps.authSecurity;
  registerMfaApi(app, deps.authSecurity);

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
        const refused = refuseForeignOrigin(c, deps);
        if (refused) return refused;
      }
      await next();
    });
  }

  // Spec §7 "fetch current user": the server-built user context of the caller (session cookie
  // or bearer token); the caller's own data only, never tokens.
  app.get("/api/account/me", async (c) => {
    const user = await deps.identity.resolveUser(actorHeaders(c));
    c.header("Cache-Control", "no-store");
    if (user.authStatus === "visitor" || !user.userId) {
      return fail(c, 401, "UNAUTHENTICATED", "Sign in first.");
    }
    return c.json(user);
  });

  app.get("/api/account/security-check", async (c) => {
    const result = await guard.check(actorHeaders(c), { rotate: true });
    if (!result.ok) return signedOut(c, result);
    applyCookies(c, result);
    const claims = await deps.accounts.claims(result.user);
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
    const result = await guard.check(actorHeaders(c), { rotate: true, markActivity: "force" });
    if (!result.ok) return signedOut(c, result);
    applyCookies(c, result);
    c.header("Cache-Control", "no-store");
    return c.body(null, 204);
  });

  /**
   * The caller's actor from the session cookie (session rules applied; a cookie that no longer
   * works is cleared). The session operations refuse anyone not signed in (401).
   */
  const sessionActor = async (c: Context) => {
    const resolved = await deps.identity.resolveRequest(actorHeaders(c));
    if (resolved.setCookie) c.header("Set-Cookie", resolved.setCookie, { append: true });
    return resolved.actor;
  };

  app.get(
    "/api/account/sessions",
    handler(deps, async (c) => c.json(await deps.accounts.listSessions(await sessionActor(c)))),
  );

  app.delete(
    "/api/account/sessions/:id",
    handler(deps, async (c) => {
      const actor = await sessionActor(c);
      const id = c.req.param("id") ?? "";
      await deps.accounts.revokeSession(actor, id, { ip: ipOf(c) });
      if (id === actor.context.session?.sessionId)
        c.header("Set-Cookie", guard.clearCookie, { append: true });
      return c.body(null, 204);
    }),
  );

  app.post(
    "/api/account/sessions/revoke-all",
    handler(deps, async (c) => {
      await deps.accounts.revokeAllSessions(await sessionActor(c), { ip: ipOf(c) });
      c.header("Set-Cookie", guard.clearCookie, { append: true });
      return c.body(null, 204);
    }),
  );

  app.post(
    "/api/admin/users/:userId/unlock",
    handler(deps, async (c) => {
      if (c.req.header("authorization") !== undefined || c.req.header("x-api-key") !== undefined) {
        return fail(
          c,
          403,
          "FORBIDDEN",
          "Accounts are unlocked by a signed-in administrator: API keys and tokens are refused.",
        );
      }
      const actor = await deps.identity.resolveSessionActor(actorHeaders(c));
      // An optional JSON body {note} (the admin's reason, kept in the audit row).
      const bytes = await readLimited(c.req.raw, JSON_BODY_LIMIT);
      const body = bytes && bytes.byteLength > 0 ? parseJsonObject(bytes) : {};
      const note = unlockBody.safeParse(body);
      if (!note.success)
        return fail(c, 400, "BAD_USER_INPUT", "Invalid note: at most 500 characters.", {
          note: "at most 500 characters",
        });
      const result = await deps.accounts.unlock(actor, c.req.param("userId") ?? "", {
        ip: ipOf(c),
        note: note.data.note || undefined,
      });
      return c.json({ ok: true, ...result });
    }),
  );
}
