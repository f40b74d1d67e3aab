/**
 * Users admin REST handlers (issue 14; docs/api/admin-users.md). The service
 * (server/modules/users-admin) checks access (`users.*` admin operations: platform admins, and
 * organisation admins for their own members only) and validates; these handlers resolve the
 * caller, check Origin on writes and map errors.
 *
 * - GET  /api/admin/users?q=&tier=&group=&status=&organisation=&mfa=&sort=&dir=&page=&limit=
 *        → { items, total, page, pageSize, pages }
 * - GET  /api/admin/users/:id → the user page (AdminUserDetail)
 * - POST /api/admin/users/:id/groups {add?, remove?, note?} → { groups }
 * - POST /api/admin/users/:id/sessions/revoke-all {note?} → { revoked }
 * - POST /api/admin/users/:id/sessions/:sessionId/revoke {note?} → { revoked }
 * - POST /api/admin/users/:id/mfa/reset {note?} → { ok }
 * - POST /api/admin/users/:id/api-keys/:keyId/revoke {note?} → { ok }
 * - POST /api/admin/users/:id/suspend {note?} · /reinstate {note?} → { isActive }
 * - POST /api/admin/users/:id/delete {confirm: <the user's e-mail>, note?} → { deleted }
 * - POST /api/admin/users/:id/unlock {note?}: account-api.ts (accounts.unlock)
 *
 * Visitors 401; API keys and service tokens 403; non-admins 403; a user outside an organisation
 * admin's organisations 404.
 */
import type { Context, Hono } from "hono";
import type { Actor } from "../modules/actor.ts";
import type { UsersAdminService } from "../modules/users-admin/users-admin.service.ts";
import { deleteSchema, groupsSchema } from "../modules/users-admin/users-admin.service.ts";
import { userListQuerySchema } from "../modules/users-admin/users-admin.types.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

type Deps = Pick<Runtime, "env" | "logger" | "identity"> & {
  services: { usersAdmin: UsersAdminService };
};

const usersRoute = routeGroup({
  tag: "Admin: users",
  access: "person",
  who: "platform admins; organisation admins for their own members (others: 404)",
});
const noteBody = { rawBody: { contentType: "application/json", description: "`{note?}`" } };

export const adminUsersRoutes = defineRoutes([
  usersRoute("get", "/api/admin/users", "Users", "`{items, total, page, pageSize, pages}`", {
    query: userListQuerySchema,
  }),
  usersRoute("get", "/api/admin/users/:id", "A user's page", "AdminUserDetail"),
  usersRoute(
    "post",
    "/api/admin/users/:id/groups",
    "Change a user's groups (`{add?, remove?, note?}`)",
    "`{groups}`",
    { body: groupsSchema },
  ),
  usersRoute(
    "post",
    "/api/admin/users/:id/sessions/revoke-all",
    "End all of a user's sessions",
    "`{revoked}`",
    noteBody,
  ),
  usersRoute(
    "post",
    "/api/admin/users/:id/sessions/:sessionId/revoke",
    "End one session",
    "`{revoked}`",
    noteBody,
  ),
  usersRoute("post", "/api/admin/users/:id/mfa/reset", "Reset a user's second factor", "`{ok}`", noteBody),
  usersRoute(
    "post",
    "/api/admin/users/:id/api-keys/:keyId/revoke",
    "Revoke a user's API key",
    "`{ok}`",
    noteBody,
  ),
  usersRoute("post", "/api/admin/users/:id/suspend", "Suspend a user", "`{isActive}`", noteBody),
  usersRoute("post", "/api/admin/users/:id/reinstate", "Reinstate a user", "`{isActive}`", noteBody),
  usersRoute(
    "post",
    "/api/admin/users/:id/delete",
    "Delete a user (`{confirm: <the user's e-mail>, note?}`)",
    "`{deleted}`",
    { body: deleteSchema },
  ),
]);

export function registerAdminUsersApi(app: AnyHono, runtime: Deps): void {
  const users = () => runtime.services.usersAdmin;
  const handle = (fn: (c: Context, actor: Actor) => Promise<Response>, mutates: boolean) =>
    personHandler(runtime, fn, {
      mutates,
      signIn: "Sign in as an administrator.",
      notAPerson: "Users are managed by a signed-in administrator: API keys and service tokens are refused.",
      logMessage: "admin users request failed",
    });
  const write = (
    fn: (c: Context, actor: Actor, id: string, body: Record<string, unknown>) => Promise<unknown>,
  ) =>
    handle(async (c, actor) => {
      if (actor.kind === "visitor")
        return c.json({ error: { code: "UNAUTHENTICATED", message: "Sign in first." } }, 401);
      const body = await readJsonObject(c);
      return c.json(await fn(c, actor, c.req.param("id") ?? "", body));
    }, true);

  app.get(
    "/api/admin/users",
    handle(async (c, actor) => c.json(await users().list(actor, c.req.query())), false),
  );
  app.get(
    "/api/admin/users/:id",
    handle(async (c, actor) => c.json(await users().detail(actor, c.req.param("id") ?? "")), false),
  );
  app.post(
    "/api/admin/users/:id/groups",
    write((_c, actor, id, body) => users().changeGroups(actor, id, body)),
  );
  app.post(
    "/api/admin/users/:id/sessions/revoke-all",
    write((_c, actor, id, body) => users().revokeSessions(actor, id, null, body)),
  );
  app.post(
    "/api/admin/users/:id/sessions/:sessionId/revoke",
    write((c, actor, id, body) => users().revokeSessions(actor, id, c.req.param("sessionId") ?? "", body)),
  );
  app.post(
    "/api/admin/users/:id/mfa/reset",
    write((_c, actor, id, body) => users().resetMfa(actor, id, body)),
  );
  app.post(
    "/api/admin/users/:id/api-keys/:keyId/revoke",
    write((c, actor, id, body) => users().revokeApiKey(actor, id, c.req.param("keyId") ?? "", body)),
  );
  app.post(
    "/api/admin/users/:id/suspend",
    write((_c, actor, id, body) => users().setActive(actor, id, false, body)),
  );
  app.post(
    "/api/admin/users/:id/reinstate",
    write((_c, actor, id, body) => users().setActive(actor, id, true, body)),
  );
  app.post(
    "/api/admin/users/:id/delete",
    write((_c, actor, id, body) => users().deleteUser(actor, id, body)),
  );
}
