/**
 * The app with Stripe configured, against the local Stripe (tests/helpers/fake-stripe.ts): a
 * reader buys Pro through Checkout, Stripe's signed webhooks (reordered, replayed, forged,
 * unknown) grant it on the next request, a failed renewal puts the reader in grace, the end of the
 * subscription brings Free back, and each event acts once (decision 019).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import type { CheckoutView, SubscriptionOverview } from "../../server/modules/billing/billing.types.ts";
import { call, createConfirmedAccount, signInCookie, TestClock } from "../helpers/auth.ts";
import { type FakeStripe, type SignedEvent, startFakeStripe } from "../helpers/fake-stripe.ts";
import { userIdOf } from "../helpers/orgs.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const PRO_ITEM = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article")!;
const WEBHOOK = "/api/billing/webhooks/stripe";

describe.each(DIALECTS)("billing with Stripe (%s)", (dialect) => {
  let server: TestServer;
  let fake: FakeStripe;
  const clock = new TestClock();
  let reader: { cookie: string; id: string; email: string };
  let checkout: CheckoutView;
  let sessionId = "";
  let subscriptionId = "";

  const req = (path: string, body?: unknown, cookie?: string) => call(server.url, path, body, { cookie });
  const overview = async () =>
    (await (await req("/api/billing/subscription", undefined, reader.cookie)).json()) as SubscriptionOverview;
  const proLocked = async () =>
    (
      (await (await req(`/api/content/${PRO_ITEM.slug}`, undefined, reader.cookie)).json()) as {
        locked: boolean;
      }
    ).locked;
  const deliver = (event: SignedEvent) => fake.deliver(`${server.url}${WEBHOOK}`, event);
  const auditRows = () =>
    server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "entitlement_changed")
      .where("targetId", "=", reader.id)
      .orderBy("at")
      .orderBy("id")
      .execute();

  beforeAll(async () => {
    fake = await startFakeStripe({ now: clock.now });
    server = await startTestServer(
      dialect,
      {
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_URL: fake.url,
      },
      { now: clock.now },
    );
    // The administrator set the Stripe prices on the plans; Stripe knows them.
    await sql`UPDATE plan SET "stripeMonthlyPriceId" = 'price_' || id || '_month', "stripeYearlyPriceId" = 'price_' || id || '_year' WHERE id <> 'free'`.execute(
      server.runtime.database.db,
    );
    const plans = await server.runtime.database.db.selectFrom("plan").selectAll().execute();
    for (const plan of plans) {
      if (plan.id === "free") continue;
      fake.definePrice({
        id: `price_${plan.id}_month`,
        interval: "month",
        unitAmount: plan.monthlyPriceCents,
        productName: plan.name,
      });
      fake.definePrice({
        id: `price_${plan.id}_year`,
        interval: "year",
        unitAmount: plan.yearlyPriceCents,
        productName: plan.name,
      });
    }
    const account = await createConfirmedAccount(server.url, server.dataDir, "stripebuyer");
    reader = {
      cookie: await signInCookie(server.url, account.email, account.password),
      id: await userIdOf(server.runtime.database.db, account.email),
      email: account.email,
    };
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it("starts a Stripe Checkout for Pro: the reader is sent to Stripe's page", async () => {
    expect(await proLocked()).toBe(true);
    const res = await req("/api/billing/checkout", { planId: "pro", interval: "month" }, reader.cookie);
    expect(res.status).toBe(201);
    checkout = (await res.json()) as CheckoutView;
    expect(checkout).toMatchObject({ provider: "stripe", takesPayments: true, status: "open", seats: 1 });
    expect(checkout.url.startsWith(`${fake.url}/pay/`)).toBe(true);
    const session = [...fake.sessions.values()].find((s) => s.client_reference_id === checkout.id)!;
    expect(session).toMatchObject({
      mode: "subscription",
      metadata: { checkoutId: checkout.id, userId: reader.id, planId: "pro" },
    });
    sessionId = String(session.id);
    // A second tab reuses the open checkout: still one Stripe session.
    const again = (await (
      await req("/api/billing/checkout", { planId: "pro", interval: "month" }, reader.cookie)
    ).json()) as CheckoutView;
    expect(again.id).toBe(checkout.id);
    expect(fake.sessions.size).toBe(1);
  });

  it("a forged, altered or unsigned webhook is refused and changes nothing", async () => {
    const { session, subscription } = fake.completeCheckout(sessionId);
    subscriptionId = subscription.id;
    const real = fake.event("checkout.session.completed", session);
    const forged = fake.event("checkout.session.completed", session, { secret: "whsec_notstripe000000" });
    expect((await deliver(forged)).status).toBe(400);
    const altered = { ...real, payload: real.payload.replace(checkout.id, "another-checkout") };
    expect((await deliver(altered)).status).toBe(400);
    const unsigned = await fetch(`${server.url}${WEBHOOK}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: real.payload,
    });
    expect(unsigned.status).toBe(400);
    expect((await unsigned.json()) as { error: { code: string } }).toMatchObject({
      error: { code: "BAD_USER_INPUT" },
    });
    expect(await proLocked()).toBe(true);
  });

  it("the webhooks, in any order, grant Pro on the next request; a replay acts once", async () => {
    const subscription = fake.subscriptions.get(subscriptionId)!;
    // Stripe does not promise an order: the subscription's event first.
    const created = fake.event("customer.subscription.created", subscription);
    const completed = fake.event("checkout.session.completed", fake.sessions.get(sessionId));
    const paid = fake.event("invoice.paid", fake.invoices.get(subscription.latest_invoice!));
    for (const event of [created, completed, paid]) {
      const res = await deliver(event);
      expect(res.status, event.type).toBe(200);
      expect(await res.json()).toEqual({ received: true });
    }
    expect(await proLocked()).toBe(false);
    const view = await overview();
    expect(view).toMatchObject({ provider: "stripe", currentTier: "pro", portalAvailable: true });
    expect(view.subscription).toMatchObject({
      status: "active",
      interval: "month",
      plan: { id: "pro" },
      cancelAtPeriodEnd: false,
    });
    expect(view.invoices.map((i) => i.status)).toContain("paid");

    const replay = await deliver(completed);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    const rows = await auditRows();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.details!)).toMatchObject({
      fromTier: "free",
      toTier: "pro",
      provider: "stripe",
    });
  });

  it("an unknown event type is received and ignored", async () => {
    const res = await deliver(fake.event("customer.tax_id.created", { id: "txi_1", object: "tax_id" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect((await overview()).currentTier).toBe("pro");
  });

  it("a failed renewal keeps Pro through the grace period, shown to the reader", async () => {
    const { invoice, subscription } = fake.failPayment(subscriptionId);
    expect((await deliver(fake.event("invoice.payment_failed", invoice))).status).toBe(200);
    expect((await deliver(fake.event("customer.subscription.updated", subscription))).status).toBe(200);
    const view = await overview();
    expect(view.currentTier).toBe("pro");
    expect(view.subscription?.status).toBe("past_due");
    expect(view.subscription?.graceUntil).not.toBeNull();
    expect(view.subscription!.graceUntil! > new Date(clock.now()).toISOString()).toBe(true);
    expect(await proLocked()).toBe(false);
  });

  it("the end of the subscription at Stripe makes the reader Free, once", async () => {
    const ended = fake.cancelNow(subscriptionId);
    const deleted = fake.event("customer.subscription.deleted", ended);
    expect((await deliver(deleted)).status).toBe(200);
    expect(await proLocked()).toBe(true);
    expect((await overview()).currentTier).toBe("free");
    expect(await (await deliver(deleted)).json()).toEqual({ received: true, duplicate: true });
    // An old event arriving late re-reads Stripe's state: it can't bring Pro back.
    const late = fake.event("customer.subscription.updated", { ...ended, status: "active" });
    expect((await deliver(late)).status).toBe(200);
    expect(await proLocked()).toBe(true);
    const rows = await auditRows();
    expect(rows.map((r) => JSON.parse(r.details!).toTier)).toEqual(["pro", "free"]);
  });

  describe("a second reader: Stripe down, the return page before the webhook, changes, cancel, the portal", () => {
    let second: { cookie: string; id: string; email: string; password: string };
    let subId = "";
    const view = async () =>
      (await (
        await req("/api/billing/subscription", undefined, second.cookie)
      ).json()) as SubscriptionOverview;
    const post = async (path: string, body: unknown) => {
      const res = await req(path, body, second.cookie);
      expect(res.status, `${path}: ${res.status}`).toBeLessThan(300);
      return res.json();
    };
    const version = async () => (await view()).subscription!.version;

    beforeAll(async () => {
      const account = await createConfirmedAccount(server.url, server.dataDir, "stripesecond");
      second = {
        cookie: await signInCookie(server.url, account.email, account.password),
        id: await userIdOf(server.runtime.database.db, account.email),
        email: account.email,
        password: account.password,
      };
    }, 60_000);

    it("Stripe down: a clear 503, and the retry creates one customer and one session", async () => {
      fake.fail("unavailable");
      const down = await req("/api/billing/checkout", { planId: "pro", interval: "month" }, second.cookie);
      fake.fail(null);
      expect(down.status).toBe(503);
      expect(((await down.json()) as { error: { code: string; message: string } }).error).toMatchObject({
        code: "PROVIDER_UNAVAILABLE",
        message: expect.stringContaining("nothing was charged"),
      });
      const started = (await post("/api/billing/checkout", {
        planId: "pro",
        interval: "month",
      })) as CheckoutView;
      const customers = [...fake.customers.values()].filter(
        (c) => (c.metadata as { userId?: string }).userId === second.id,
      );
      expect(customers).toHaveLength(1);
      const sessions = [...fake.sessions.values()].filter((s) => s.client_reference_id === started.id);
      expect(sessions).toHaveLength(1);
      subId = fake.completeCheckout(String(sessions[0]!.id)).subscription.id;
      // Back from Stripe before any webhook: the return page completes from Stripe's state.
      const confirmed = (await post(`/api/billing/checkout/${started.id}/confirm`, {})) as CheckoutView;
      expect(confirmed.status).toBe("completed");
      expect((await view()).currentTier).toBe("pro");
    });

    it("an upgrade is charged now at Stripe and applies now", async () => {
      const upgraded = (await post("/api/billing/change", {
        planId: "enterprise",
        interval: "month",
        version: await version(),
      })) as SubscriptionOverview;
      expect(upgraded.currentTier).toBe("enterprise");
      const sub = fake.subscriptions.get(subId)!;
      expect(sub.items.data[0]!.price.id).toBe("price_enterprise_month");
      expect(fake.invoices.get(sub.latest_invoice!)).toMatchObject({
        billing_reason: "subscription_update",
        status: "paid",
      });
    });

    it("a downgrade waits for the period end at Stripe, then applies", async () => {
      const pending = (await post("/api/billing/change", {
        planId: "basic",
        interval: "month",
        version: await version(),
      })) as SubscriptionOverview;
      expect(pending.currentTier).toBe("enterprise");
      expect(pending.subscription?.pendingChange).toMatchObject({ plan: { id: "basic" }, interval: "month" });
      expect(fake.subscriptions.get(subId)!.schedule).not.toBeNull();

      const periodEnd = fake.subscriptions.get(subId)!.items.data[0]!.current_period_end;
      clock.t = periodEnd * 1000 + 1000;
      // A month later the session has expired: the reader signs in again.
      second.cookie = await signInCookie(server.url, second.email, second.password);
      const { subscription, invoice } = fake.advancePeriod(subId);
      expect((await deliver(fake.event("customer.subscription.updated", subscription))).status).toBe(200);
      expect((await deliver(fake.event("invoice.paid", invoice))).status).toBe(200);
      const after = await view();
      expect(after.currentTier).toBe("basic");
      expect(after.subscription).toMatchObject({
        plan: { id: "basic" },
        pendingChange: null,
        status: "active",
      });
    });

    it("cancel at the period end keeps the plan, resume takes it back; both reach Stripe", async () => {
      const canceled = (await post("/api/billing/cancel", {
        version: await version(),
      })) as SubscriptionOverview;
      expect(canceled.subscription).toMatchObject({ cancelAtPeriodEnd: true });
      expect(canceled.currentTier).toBe("basic");
      expect(fake.subscriptions.get(subId)!.cancel_at_period_end).toBe(true);
      const resumed = (await post("/api/billing/resume", {
        version: await version(),
      })) as SubscriptionOverview;
      expect(resumed.subscription).toMatchObject({ cancelAtPeriodEnd: false });
      expect(fake.subscriptions.get(subId)!.cancel_at_period_end).toBe(false);
    });

    it("a declined upgrade is not granted; it applies once Stripe has the payment", async () => {
      fake.declinePayments(true);
      const res = await req(
        "/api/billing/change",
        { planId: "pro", interval: "month", version: await version() },
        second.cookie,
      );
      fake.declinePayments(false);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("PAYMENT_PENDING");
      expect((await view()).currentTier).toBe("basic");
      const { subscription } = fake.payLatest(subId);
      expect((await deliver(fake.event("customer.subscription.updated", subscription))).status).toBe(200);
      expect((await view()).currentTier).toBe("pro");
    });

    it("the portal is Stripe's, returning to /subscription", async () => {
      const { url } = (await post("/api/billing/portal", { returnTo: "/subscription" })) as { url: string };
      expect(url.startsWith(`${fake.url}/portal/`)).toBe(true);
      const call = fake.calls("/v1/billing_portal/sessions", "POST").at(-1)!;
      expect(String(call.body.return_url)).toMatch(/\/subscription$/);
    });
  });

  it("through Stripe's hosted page, as a browser goes: pay, the webhooks, back to our return page", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "stripepage");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const started = (await (
      await req("/api/billing/checkout", { planId: "basic", interval: "year" }, cookie)
    ).json()) as CheckoutView;
    const pay = await fetch(started.url);
    expect(await pay.text()).toContain("1 × Basic: 90.00 USD per year");
    fake.webhookUrl = `${server.url}${WEBHOOK}`;
    try {
      const paid = await fetch(started.url, { method: "POST", redirect: "manual" });
      expect(paid.status).toBe(303);
      const back = new URL(paid.headers.get("location")!);
      // The path only: a test server's public address is not known before it listens.
      expect(back.pathname).toBe(`/checkout/${started.id}`);
      expect(back.searchParams.get("session_id")).toMatch(/^cs_test_/);
    } finally {
      fake.webhookUrl = null;
    }
    const after = (await (
      await req("/api/billing/subscription", undefined, cookie)
    ).json()) as SubscriptionOverview;
    expect(after.currentTier).toBe("basic");
    expect(after.subscription).toMatchObject({ interval: "year", status: "active" });
  });
});
