/**
 * Webhooks REST handlers (decision 037), behind /admin/webhooks. Platform administrators only
 * (`adminAccess("webhooks.manage")`): visitors 401; readers, writers, managers and organisation
 * admins 403; API keys and service tokens 403. Bad input: 400 naming the field.
 *
 * - GET    /api/admin/webhooks                         → {items: WebhookEndpoint[], events}
 * - POST   /api/admin/webhooks {url, events[], description?, enabled?}
 *                                                      → 201 {endpoint, secret} (the secret, once)
 * - GET    /api/admin/webhooks/:id                     → WebhookEndpoint
 * - PATCH  /api/admin/webhooks/:id {url?, events?, description?, enabled?} → WebhookEndpoint
 * - DELETE /api/admin/webhooks/:id                     → 204 (its deliveries go with it)
 * - POST   /api/admin/webhooks/:id/rotate-secret       → {endpoint, secret} (the new secret, once)
 * - POST   /api/admin/webhooks/:id/test                → 202 WebhookDelivery (a webhook.test event)
 * - GET    /api/admin/webhooks/:id/deliveries?before&limit&status → {items, nextBefore}
 * - GET    /api/admin/webhooks/deliveries/:deliveryId  → WebhookDelivery
 * - POST   /api/admin/webhooks/deliveries/:deliveryId/replay → 202 WebhookDelivery (same event id)
 */
import type { Context, Hono } from "hono";
import { BadInputError } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhooksService,
  webhookCreateSchema,
  webhookUpdateSchema,
} from "../modules/webhooks/webhooks.service.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes, routeGroup } from "./openapi-registry.ts";
import { ipOf, personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

type Deps = Pick<Runtime, "env" | "logger" | "identity"> & { services: { webhooks: WebhooksService } };

const param = (c: Context, name: string) => c.req.param(name) ?? "";

const webhookRoute = routeGroup({
  tag: "Admin: webhooks",
  access: "person",
  who: "platform admins",
  errors: [400, 404],
});

export const webhooksRoutes = defineRoutes([
  webhookRoute(
    "get",
    "/api/admin/webhooks",
    "The webhook endpoints and the events they may subscribe to",
    "`{items: WebhookEndpoint[], events: {name, label}[]}`",
  ),
  webhookRoute(
    "post",
    "/api/admin/webhooks",
    "Add an endpoint; its signing secret is in this answer only",
    undefined,
    {
      body: webhookCreateSchema,
      responses: { 201: { description: "`{endpoint, secret}`" } },
    },
  ),
  webhookRoute(
    "get",
    "/api/admin/webhooks/deliveries/:deliveryId",
    "One delivery with its attempts",
    "`WebhookDelivery`",
  ),
  webhookRoute(
    "post",
    "/api/admin/webhooks/deliveries/:deliveryId/replay",
    "Send a delivery again (same event id and body)",
    undefined,
    {
      responses: { 202: { description: "`WebhookDelivery`" } },
    },
  ),
  webhookRoute("get", "/api/admin/webhooks/:id", "One endpoint", "`WebhookEndpoint`"),
  webhookRoute(
    "patch",
    "/api/admin/webhooks/:id",
    "Change an endpoint's address, events, description or state",
    "`WebhookEndpoint`",
    {
      body: webhookUpdateSchema,
    },
  ),
  webhookRoute("delete", "/api/admin/webhooks/:id", "Delete an endpoint and its deliveries", undefined, {
    responses: { 204: { description: "Deleted" } },
  }),
  webhookRoute(
    "post",
    "/api/admin/webhooks/:id/rotate-secret",
    "A new signing secret (in this answer only); the old one stops at once",
    "`{endpoint, secret}`",
  ),
  webhookRoute(
    "post",
    "/api/admin/webhooks/:id/test",
    "Queue a `webhook.test` event to the endpoint",
    undefined,
    {
      responses: { 202: { description: "`WebhookDelivery`" } },
    },
  ),
  webhookRoute(
    "get",
    "/api/admin/webhooks/:id/deliveries",
    "The endpoint's delivery log, newest first (`?before&limit&status`)",
    "`{items: WebhookDelivery[], nextBefore}`",
  ),
]);

export function registerWebhooksApi(app: AnyHono, runtime: Deps): void {
  const webhooks = () => runtime.services.webhooks;
  const handle = (mutates: boolean, fn: (c: Context, actor: Actor) => Promise<Response>) =>
    personHandler(runtime, fn, {
      mutates,
      signIn: "Sign in as a platform administrator to manage webhooks.",
      notAPerson:
        "Webhooks are managed by a signed-in platform administrator; API keys and service tokens cannot manage them.",
      logMessage: "webhooks request failed",
    });
  const meta = (c: Context) => ({ ip: ipOf(c) || null });
  const events = WEBHOOK_EVENTS.map((name) => ({ name, label: WEBHOOK_EVENT_LABELS[name] }));

  app.get(
    "/api/admin/webhooks",
    handle(false, async (c, actor) => c.json({ items: await webhooks().list(actor), events })),
  );
  app.post(
    "/api/admin/webhooks",
    handle(true, async (c, actor) => {
      // Who asks is checked before the body is read.
      await webhooks().list(actor);
      return c.json(await webhooks().create(actor, await readJsonObject(c), meta(c)), 201);
    }),
  );
  app.get(
    "/api/admin/webhooks/deliveries/:deliveryId",
    handle(false, async (c, actor) => c.json(await webhooks().delivery(actor, param(c, "deliveryId")))),
  );
  app.post(
    "/api/admin/webhooks/deliveries/:deliveryId/replay",
    handle(true, async (c, actor) => c.json(await webhooks().replay(actor, param(c, "deliveryId")), 202)),
  );
  app.get(
    "/api/admin/webhooks/:id",
    handle(false, async (c, actor) => c.json(await webhooks().get(actor, param(c, "id")))),
  );
  app.patch(
    "/api/admin/webhooks/:id",
    handle(true, async (c, actor) => {
      await webhooks().get(actor, param(c, "id"));
      return c.json(await webhooks().update(actor, param(c, "id"), await readJsonObject(c), meta(c)));
    }),
  );
  app.delete(
    "/api/admin/webhooks/:id",
    handle(true, async (c, actor) => {
      await webhooks().delete(actor, param(c, "id"), meta(c));
      return c.body(null, 204);
    }),
  );
  app.post(
    "/api/admin/webhooks/:id/rotate-secret",
    handle(true, async (c, actor) => c.json(await webhooks().rotateSecret(actor, param(c, "id"), meta(c)))),
  );
  app.post(
    "/api/admin/webhooks/:id/test",
    handle(true, async (c, actor) => c.json(await webhooks().sendTest(actor, param(c, "id")), 202)),
  );
  app.get(
    "/api/admin/webhooks/:id/deliveries",
    handle(false, async (c, actor) => {
      const params = new URL(c.req.url).searchParams;
      const limitText = params.get("limit");
      if (limitText !== null && !/^\d{1,3}$/.test(limitText))
        throw new BadInputError("limit: a whole number from 1 to 100", {
          field: { limit: "a whole number from 1 to 100" },
        });
      return c.json(
        await webhooks().deliveries(actor, param(c, "id"), {
          before: params.get("before"),
          limit: limitText === null ? null : Number(limitText),
          status: params.get("status"),
        }),
      );
    }),
  );
}
