/**
 * Admin subscriptions REST handlers (issue 14; docs/api/admin-subscriptions.md). The billing
 * service (billing-admin.ts) checks access (`subscriptions.manage`: platform admins) and
 * validates; these handlers resolve the caller, check Origin on cookie writes and map errors.
 *
 * - GET  /api/admin/subscriptions?tier=&plan=&status=&source=&owner=&q=&endingBefore=&cursor=&limit=
 *        → { items, nextCursor, summary }
 * - POST /api/admin/subscriptions {email, planId, days | until, note} → 201 AdminSubscriptionView
 * - POST /api/admin/subscriptions/:id/extend {version, days | until, note} → AdminSubscriptionView
 * - POST /api/admin/subscriptions/:id/cancel {version, when: period_end | now, note} → AdminSubscriptionView
 *
 * Visitors 401; API keys and service tokens 403; everyone but platform admins (organisation
 * admins included) 403; a stale `version` 409 STALE_VERSION.
 */
import type { Context, Hono } from "hono";
import type { Actor } from "../modules/actor.ts";
import {
  cancelSchema,
  extendSchema,
  grantSchema,
  listQuerySchema,
  requireSubscriptionsAdmin,
} from "../modules/billing/billing-admin.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

type Deps = Pick<Runtime, "env" | "logger" | "identity"> & {
  services: Pick<Runtime["services"], "billing">;
};

const subscriptionsRoute = routeGroup({
  tag: "Admin: subscriptions",
  access: "person",
  who: "platform admins",
});

export const adminSubscriptionsRoutes = defineRoutes([
  subscriptionsRoute("get", "/api/admin/subscriptions", "Subscriptions", "`{items, nextCursor, summary}`", {
    query: listQuerySchema,
  }),
  subscriptionsRoute("post", "/api/admin/subscriptions", "Grant a subscription", undefined, {
    body: grantSchema,
    responses: { 201: { description: "AdminSubscriptionView" } },
  }),
  subscriptionsRoute(
    "post",
    "/api/admin/subscriptions/:id/extend",
    "Extend a subscription",
    "AdminSubscriptionView",
    {
      body: extendSchema,
      errors: [409],
    },
  ),
  subscriptionsRoute(
    "post",
    "/api/admin/subscriptions/:id/cancel",
    "Cancel a subscription",
    "AdminSubscriptionView",
    {
      body: cancelSchema,
      errors: [409],
    },
  ),
]);

export function registerAdminSubscriptionsApi(app: AnyHono, runtime: Deps): void {
  const billing = () => runtime.services.billing;
  const handle = (fn: (c: Context, actor: Actor) => Promise<Response>, mutates: boolean) =>
    personHandler(runtime, fn, {
      mutates,
      signIn: "Sign in as a platform administrator.",
      notAPerson:
        "Subscriptions are managed by a signed-in platform administrator: API keys and service tokens are refused.",
      logMessage: "admin subscriptions request failed",
    });
  /** Who asks is checked before the body is read. */
  const write = (fn: (c: Context, actor: Actor, body: Record<string, unknown>) => Promise<Response>) =>
    handle(async (c, actor) => {
      requireSubscriptionsAdmin(actor);
      return fn(c, actor, await readJsonObject(c));
    }, true);

  app.get(
    "/api/admin/subscriptions",
    handle(async (c, actor) => c.json(await billing().listSubscriptions(actor, c.req.query())), false),
  );
  app.post(
    "/api/admin/subscriptions",
    write(async (c, actor, body) => c.json(await billing().grant(actor, body), 201)),
  );
  app.post(
    "/api/admin/subscriptions/:id/extend",
    write(async (c, actor, body) => c.json(await billing().extend(actor, c.req.param("id") ?? "", body))),
  );
  app.post(
    "/api/admin/subscriptions/:id/cancel",
    write(async (c, actor, body) =>
      c.json(await billing().adminCancel(actor, c.req.param("id") ?? "", body)),
    ),
  );
}
