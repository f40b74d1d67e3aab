/**
 * Plans REST handlers (issue 13, decision 019; docs/api/plans.md). The plans service applies the
 * access rules and validates input; these handlers resolve the caller, check Origin on writes and
 * map errors through the toolkit.
 *
 * - GET    /api/plans → {plans: PlanView[]} (public: the offered plans in order)
 * - GET    /api/plans/unlocks → {unlocks: PlanUnlocks[]} (public: what each individual plan opens)
 * - GET    /api/admin/plans → {plans: AdminPlanView[]} (platform admins; archived plans too)
 * - POST   /api/admin/plans {id, name, tier, …} → 201 AdminPlanView
 * - PATCH  /api/admin/plans/{id} {version, …fields} → AdminPlanView | 409 STALE_VERSION
 * - DELETE /api/admin/plans/{id} → AdminPlanView (archived) | 409 CONFLICT for the free plan
 * - POST   /api/admin/plans/{id}/restore → AdminPlanView (offered again)
 *
 * Admin routes: a signed-in platform administrator (session cookie or this app's ID token);
 * visitors 401, everyone else (organisation admins included), API keys and service tokens 403.
 */
import type { Context, Hono } from "hono";
import { UnauthenticatedError } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import {
  createSchema as createPlanSchema,
  requirePlansAdmin,
  updateSchema as updatePlanSchema,
} from "../modules/billing/plans.service.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { actorHeaders, handler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

export const plansRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/plans",
    summary: "The offered plans, in order",
    tag: "Plans",
    access: "public",
    responses: { 200: { description: "`{plans: PlanView[]}`" } },
  },
  {
    method: "get",
    path: "/api/plans/unlocks",
    summary: "What each individual plan opens",
    tag: "Plans",
    access: "public",
    responses: { 200: { description: "`{unlocks: PlanUnlocks[]}`" } },
  },
  {
    method: "get",
    path: "/api/admin/plans",
    summary: "Every plan, archived ones too",
    tag: "Plans",
    access: "person",
    who: "platform admins",
    responses: { 200: { description: "`{plans: AdminPlanView[]}`" } },
  },
  {
    method: "post",
    path: "/api/admin/plans",
    summary: "Create a plan",
    tag: "Plans",
    access: "person",
    who: "platform admins",
    mutates: true,
    body: createPlanSchema,
    responses: { 201: { description: "AdminPlanView" } },
    errors: [409],
  },
  {
    method: "patch",
    path: "/api/admin/plans/:id",
    summary: "Change a plan (`{version, …fields}`)",
    tag: "Plans",
    access: "person",
    who: "platform admins",
    mutates: true,
    body: updatePlanSchema,
    responses: { 200: { description: "AdminPlanView" } },
    errors: [409],
  },
  {
    method: "delete",
    path: "/api/admin/plans/:id",
    summary: "Archive a plan (never the free plan)",
    tag: "Plans",
    access: "person",
    who: "platform admins",
    mutates: true,
    responses: { 200: { description: "AdminPlanView (archived)" } },
    errors: [409],
  },
  {
    method: "post",
    path: "/api/admin/plans/:id/restore",
    summary: "Offer an archived plan again",
    tag: "Plans",
    access: "person",
    who: "platform admins",
    mutates: true,
    responses: { 200: { description: "AdminPlanView" } },
  },
]);

export function registerPlansApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity"> & { services: Pick<Runtime["services"], "plans"> },
): void {
  const plans = () => runtime.services.plans;

  /** The caller: a bad credential is 401, never a visitor. */
  const actorOf = async (c: Context): Promise<Actor> => {
    const result = await runtime.identity.resolveActor(actorHeaders(c));
    if (!result.ok) throw new UnauthenticatedError(result.message);
    return result.actor;
  };

  const admin = (fn: (c: Context, actor: Actor) => Promise<Response>, opts: { mutates?: boolean } = {}) =>
    handler(runtime, async (c) => fn(c, await actorOf(c)), { ...opts, logMessage: "plans request failed" });

  const publicRead = (fn: (c: Context) => Promise<Response>) =>
    handler(runtime, async (c) => {
      const response = await fn(c);
      // The same for everyone; a price change shows within a minute.
      response.headers.set("Cache-Control", "public, max-age=60");
      return response;
    });

  app.get(
    "/api/plans",
    publicRead(async (c) => c.json({ plans: await plans().list() })),
  );

  app.get(
    "/api/plans/unlocks",
    publicRead(async (c) => c.json({ unlocks: await plans().unlocks() })),
  );

  app.get(
    "/api/admin/plans",
    admin(async (c, actor) => c.json({ plans: await plans().listAll(actor) })),
  );

  app.post(
    "/api/admin/plans",
    admin(
      async (c, actor) => {
        requirePlansAdmin(actor); // who asks is checked before the body is read
        return c.json(await plans().create(actor, await readJsonObject(c)), 201);
      },
      { mutates: true },
    ),
  );

  app.patch(
    "/api/admin/plans/:id",
    admin(
      async (c, actor) => {
        requirePlansAdmin(actor);
        return c.json(await plans().update(actor, c.req.param("id") ?? "", await readJsonObject(c)));
      },
      { mutates: true },
    ),
  );

  app.delete(
    "/api/admin/plans/:id",
    admin(async (c, actor) => c.json(await plans().archive(actor, c.req.param("id") ?? "")), {
      mutates: true,
    }),
  );

  app.post(
    "/api/admin/plans/:id/restore",
    admin(async (c, actor) => c.json(await plans().restore(actor, c.req.param("id") ?? "")), {
      mutates: true,
    }),
  );
}
