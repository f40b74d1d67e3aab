/**
 * Provider events through the billing service with a fake provider object (the Stripe package
 * tests the real Stripe provider): forged events refused, each event acted on once (replays do
 * nothing), order-independent (the subscription is re-read), a failed event retried, unknown
 * events recorded as ignored, a checkout completed by its event grants once, and a failed
 * payment's grace period then the payment that settles it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BadSignatureError, ProviderUnavailableError } from "../../server/errors.ts";
import type { Actor } from "../../server/modules/actor.ts";
import { type BillingService, createBillingService } from "../../server/modules/billing/billing.service.ts";
import type {
  BillingProvider,
  ProviderEvent,
  ProviderInvoice,
  ProviderSubscriptionState,
} from "../../server/modules/billing/billing.types.ts";
import { createConfirmedAccount, mailsTo, signInCookie, TestClock } from "../helpers/auth.ts";
import { userIdOf } from "../helpers/orgs.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const DAY = 86_400_000;

/** The provider's side: subscriptions as Stripe would answer them, and how often it was asked. */
function fakeProvider() {
  const subscriptions = new Map<string, ProviderSubscriptionState>();
  const sessions = new Map<
    string,
    { status: "open" | "complete" | "expired"; providerSubscriptionId: string | null }
  >();
  let failNextFetch = false;
  let down = false;
  let fetches = 0;
  const provider: BillingProvider = {
    kind: "stripe",
    takesPayments: true,
    ensureCustomer: async (_owner, existing) => existing ?? "cus_test",
    startCheckout: async (input) => {
      if (down) throw new ProviderUnavailableError();
      return {
        providerSessionId: `cs_${input.checkoutId}`,
        url: `https://checkout.stripe.test/${input.checkoutId}`,
      };
    },
    readCheckout: async (sessionId) =>
      sessions.get(sessionId) ?? { status: "open", providerSubscriptionId: null },
    fetchSubscription: async (id) => {
      fetches++;
      if (failNextFetch) {
        failNextFetch = false;
        throw new Error("provider hiccup");
      }
      const state = subscriptions.get(id);
      if (!state) throw new Error(`no subscription ${id}`);
      return state;
    },
    changeSubscription: async () => {
      throw new Error("not used");
    },
    cancelAtPeriodEnd: async () => {
      throw new Error("not used");
    },
    resume: async () => {
      throw new Error("not used");
    },
    portalUrl: async () => "https://billing.stripe.test/portal",
    parseWebhook: (raw, signature) => {
      if (signature !== "valid") throw new BadSignatureError();
      return JSON.parse(raw) as ProviderEvent;
    },
  };
  return {
    provider,
    subscriptions,
    sessions,
    setDown: (value: boolean) => {
      down = value;
    },
    failNext: () => {
      failNextFetch = true;
    },
    fetches: () => fetches,
  };
}

describe.each(DIALECTS)("billing webhooks (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();
  let fake: ReturnType<typeof fakeProvider>;
  let billing: BillingService;

  const send = (event: ProviderEvent, signature = "valid") =>
    billing.handleWebhook("stripe", JSON.stringify(event), signature);
  const state = (
    id: string,
    userId: string,
    patch: Partial<ProviderSubscriptionState> = {},
  ): ProviderSubscriptionState => ({
    providerSubscriptionId: id,
    providerCustomerId: "cus_test",
    planId: "pro",
    interval: "month",
    seats: 1,
    status: "active",
    periodStart: new Date(clock.t).toISOString(),
    periodEnd: new Date(clock.t + 30 * DAY).toISOString(),
    cancelAtPeriodEnd: false,
    canceledAt: null,
    checkoutId: null,
    userId,
    tenantId: null,
    ...patch,
  });
  const invoice = (id: string, subId: string, status: ProviderInvoice["status"]): ProviderInvoice => ({
    providerInvoiceId: id,
    providerSubscriptionId: subId,
    number: `INV-${id}`,
    status,
    amountCents: 1900,
    currency: "usd",
    description: "Pro, monthly",
    periodStart: null,
    periodEnd: null,
    hostedUrl: `https://invoice.stripe.test/${id}`,
    createdAt: new Date(clock.t).toISOString(),
    paidAt: status === "paid" ? new Date(clock.t).toISOString() : null,
  });
  const audits = (userId: string) =>
    server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "entitlement_changed")
      .where("targetId", "=", userId)
      .orderBy("at")
      .orderBy("id")
      .execute();
  const reader = async (prefix: string) => {
    const account = await createConfirmedAccount(server.url, server.dataDir, prefix);
    return { ...account, id: await userIdOf(server.runtime.database.db, account.email) };
  };
  const rowOf = (providerSubscriptionId: string) =>
    server.runtime.database.db
      .selectFrom("user_subscription")
      .selectAll()
      .where("source", "=", "stripe")
      .where("providerSubscriptionId", "=", providerSubscriptionId)
      .executeTakeFirst();

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
    fake = fakeProvider();
    billing = createBillingService({
      db: server.runtime.database.db,
      mailer: server.runtime.mailer,
      provider: fake.provider,
      now: clock.now,
      baseUrl: "http://hub.test",
      graceDays: 7,
      selfServe: false,
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("refuses a forged event before recording anything", async () => {
    await expect(
      send(
        {
          id: "evt_forged",
          type: "customer.subscription.updated",
          kind: "subscription.changed",
          providerSubscriptionId: "sub_x",
        },
        "forged",
      ),
    ).rejects.toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
    const row = await server.runtime.database.db
      .selectFrom("billing_event")
      .selectAll()
      .where("eventId", "=", "evt_forged")
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it("acts on an event once; a replay or an older event re-read from the provider changes nothing", async () => {
    const r = await reader("hook");
    fake.subscriptions.set("sub_1", state("sub_1", r.id));
    const event: ProviderEvent = {
      id: "evt_1",
      type: "customer.subscription.created",
      kind: "subscription.changed",
      providerSubscriptionId: "sub_1",
    };
    expect(await send(event)).toEqual({ received: true });
    const row = await rowOf("sub_1");
    expect(row).toMatchObject({ userId: r.id, tier: "pro", status: "active", planId: "pro" });
    expect(await send(event)).toEqual({ received: true, duplicate: true });
    // An older update delivered late: the subscription is re-read, so the current state stands.
    expect(await send({ ...event, id: "evt_0_late" })).toEqual({ received: true });
    const audit = await audits(r.id);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(String(audit[0]!.details))).toMatchObject({
      fromTier: "free",
      toTier: "pro",
      provider: "stripe",
      sourceEventId: "evt_1",
      subscriptionId: row!.id,
    });
    expect(audit[0]!.actorId).toBeNull();
    expect(
      (await mailsTo(server.dataDir, r.email)).filter((m) => m.includes("plan has started")),
    ).toHaveLength(1);
  });

  it("an event that failed is retried on its next delivery; an unknown one is recorded as ignored", async () => {
    const r = await reader("retry");
    fake.subscriptions.set("sub_2", state("sub_2", r.id, { planId: "enterprise" }));
    const event: ProviderEvent = {
      id: "evt_2",
      type: "customer.subscription.updated",
      kind: "subscription.changed",
      providerSubscriptionId: "sub_2",
    };
    fake.failNext();
    await expect(send(event)).rejects.toThrow("provider hiccup");
    const failed = await server.runtime.database.db
      .selectFrom("billing_event")
      .selectAll()
      .where("eventId", "=", "evt_2")
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe("failed");
    expect(await rowOf("sub_2")).toBeUndefined();
    expect(await send(event)).toEqual({ received: true });
    expect(await rowOf("sub_2")).toMatchObject({ tier: "enterprise" });
    const done = await server.runtime.database.db
      .selectFrom("billing_event")
      .selectAll()
      .where("eventId", "=", "evt_2")
      .executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: "processed", attempts: 2 });

    expect(await send({ id: "evt_unknown", type: "customer.created", kind: "ignored" })).toEqual({
      received: true,
    });
    const ignored = await server.runtime.database.db
      .selectFrom("billing_event")
      .select("status")
      .where("eventId", "=", "evt_unknown")
      .executeTakeFirstOrThrow();
    expect(ignored.status).toBe("ignored");
  });

  it("a checkout completed by its event grants once, whatever is replayed", async () => {
    const r = await reader("chk");
    const cookie = await signInCookie(server.url, r.email, r.password);
    const actor: Actor = await server.runtime.identity.resolveSessionActor(
      new Headers({ cookie, "user-agent": "node", "accept-language": "*" }),
    );
    const checkout = await billing.startCheckout(actor, { planId: "pro", interval: "year" });
    expect(checkout).toMatchObject({
      provider: "stripe",
      status: "open",
      url: `https://checkout.stripe.test/${checkout.id}`,
    });
    fake.subscriptions.set("sub_3", state("sub_3", r.id, { interval: "year", checkoutId: checkout.id }));
    const completed: ProviderEvent = {
      id: "evt_3",
      type: "checkout.session.completed",
      kind: "checkout.completed",
      providerSessionId: `cs_${checkout.id}`,
      checkoutId: checkout.id,
      providerSubscriptionId: "sub_3",
    };
    const created: ProviderEvent = {
      id: "evt_3b",
      type: "customer.subscription.created",
      kind: "subscription.changed",
      providerSubscriptionId: "sub_3",
    };
    // The subscription event first, then the checkout's, then a replay: one row, one audit row.
    await send(created);
    await send(completed);
    expect(await send(completed)).toEqual({ received: true, duplicate: true });
    expect((await billing.getCheckout(actor, checkout.id)).status).toBe("completed");
    const rows = await server.runtime.database.db
      .selectFrom("user_subscription")
      .select("id")
      .where("userId", "=", r.id)
      .where("source", "=", "stripe")
      .execute();
    expect(rows).toHaveLength(1);
    expect(await audits(r.id)).toHaveLength(1);
  });

  it("back from the provider before its webhook: the checkout completes from the provider's state, once", async () => {
    const r = await reader("return");
    const cookie = await signInCookie(server.url, r.email, r.password);
    const actor: Actor = await server.runtime.identity.resolveSessionActor(
      new Headers({ cookie, "user-agent": "node", "accept-language": "*" }),
    );
    const checkout = await billing.startCheckout(actor, { planId: "basic", interval: "month" });
    expect((await billing.getCheckout(actor, checkout.id)).status).toBe("open");
    fake.subscriptions.set("sub_5", state("sub_5", r.id, { planId: "basic", checkoutId: checkout.id }));
    fake.sessions.set(`cs_${checkout.id}`, { status: "complete", providerSubscriptionId: "sub_5" });
    const [a, b] = await Promise.all([
      billing.getCheckout(actor, checkout.id),
      billing.getCheckout(actor, checkout.id),
    ]);
    expect([a.status, b.status]).toEqual(["completed", "completed"]);
    // The webhook arriving afterwards changes nothing.
    await send({
      id: "evt_5",
      type: "checkout.session.completed",
      kind: "checkout.completed",
      providerSessionId: `cs_${checkout.id}`,
      checkoutId: checkout.id,
      providerSubscriptionId: "sub_5",
    });
    expect(await audits(r.id)).toHaveLength(1);
    expect(await rowOf("sub_5")).toMatchObject({ tier: "basic", status: "active" });
  });

  it("a Stripe subscription cancelled at its period end is ended by the billing job once the end has passed", async () => {
    const r = await reader("stripeend");
    const end = new Date(clock.t + 5 * DAY).toISOString();
    fake.subscriptions.set("sub_6", state("sub_6", r.id, { cancelAtPeriodEnd: true, periodEnd: end }));
    await send({
      id: "evt_6",
      type: "customer.subscription.updated",
      kind: "subscription.changed",
      providerSubscriptionId: "sub_6",
    });
    expect(await rowOf("sub_6")).toMatchObject({ status: "active", canceledAt: end });
    const saved = clock.t;
    clock.t = Date.parse(end) + 1000;
    try {
      await billing.runDue();
      expect(await rowOf("sub_6")).toMatchObject({ status: "canceled" });
      // The server's own billing job runs on the same clock: whichever moved the row writes the audit row.
      for (let i = 0; i < 25 && (await audits(r.id)).length < 2; i++)
        await new Promise((ok) => setTimeout(ok, 100));
      const audit = (await audits(r.id)).map((a) => JSON.parse(String(a.details)));
      expect(audit.at(-1)).toMatchObject({
        fromTier: "pro",
        toTier: "free",
        reason: "canceled_at_period_end",
        provider: "stripe",
      });
    } finally {
      clock.t = saved;
    }
  });

  it("the provider down: a clear 503, nothing bought, and the next attempt starts cleanly", async () => {
    const r = await reader("down");
    const cookie = await signInCookie(server.url, r.email, r.password);
    const actor: Actor = await server.runtime.identity.resolveSessionActor(
      new Headers({ cookie, "user-agent": "node", "accept-language": "*" }),
    );
    fake.setDown(true);
    try {
      await expect(billing.startCheckout(actor, { planId: "pro", interval: "month" })).rejects.toMatchObject({
        code: "PROVIDER_UNAVAILABLE",
        status: 503,
        message: expect.stringContaining("nothing was charged"),
      });
    } finally {
      fake.setDown(false);
    }
    const checkouts = await server.runtime.database.db
      .selectFrom("billing_checkout")
      .select("status")
      .where("userId", "=", r.id)
      .execute();
    expect(checkouts.map((c) => c.status)).toEqual(["canceled"]);
    expect((await billing.startCheckout(actor, { planId: "pro", interval: "month" })).status).toBe("open");
  });

  it("a failed payment keeps the plan through the grace period; the payment that settles it ends the grace", async () => {
    const r = await reader("grace");
    fake.subscriptions.set("sub_4", state("sub_4", r.id));
    await send({
      id: "evt_4",
      type: "customer.subscription.created",
      kind: "subscription.changed",
      providerSubscriptionId: "sub_4",
    });
    await send({
      id: "evt_4_fail",
      type: "invoice.payment_failed",
      kind: "invoice.payment_failed",
      invoice: invoice("in_4", "sub_4", "failed"),
    });
    const pastDue = await rowOf("sub_4");
    const grace = new Date(clock.t + 7 * DAY).toISOString();
    expect(pastDue).toMatchObject({ status: "past_due", graceUntil: grace, expiresAt: grace, tier: "pro" });
    const mails = await mailsTo(server.dataDir, r.email);
    expect(
      mails.some((m) => m.includes("renewal payment failed") && m.includes("update the payment method")),
    ).toBe(true);
    const invoices = await server.runtime.database.db
      .selectFrom("billing_invoice")
      .selectAll()
      .where("providerInvoiceId", "=", "in_4")
      .execute();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: "failed", userId: r.id, subscriptionId: pastDue!.id });
    // Still Pro during the grace period (no tier change, so no audit row for it).
    expect(await audits(r.id)).toHaveLength(1);

    clock.advance(DAY);
    await send({
      id: "evt_4_paid",
      type: "invoice.paid",
      kind: "invoice.paid",
      invoice: invoice("in_4", "sub_4", "paid"),
    });
    expect(await rowOf("sub_4")).toMatchObject({ status: "active", graceUntil: null, expiresAt: null });
    const paid = await server.runtime.database.db
      .selectFrom("billing_invoice")
      .selectAll()
      .where("providerInvoiceId", "=", "in_4")
      .execute();
    expect(paid).toHaveLength(1);
    expect(paid[0]!.status).toBe("paid");
  });
});
