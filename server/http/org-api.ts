/**
 * Organisation REST handlers (issue 3 item 9). Access rules live in the organisations service;
 * these handlers resolve the actor, check Origin on state changes, validate bodies and map errors.
 *
 * - POST   /api/org {name, domain?} → 201 {organization}: a signed-in user in no organisation
 *          creates one and becomes its admin; 409 when they already belong to one; API keys and
 *          service tokens 403
 * - GET    /api/orgs/mine → {organization} | 404 (not in an organisation)
 * - GET    /api/orgs/{slug} → {organization} (members, its admins, app-admin/app-owner; else 404)
 * - PATCH  /api/orgs/{slug} {name, domain?} → {organization} (org admins only)
 * - GET    /api/orgs/{slug}/members → {members, invitations} (org admins, app-admin/app-owner)
 * - POST   /api/orgs/{slug}/invitations {email, role?} → 201 {invitation} | 409 NO_SEATS
 * - DELETE /api/orgs/{slug}/invitations/{id} → 204 (a pending invitation: its seat is free again)
 * - DELETE /api/orgs/{slug}/members/{userId} → 204 (never the last admin)
 * - GET    /api/account/invitations → {invitations} (pending, for the caller's e-mail; no tokens)
 * - GET    /api/account/invitations/preview?token=… → {organizationName, role, expiresAt, state}
 * - POST   /api/account/invitations/accept {token} → {organization, role}
 *
 * Errors: the REST envelope `{error: {code, message, field?}}`, 4xx for every bad request.
 */
import type { Context, Hono } from "hono";
import type { Actor } from "../modules/actor.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import {
  actorHeaders,
  fail,
  type HandlerDeps,
  handler,
  ipOf,
  personHandler,
  readJsonObject,
} from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

/** What the account and organisation handlers use. */
export type UserHandlerDeps = HandlerDeps & Pick<Runtime, "identity">;

/**
 * The wrapper of the signed-in user's account and organisation handlers: resolves the actor,
 * answers `no-store`, refuses state changes from another Origin and maps errors (the toolkit's
 * `handler`).
 */
export function userHandler(deps: UserHandlerDeps) {
  const actorOf = (c: Context): Promise<Actor> => deps.identity.resolveSessionActor(actorHeaders(c));
  return (fn: (c: Context, actor: Actor) => Promise<Response>, opts: { mutates?: boolean } = {}) =>
    handler(deps, async (c) => fn(c, await actorOf(c)), opts);
}

export const orgRoutes = defineRoutes([
  {
    method: "post",
    path: "/api/org",
    summary: "Create an organisation (`{name, domain?}`); the caller becomes its admin",
    tag: "Organisations",
    access: "person",
    mutates: true,
    rawBody: { contentType: "application/json", description: "`{name, domain?}`" },
    responses: { 201: { description: "`{organization}`" } },
    errors: [409],
  },
  {
    method: "get",
    path: "/api/orgs/mine",
    summary: "The caller's organisation",
    tag: "Organisations",
    access: "session",
    responses: { 200: { description: "`{organization}`" } },
    errors: [404],
  },
  {
    method: "get",
    path: "/api/orgs/:slug",
    summary: "An organisation",
    tag: "Organisations",
    access: "session",
    who: "its members, or platform admins",
    responses: { 200: { description: "`{organization}`" } },
  },
  {
    method: "patch",
    path: "/api/orgs/:slug",
    summary: "Change an organisation (`{name, domain?}`)",
    tag: "Organisations",
    access: "session",
    who: "the organisation's admins",
    mutates: true,
    rawBody: { contentType: "application/json", description: "`{name, domain?}`" },
    responses: { 200: { description: "`{organization}`" } },
  },
  {
    method: "get",
    path: "/api/orgs/:slug/members",
    summary: "Members and pending invitations",
    tag: "Organisations",
    access: "session",
    who: "the organisation's admins, or platform admins",
    responses: { 200: { description: "`{members, invitations}`" } },
  },
  {
    method: "post",
    path: "/api/orgs/:slug/invitations",
    summary: "Invite someone (`{email, role?}`)",
    tag: "Organisations",
    access: "session",
    who: "the organisation's admins",
    mutates: true,
    rawBody: { contentType: "application/json", description: "`{email, role?}`" },
    responses: { 201: { description: "`{invitation}`" } },
    errors: [409],
  },
  {
    method: "delete",
    path: "/api/orgs/:slug/invitations/:id",
    summary: "Withdraw a pending invitation",
    tag: "Organisations",
    access: "session",
    who: "the organisation's admins",
    mutates: true,
    responses: { 204: { description: "Withdrawn." } },
  },
  {
    method: "delete",
    path: "/api/orgs/:slug/members/:userId",
    summary: "Remove a member (never the last admin)",
    tag: "Organisations",
    access: "session",
    who: "the organisation's admins",
    mutates: true,
    responses: { 204: { description: "Removed." } },
    errors: [409],
  },
  {
    method: "get",
    path: "/api/account/invitations",
    summary: "Pending invitations for the caller's e-mail",
    tag: "Organisations",
    access: "session",
    responses: { 200: { description: "`{invitations}`" } },
  },
  {
    method: "get",
    path: "/api/account/invitations/preview",
    summary: "What an invitation link offers (`?token=`)",
    tag: "Organisations",
    access: "session",
    responses: { 200: { description: "`{organizationName, role, expiresAt, state}`" } },
  },
  {
    method: "post",
    path: "/api/account/invitations/accept",
    summary: "Accept an invitation (`{token}`)",
    tag: "Organisations",
    access: "session",
    mutates: true,
    rawBody: { contentType: "application/json", description: "`{token}`" },
    responses: { 200: { description: "`{organization, role}`" } },
    errors: [409],
  },
]);

export function registerOrgApi(
  app: AnyHono,
  deps: UserHandlerDeps & { services: Pick<Runtime["services"], "organizations"> },
): void {
  const orgs = () => deps.services.organizations;
  const handle = userHandler(deps);

  const withJson = (fn: (c: Context, actor: Actor, body: unknown) => Promise<Response>) =>
    handle(async (c, actor) => fn(c, actor, await readJsonObject(c)), { mutates: true });

  // A person creates an organisation: a cookie session (same Origin) or a bearer ID token; API
  // keys and service tokens act for no person and are refused.
  app.post(
    "/api/org",
    personHandler(
      deps,
      async (c, actor) => {
        const organization = await orgs().create(actor, await readJsonObject(c), { ip: ipOf(c) });
        return c.json({ organization }, 201);
      },
      {
        mutates: true,
        signIn: "Sign in first.",
        notAPerson:
          "An organisation is created by a signed-in person: use a session or an ID token, not an API key or service token.",
      },
    ),
  );

  app.get(
    "/api/orgs/mine",
    handle(async (c, actor) => {
      const organization = await orgs().mine(actor);
      if (!organization) {
        if (actor.kind === "visitor") return fail(c, 401, "UNAUTHENTICATED", "Sign in first.");
        return fail(c, 404, "NOT_FOUND", "You do not belong to an organisation.");
      }
      return c.json({ organization });
    }),
  );

  app.get(
    "/api/orgs/:slug",
    handle(async (c, actor) => c.json({ organization: await orgs().get(actor, c.req.param("slug") ?? "") })),
  );

  app.patch(
    "/api/orgs/:slug",
    withJson(async (c, actor, body) =>
      c.json({ organization: await orgs().update(actor, c.req.param("slug") ?? "", body, { ip: ipOf(c) }) }),
    ),
  );

  app.get(
    "/api/orgs/:slug/members",
    handle(async (c, actor) => {
      const slug = c.req.param("slug") ?? "";
      const members = await orgs().listMembers(actor, slug);
      const invitations = await orgs().listPendingInvitations(actor, slug);
      return c.json({ members, invitations });
    }),
  );

  app.post(
    "/api/orgs/:slug/invitations",
    withJson(async (c, actor, body) => {
      const invitation = await orgs().invite(actor, c.req.param("slug") ?? "", body, { ip: ipOf(c) });
      return c.json({ invitation }, 201);
    }),
  );

  app.delete(
    "/api/orgs/:slug/invitations/:id",
    handle(
      async (c, actor) => {
        await orgs().cancelInvitation(actor, c.req.param("slug") ?? "", c.req.param("id") ?? "", {
          ip: ipOf(c),
        });
        return c.body(null, 204);
      },
      { mutates: true },
    ),
  );

  app.delete(
    "/api/orgs/:slug/members/:userId",
    handle(
      async (c, actor) => {
        await orgs().removeMember(actor, c.req.param("slug") ?? "", c.req.param("userId") ?? "", {
          ip: ipOf(c),
        });
        return c.body(null, 204);
      },
      { mutates: true },
    ),
  );

  app.get(
    "/api/account/invitations",
    handle(async (c, actor) => c.json({ invitations: await orgs().myInvitations(actor) })),
  );

  app.get(
    "/api/account/invitations/preview",
    handle(async (c, actor) => c.json(await orgs().previewInvitation(actor, c.req.query("token") ?? ""))),
  );

  app.post(
    "/api/account/invitations/accept",
    withJson(async (c, actor, body) => c.json(await orgs().accept(actor, body, { ip: ipOf(c) }))),
  );
}
