/**
 * The platform owner's security console over REST (issue 14; docs/api/security-admin.md). The
 * security-admin service checks access (core/admin-scope.ts, scope `owner`: app-owner only),
 * validates and audits; these handlers resolve the caller, check Origin on cookie writes, check
 * who asks before reading a body, and map errors through the toolkit.
 *
 * - GET  /api/admin/security → SecurityOverview (counts, lockouts, MFA adoption, policy, events)
 * - GET  /api/admin/security/sessions?email=&page= → SessionsPage (active sessions, 25 a page)
 * - POST /api/admin/security/sessions/:id/revoke {note?} → {userId}
 * - POST /api/admin/security/users/:id/sessions/revoke {note?} → {userId, revoked}
 * - GET  /api/admin/security/lockouts → Lockout[]
 * - POST /api/admin/security/lockouts/clear {key, note?} → {key, cleared}
 * - GET  /api/admin/security/credentials → CredentialView[] (with the creator's e-mail)
 * - POST /api/admin/service-credentials/:id/rotate → {…credential, clientSecret} (shown once)
 *
 * Visitors 401; everyone but the platform owner (app-admin and organisation admins included),
 * API keys and service tokens 403; a foreign Origin 403; unknown ids 404.
 */
import type { Context, Hono } from "hono";
import type { Actor } from "../modules/actor.ts";
import {
  clearBody,
  requireSecurityAdmin,
  sessionsQuery,
} from "../modules/security-admin/security-admin.service.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { ipOf, personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

type Deps = Pick<Runtime, "env" | "logger" | "identity"> & {
  services: Pick<Runtime["services"], "securityAdmin">;
};

/** An optional JSON body: none (or an empty one) is `{}`; otherwise a JSON object. */
async function optionalBody(c: Context): Promise<Record<string, unknown>> {
  const length = c.req.header("content-length");
  if (length === "0" || (!c.req.raw.body && length === undefined)) return {};
  return readJsonObject(c);
}

const securityRoute = routeGroup({ tag: "Admin: security", access: "person", who: "the platform owner" });
const noteBody = { rawBody: { contentType: "application/json", description: "`{note?}`" } };

export const securityAdminRoutes = defineRoutes([
  securityRoute(
    "get",
    "/api/admin/security",
    "Security overview (counts, lockouts, MFA adoption, policy, events)",
    "SecurityOverview",
  ),
  securityRoute("get", "/api/admin/security/sessions", "Active sessions (25 a page)", "SessionsPage", {
    query: sessionsQuery,
  }),
  securityRoute("post", "/api/admin/security/sessions/:id/revoke", "End a session", "`{userId}`", noteBody),
  securityRoute(
    "post",
    "/api/admin/security/users/:id/sessions/revoke",
    "End all of a user's sessions",
    "`{userId, revoked}`",
    noteBody,
  ),
  securityRoute("get", "/api/admin/security/lockouts", "Sign-in lockouts", "Lockout[]"),
  securityRoute(
    "post",
    "/api/admin/security/lockouts/clear",
    "Clear a lockout (`{key, note?}`)",
    "`{key, cleared}`",
    { body: clearBody },
  ),
  securityRoute(
    "get",
    "/api/admin/security/credentials",
    "Service credentials with their creators",
    "CredentialView[]",
  ),
  securityRoute(
    "post",
    "/api/admin/service-credentials/:id/rotate",
    "Rotate a service credential's secret (shown once)",
    "`{…credential, clientSecret}`",
  ),
]);

export function registerSecurityAdminApi(app: AnyHono, runtime: Deps): void {
  const security = () => runtime.services.securityAdmin;
  const handle = (fn: (c: Context, actor: Actor) => Promise<Response>, mutates: boolean) =>
    personHandler(runtime, fn, {
      mutates,
      signIn: "Sign in as the platform owner.",
      notAPerson:
        "The security console is for the signed-in platform owner: API keys and service tokens are refused.",
      logMessage: "security admin request failed",
    });
  /** Who asks is checked before the body is read. */
  const write = (
    operation: Parameters<typeof requireSecurityAdmin>[1],
    fn: (c: Context, actor: Actor, body: Record<string, unknown>) => Promise<Response>,
  ) =>
    handle(async (c, actor) => {
      requireSecurityAdmin(actor, "security.read");
      requireSecurityAdmin(actor, operation);
      return fn(c, actor, await optionalBody(c));
    }, true);
  const meta = (c: Context) => ({ ip: ipOf(c) || null });

  app.get(
    "/api/admin/security",
    handle(async (c, actor) => c.json(await security().overview(actor)), false),
  );
  app.get(
    "/api/admin/security/sessions",
    handle(async (c, actor) => c.json(await security().listSessions(actor, c.req.query())), false),
  );
  app.post(
    "/api/admin/security/sessions/:id/revoke",
    write("security.sessions.revoke", async (c, actor, body) =>
      c.json(await security().revokeSession(actor, c.req.param("id") ?? "", body, meta(c))),
    ),
  );
  app.post(
    "/api/admin/security/users/:id/sessions/revoke",
    write("security.sessions.revoke", async (c, actor, body) =>
      c.json(await security().revokeUserSessions(actor, c.req.param("id") ?? "", body, meta(c))),
    ),
  );
  app.get(
    "/api/admin/security/lockouts",
    handle(async (c, actor) => c.json(await security().listLockouts(actor)), false),
  );
  app.post(
    "/api/admin/security/lockouts/clear",
    write("security.lockouts.clear", async (c, actor, body) =>
      c.json(await security().clearLockout(actor, body, meta(c))),
    ),
  );
  app.get(
    "/api/admin/security/credentials",
    handle(async (c, actor) => c.json(await security().listCredentials(actor)), false),
  );
  app.post(
    "/api/admin/service-credentials/:id/rotate",
    write("service-credentials.rotate", async (c, actor) => {
      const rotated = await security().rotateCredential(actor, c.req.param("id") ?? "", meta(c));
      c.header("Cache-Control", "no-store");
      return c.json(rotated);
    }),
  );
}
