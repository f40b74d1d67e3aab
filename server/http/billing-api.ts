/**
 * Billing REST handlers (issue 13, decision 019; docs/api/billing.md). The rules live in the
 * billing service; these handlers resolve the actor, refuse foreign Origins on cookie-authenticated
 * state changes (CSRF), read bodies and map errors.
 *
 * - GET  /api/billing/subscription → SubscriptionOverview
 * - POST /api/billing/checkout {planId, interval, seats?, returnTo?} → 201 CheckoutView
 * - GET  /api/billing/checkout/{id} → CheckoutView (own only)
 * - POST /api/billing/checkout/{id}/confirm → CheckoutView
 * - POST /api/billing/checkout/{id}/cancel → CheckoutView
 * - POST /api/billing/change {planId, interval, seats?, version} → SubscriptionOverview
 * - POST /api/billing/cancel {version} · /resume {version} · /seats {seats, version} → SubscriptionOverview
 * - POST /api/billing/portal {returnTo?} → {url}; manual → 409
 * - GET  /api/billing/invoices → {invoices}
 * - POST /api/billing/webhooks/stripe (raw body, Stripe-Signature; no session, no Origin check, 1 MB)
 * - GET  /api/admin/billing/checkouts?status= → {checkouts} (platform admins)
 * - POST /api/admin/billing/checkouts/{id}/approve → CheckoutView (platform admins)
 *
 * Signed-in readers only (cookie session or bearer ID token): visitors 401; API keys and service
 * tokens 403. Errors: the REST envelope `{error: {code, message, field?}}`.
 */
import type { Context, Hono } from "hono";
import { PayloadTooLargeError } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import type { Runtime } from "../runtime.ts";
import type { ApiRoute } from "./openapi-registry.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { fail, personHandler, readJsonObject, readLimited, sendError, tooLargeMessage } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

/** Stripe's events are small; anything past this is not one. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

type BillingDeps = Pick<Runtime, "env" | "logger" | "identity"> & {
  services: Pick<Runtime["services"], "billing">;
};

const billingRoute = (
  method: "get" | "post",
  path: string,
  summary: string,
  response: string,
  extra: Partial<ApiRoute> = {},
): ApiRoute => ({
  method,
  path,
  summary,
  tag: "Billing",
  access: "person",
  mutates: method === "post",
  responses: { 200: { description: response } },
  ...extra,
});

export const billingRoutes = defineRoutes([
  billingRoute("get", "/api/billing/subscription", "The caller's subscription", "SubscriptionOverview"),
  billingRoute(
    "post",
    "/api/billing/checkout",
    "Start a checkout (`{planId, interval, seats?, returnTo?}`)",
    "",
    {
      rawBody: { contentType: "application/json", description: "`{planId, interval, seats?, returnTo?}`" },
      responses: { 201: { description: "CheckoutView" } },
      errors: [409],
    },
  ),
  billingRoute("get", "/api/billing/checkout/:id", "A checkout of the caller's", "CheckoutView"),
  billingRoute("post", "/api/billing/checkout/:id/confirm", "Confirm a checkout", "CheckoutView", {
    errors: [409],
  }),
  billingRoute("post", "/api/billing/checkout/:id/cancel", "Cancel a checkout", "CheckoutView", {
    errors: [409],
  }),
  billingRoute(
    "post",
    "/api/billing/change",
    "Change plan (`{planId, interval, seats?, version}`)",
    "SubscriptionOverview",
    {
      rawBody: { contentType: "application/json", description: "`{planId, interval, seats?, version}`" },
      errors: [409],
    },
  ),
  billingRoute(
    "post",
    "/api/billing/cancel",
    "Cancel at the period's end (`{version}`)",
    "SubscriptionOverview",
    {
      rawBody: { contentType: "application/json", description: "`{version}`" },
      errors: [409],
    },
  ),
  billingRoute(
    "post",
    "/api/billing/resume",
    "Take back a cancellation (`{version}`)",
    "SubscriptionOverview",
    {
      rawBody: { contentType: "application/json", description: "`{version}`" },
      errors: [409],
    },
  ),
  billingRoute(
    "post",
    "/api/billing/seats",
    "Change the seats (`{seats, version}`)",
    "SubscriptionOverview",
    {
      who: "organisation admins",
      rawBody: { contentType: "application/json", description: "`{seats, version}`" },
      errors: [409],
    },
  ),
  billingRoute(
    "post",
    "/api/billing/portal",
    "A link to the payment provider's portal (`{returnTo?}`)",
    "`{url}`",
    {
      rawBody: { contentType: "application/json", description: "`{returnTo?}`" },
      errors: [409],
    },
  ),
  billingRoute("get", "/api/billing/invoices", "The caller's invoices", "`{invoices}`"),
  billingRoute("get", "/api/admin/billing/checkouts", "Checkouts (`?status=`)", "`{checkouts}`", {
    who: "platform admins",
  }),
  billingRoute(
    "post",
    "/api/admin/billing/checkouts/:id/approve",
    "Approve a manual checkout",
    "CheckoutView",
    {
      who: "platform admins",
      errors: [409],
    },
  ),
]);

export function registerBillingApi(app: AnyHono, runtime: BillingDeps): void {
  const billing = () => runtime.services.billing;

  const handle = (fn: (c: Context, actor: Actor) => Promise<Response>, opts: { mutates: boolean }) =>
    personHandler(runtime, fn, {
      mutates: opts.mutates,
      signIn: "Sign in to manage your plan.",
      notAPerson:
        "Subscriptions belong to a person: use a signed-in session or an ID token, not an API key or service token.",
      logMessage: "billing request failed",
    });
  const read = (fn: (c: Context, actor: Actor) => Promise<Response>) => handle(fn, { mutates: false });
  const write = (fn: (c: Context, actor: Actor, body: Record<string, unknown>) => Promise<Response>) =>
    handle(async (c, actor) => fn(c, actor, await readJsonObject(c)), { mutates: true });
  /** A POST without a body to read (confirm, cancel, approve): any body is ignored. */
  const act = (fn: (c: Context, actor: Actor) => Promise<Response>) => handle(fn, { mutates: true });

  app.get(
    "/api/billing/subscription",
    read(async (c, actor) => c.json(await billing().overview(actor))),
  );
  app.post(
    "/api/billing/checkout",
    write(async (c, actor, body) => c.json(await billing().startCheckout(actor, body), 201)),
  );
  app.get(
    "/api/billing/checkout/:id",
    read(async (c, actor) => c.json(await billing().getCheckout(actor, c.req.param("id") ?? ""))),
  );
  app.post(
    "/api/billing/checkout/:id/confirm",
    act(async (c, actor) => c.json(await billing().confirmCheckout(actor, c.req.param("id") ?? ""))),
  );
  app.post(
    "/api/billing/checkout/:id/cancel",
    act(async (c, actor) => c.json(await billing().cancelCheckout(actor, c.req.param("id") ?? ""))),
  );
  app.post(
    "/api/billing/change",
    write(async (c, actor, body) => c.json(await billing().change(actor, body))),
  );
  app.post(
    "/api/billing/cancel",
    write(async (c, actor, body) => c.json(await billing().cancel(actor, body))),
  );
  app.post(
    "/api/billing/resume",
    write(async (c, actor, body) => c.json(await billing().resume(actor, body))),
  );
  app.post(
    "/api/billing/seats",
    write(async (c, actor, body) => c.json(await billing().setSeats(actor, body))),
  );
  app.post(
    "/api/billing/portal",
    write(async (c, actor, body) => c.json(await billing().portal(actor, body.returnTo))),
  );
  app.get(
    "/api/billing/invoices",
    read(async (c, actor) => c.json({ invoices: await billing().invoices(actor) })),
  );
  app.get(
    "/api/admin/billing/checkouts",
    read(async (c, actor) =>
      c.json({ checkouts: await billing().listCheckouts(actor, c.req.query("status") ?? null) }),
    ),
  );
  app.post(
    "/api/admin/billing/checkouts/:id/approve",
    act(async (c, actor) => c.json(await billing().approveCheckout(actor, c.req.param("id") ?? ""))),
  );

  // Stripe's webhooks: the raw body (the signature covers its bytes), no session, no Origin.
  app.post("/api/billing/webhooks/stripe", async (c) => {
    c.header("Cache-Control", "no-store");
    try {
      if (billing().provider.kind !== "stripe") {
        return fail(c, 404, "NOT_FOUND", "Stripe is not configured on this installation.");
      }
      const bytes = await readLimited(c.req.raw, WEBHOOK_BODY_LIMIT);
      if (bytes === null) throw new PayloadTooLargeError(tooLargeMessage(WEBHOOK_BODY_LIMIT));
      const raw = new TextDecoder("utf-8").decode(bytes);
      return c.json(await billing().handleWebhook("stripe", raw, c.req.header("stripe-signature") ?? null));
    } catch (error) {
      return sendError(c, error, runtime.logger, "billing webhook failed");
    }
  });
}
