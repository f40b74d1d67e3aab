/**
 * The provider contract (decision 019): every BillingProvider behaves the same to the billing
 * service. `providers` lists one factory per provider; each gives the provider plus a harness that
 * acts as the payer, keeps each returned state the way the billing service does, and moves time:
 * - Stripe: the SDK against the local fake Stripe (tests/helpers/fake-stripe.ts), which keeps the
 *   subscription itself (`keep` has nothing to do); the payer completes the hosted checkout, time
 *   moves in the fake, and the fake can be down or lose answers (`outage`).
 * - manual: `createManualProvider` over the test database, which computes its state from the
 *   `user_subscription` rows, so the harness works as the billing service does around it: real
 *   user rows, the customer saved and the checkout row written when a checkout starts, the
 *   checkout completed by a platform administrator's approval (`approveCheckout`), every returned
 *   state kept through the service's write path (`applyProviderState`, with the pending downgrade
 *   the service records), and the period end reached by moving the clock and running the billing
 *   job (`runDue`). It cannot be down (`outage: null`): the outage tests are skipped for it.
 *
 * Then a Stripe-only part: webhook signatures, the normalization of each event type, the status
 * mapping, prices unknown to our plans, the requests as Stripe receives them.
 *
 * Runs against the plan table of a test database (both dialects) with Stripe price ids set.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type Stripe from "stripe";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDialects } from "../../server/db/test-database.ts";
import { AppError, BadSignatureError, ProviderUnavailableError } from "../../server/errors.ts";
import { createBillingRepo, ownerKeyOf } from "../../server/modules/billing/billing.repo.ts";
import { CHECKOUT_TTL_MS, createBillingService } from "../../server/modules/billing/billing.service.ts";
import type {
  BillingOwner,
  BillingProvider,
  ChangeInput,
  ProviderSubscriptionState,
  StartCheckoutInput,
} from "../../server/modules/billing/billing.types.ts";
import { createManualProvider } from "../../server/modules/billing/manual-provider.ts";
import { createPlansRepo } from "../../server/modules/billing/plans.repo.ts";
import {
  createStripeProvider,
  mapStripeStatus,
  normalizeStripeEvent,
  PAYMENT_NOT_THROUGH,
  PRICE_NOT_SET,
  STRIPE_STATUS_MAP,
} from "../../server/modules/billing/stripe-provider.ts";
import { createSubscriptionsRepo } from "../../server/modules/subscriptions/subscriptions.repo.ts";
import { userActor } from "../factories/actors.ts";
import { type FakeStripe, startFakeStripe } from "../helpers/fake-stripe.ts";

/** What a provider's test needs besides the provider: the payer, time, an outage. */
interface ProviderHarness {
  provider: BillingProvider;
  /** The payer finishes the checkout the provider started; returns the provider's subscription id. */
  completeCheckout(providerSessionId: string): Promise<string>;
  /**
   * The billing service keeps a state the provider returned (with the change that led to it, for
   * a pending downgrade); returns the state. Stripe: nothing to keep.
   */
  keep(state: ProviderSubscriptionState, change: ChangeInput | null): Promise<ProviderSubscriptionState>;
  /** The current period ends: renewal, or a pending change or cancellation takes effect. */
  advancePeriod(providerSubscriptionId: string): Promise<void>;
  /** A provider that can be unreachable: take it down, bring it back, count what it created. */
  outage: {
    down(): void;
    /** The provider does the work but the answer is lost on the way back, every time. */
    loseResponses(): void;
    up(): void;
    created(kind: "customers" | "sessions" | "invoices"): number;
  } | null;
  close(): Promise<void>;
}

interface ProviderFactory {
  name: string;
  create(db: TestDatabase): Promise<ProviderHarness>;
}

const priceId = (planId: string, interval: "month" | "year") => `price_${planId}_${interval}`;

/** Every plan gets Stripe price ids (as an administrator sets them). */
async function setStripePrices(db: TestDatabase): Promise<void> {
  await sql`UPDATE plan SET "stripeMonthlyPriceId" = 'price_' || id || '_month', "stripeYearlyPriceId" = 'price_' || id || '_year' WHERE id <> 'free'`.execute(
    db.db,
  );
}

function stripeProviderFor(db: TestDatabase, fake: FakeStripe, extra: { maxNetworkRetries?: number } = {}) {
  const plans = createPlansRepo(db.db);
  return createStripeProvider({
    secretKey: fake.secretKey,
    webhookSecret: fake.webhookSecret,
    apiUrl: fake.url,
    resolvePrice: async (id) => {
      const found = await plans.byStripePrice(id);
      return found ? { planId: found.plan.id, interval: found.interval } : null;
    },
    now: Date.now,
    ...extra,
  });
}

async function startFakeStripeWithPlans(db: TestDatabase): Promise<FakeStripe> {
  const fake = await startFakeStripe();
  for (const plan of await createPlansRepo(db.db).list({ includeArchived: true })) {
    if (plan.id === "free") continue;
    for (const interval of ["month", "year"] as const) {
      fake.definePrice({
        id: priceId(plan.id, interval),
        interval,
        unitAmount: interval === "month" ? plan.monthlyPriceCents : plan.yearlyPriceCents,
        currency: plan.currency,
        productName: plan.name,
      });
    }
  }
  return fake;
}

const stripeFactory: ProviderFactory = {
  name: "stripe",
  async create(db) {
    const fake = await startFakeStripeWithPlans(db);
    const provider = stripeProviderFor(db, fake);
    return {
      provider,
      keep: async (state) => state,
      completeCheckout: async (sessionId) => fake.completeCheckout(sessionId).subscription.id,
      advancePeriod: async (subId) => {
        fake.advancePeriod(subId);
      },
      outage: {
        down: () => fake.fail("unavailable"),
        loseResponses: () => fake.fail("lose-response"),
        up: () => fake.fail(null),
        created: (kind) =>
          kind === "customers"
            ? fake.customers.size
            : kind === "sessions"
              ? fake.sessions.size
              : fake.invoices.size,
      },
      close: () => fake.close(),
    };
  },
};

const BASE_URL = "https://hub.example.test";

const manualFactory: ProviderFactory = {
  name: "manual",
  async create(db) {
    // One clock for the provider and the service: advancePeriod moves it to the period end.
    let now = Date.now();
    const clock = () => now;
    const iso = (ms = now) => new Date(ms).toISOString();
    const manual = createManualProvider({ db: db.db, now: clock, baseUrl: BASE_URL });
    const jobErrors: unknown[] = [];
    const service = createBillingService({
      db: db.db,
      mailer: { kind: "outbox", send: async () => {} },
      provider: manual,
      now: clock,
      baseUrl: BASE_URL,
      graceDays: 7,
      selfServe: false,
      logger: {
        info: () => {},
        warn: () => {},
        error: (details: unknown) => {
          jobErrors.push(details);
        },
      },
    });
    const repo = createBillingRepo(db.db);
    const plans = createPlansRepo(db.db);
    const subscriptions = createSubscriptionsRepo(db.db);
    const admin = userActor({ userId: `admin-${randomUUID()}`, groups: ["app-admin"] });

    /** The reader as a real user row (the subscription, checkout and customer rows refer to it). */
    async function ensureUser(owner: BillingOwner) {
      await db.db
        .insertInto("user")
        .values({
          id: owner.userId,
          name: owner.name,
          email: `${owner.userId}@example.test`,
          createdAt: iso(),
          updatedAt: iso(),
        })
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
    }

    // The manual provider as the billing service calls it: the customer saved and the checkout row
    // written around the provider's own calls (startCheckout in billing.service.ts).
    const provider: BillingProvider = {
      ...manual,
      async ensureCustomer(owner, existing) {
        await ensureUser(owner);
        const customer = await manual.ensureCustomer(owner, existing);
        if (customer !== existing) {
          await repo.saveCustomer({
            provider: "manual",
            ownerKey: ownerKeyOf(owner),
            userId: owner.userId,
            tenantId: owner.tenantId,
            providerCustomerId: customer,
            createdAt: iso(),
          });
        }
        return customer;
      },
      async startCheckout(input) {
        await ensureUser(input.owner);
        await db.db
          .insertInto("billing_checkout")
          .values({
            id: input.checkoutId,
            userId: input.owner.userId,
            tenantId: input.owner.tenantId,
            organizationName: input.owner.tenantId ? input.owner.name : null,
            planId: input.planId,
            billingInterval: input.interval,
            seats: input.seats,
            provider: "manual",
            returnTo: null,
            subscriptionId: null,
            status: "open",
            version: 1,
            createdAt: iso(),
            expiresAt: iso(now + CHECKOUT_TTL_MS),
          })
          .execute();
        const session = await manual.startCheckout(input);
        await repo.setCheckoutSession(input.checkoutId, session.providerSessionId, session.url);
        return session;
      },
    };

    return {
      provider,
      completeCheckout: async (sessionId) => {
        const checkout = await repo.checkoutBySession("manual", sessionId);
        if (!checkout) throw new Error(`no checkout for ${sessionId}`);
        const done = await service.approveCheckout(admin, checkout.id);
        expect(done.status).toBe("completed");
        const row = await repo.getCheckout(checkout.id);
        const subscription = row?.subscriptionId ? await subscriptions.getById(row.subscriptionId) : null;
        if (!subscription?.providerSubscriptionId) throw new Error(`checkout ${checkout.id} granted nothing`);
        return subscription.providerSubscriptionId;
      },
      keep: async (state, change) => {
        // As billing.service.ts: a downgrade is recorded as the pending change; an upgrade or a
        // cancellation drops a pending one; a resume leaves it.
        let patch: Parameters<typeof service.applyProviderState>[1]["patch"];
        if (change?.when === "period_end") {
          const plan = await plans.get(change.planId);
          patch = {
            pendingPlanId: change.planId,
            pendingInterval: change.interval,
            pendingSeats: plan?.perSeat ? change.seats : null,
          };
        } else if (change || state.cancelAtPeriodEnd) {
          patch = { pendingPlanId: null, pendingInterval: null, pendingSeats: null };
        }
        await service.applyProviderState(state, {
          reason: change
            ? change.when === "now"
              ? "upgrade"
              : "downgrade"
            : state.cancelAtPeriodEnd
              ? "cancel"
              : "resume",
          actorId: null,
          provider: "manual",
          sourceEventId: null,
          patch,
        });
        return manual.fetchSubscription(state.providerSubscriptionId);
      },
      advancePeriod: async (subId) => {
        const { periodEnd } = await manual.fetchSubscription(subId);
        now = Date.parse(periodEnd!);
        jobErrors.length = 0;
        await service.runDue();
        if (jobErrors.length) throw new Error(`the billing job failed: ${JSON.stringify(jobErrors[0])}`);
      },
      outage: null,
      close: async () => {},
    };
  },
};

const providers: ProviderFactory[] = [stripeFactory, manualFactory];

let ownerCounter = 0;
function newOwner(tenantId: string | null = null): BillingOwner {
  ownerCounter += 1;
  return {
    userId: `user-${ownerCounter}-${Date.now().toString(36)}`,
    email: `reader${ownerCounter}@example.test`,
    name: `Reader ${ownerCounter}`,
    tenantId,
  };
}

function checkoutInput(
  owner: BillingOwner,
  providerCustomerId: string,
  planId: string,
  options: { interval?: "month" | "year"; seats?: number; checkoutId?: string } = {},
): StartCheckoutInput & { providerCustomerId: string } {
  const interval = options.interval ?? "month";
  // A uuid, as the billing service's checkout ids are (the manual harness approves it by id).
  const checkoutId = options.checkoutId ?? randomUUID();
  return {
    checkoutId,
    owner,
    providerCustomerId,
    planId,
    providerPriceId: priceId(planId, interval),
    interval,
    seats: options.seats ?? 1,
    successUrl: `https://hub.example.test/checkout/${checkoutId}`,
    cancelUrl: `https://hub.example.test/checkout/${checkoutId}?canceled=1`,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe.each(testDialects())("billing providers on %s", (dialect) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(dialect);
    await setStripePrices(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe.each(providers)("the $name provider keeps the contract", (factory) => {
    let h: ProviderHarness;
    beforeEach(async () => {
      h = await factory.create(db);
    });
    afterEach(async () => {
      await h.close();
    });

    // What the billing service does with every state a provider returns: keep it (a stateless
    // provider such as manual reads its own rows back; Stripe keeps its state itself).
    const change = async (input: ChangeInput) => h.keep(await h.provider.changeSubscription(input), input);
    const cancel = async (id: string) => h.keep(await h.provider.cancelAtPeriodEnd(id), null);
    const resume = async (id: string) => h.keep(await h.provider.resume(id), null);

    /** A reader who bought `planId` and whose checkout completed. */
    async function subscribed(planId: string, options: { seats?: number; tenantId?: string | null } = {}) {
      const owner = newOwner(options.tenantId ?? null);
      const customer = await h.provider.ensureCustomer(owner, null);
      const input = checkoutInput(owner, customer, planId, { seats: options.seats });
      const started = await h.provider.startCheckout(input);
      const subId = await h.completeCheckout(started.providerSessionId);
      return { owner, customer, input, started, subId };
    }

    it("makes a customer once per owner and keeps an existing one", async () => {
      const owner = newOwner();
      const customer = await h.provider.ensureCustomer(owner, null);
      expect(customer).toMatch(/\S/);
      expect(await h.provider.ensureCustomer(owner, customer)).toBe(customer);
    });

    it("starts a checkout with a url, and completing it gives an active subscription on the plan", async () => {
      const { input, started, subId, customer, owner } = await subscribed("pro");
      expect(started.url).toMatch(/^https?:\/\//);
      expect(started.providerSessionId).toMatch(/\S/);

      const read = await h.provider.readCheckout(started.providerSessionId);
      expect(read).toEqual({ status: "complete", providerSubscriptionId: subId });

      const state = await h.provider.fetchSubscription(subId);
      expect(state).toMatchObject({
        providerSubscriptionId: subId,
        providerCustomerId: customer,
        planId: "pro",
        interval: "month",
        seats: 1,
        status: "active",
        cancelAtPeriodEnd: false,
        canceledAt: null,
        checkoutId: input.checkoutId,
        userId: owner.userId,
        tenantId: null,
      });
      expect(state.periodStart).not.toBeNull();
      expect(state.periodEnd! > state.periodStart!).toBe(true);
    });

    it("an open checkout reads as open, with no subscription yet", async () => {
      const owner = newOwner();
      const customer = await h.provider.ensureCustomer(owner, null);
      const started = await h.provider.startCheckout(checkoutInput(owner, customer, "basic"));
      expect(await h.provider.readCheckout(started.providerSessionId)).toEqual({
        status: "open",
        providerSubscriptionId: null,
      });
    });

    it("an upgrade applies now, with the same period end", async () => {
      const { subId } = await subscribed("pro");
      const before = await h.provider.fetchSubscription(subId);
      const after = await change({
        providerSubscriptionId: subId,
        planId: "enterprise",
        providerPriceId: priceId("enterprise", "month"),
        interval: "month",
        seats: 1,
        when: "now",
      });
      expect(after).toMatchObject({ planId: "enterprise", interval: "month", status: "active" });
      expect(after.periodEnd).toBe(before.periodEnd);
      expect((await h.provider.fetchSubscription(subId)).planId).toBe("enterprise");
    });

    it("a downgrade at the period end keeps the tier until the period ends, then applies", async () => {
      const { subId } = await subscribed("enterprise");
      const before = await h.provider.fetchSubscription(subId);
      const pending = await change({
        providerSubscriptionId: subId,
        planId: "basic",
        providerPriceId: priceId("basic", "month"),
        interval: "month",
        seats: 1,
        when: "period_end",
      });
      expect(pending).toMatchObject({ planId: "enterprise", status: "active", periodEnd: before.periodEnd });
      expect((await h.provider.fetchSubscription(subId)).planId).toBe("enterprise");

      await h.advancePeriod(subId);
      const renewed = await h.provider.fetchSubscription(subId);
      expect(renewed).toMatchObject({ planId: "basic", status: "active", periodStart: before.periodEnd });
    });

    it("an upgrade after a pending downgrade replaces it", async () => {
      const { subId } = await subscribed("pro");
      await change({
        providerSubscriptionId: subId,
        planId: "basic",
        providerPriceId: priceId("basic", "month"),
        interval: "month",
        seats: 1,
        when: "period_end",
      });
      const up = await change({
        providerSubscriptionId: subId,
        planId: "enterprise",
        providerPriceId: priceId("enterprise", "month"),
        interval: "month",
        seats: 1,
        when: "now",
      });
      expect(up.planId).toBe("enterprise");
      await h.advancePeriod(subId);
      expect((await h.provider.fetchSubscription(subId)).planId).toBe("enterprise");
    });

    it("cancels at the period end (still active until then) and resumes", async () => {
      const { subId } = await subscribed("pro");
      const canceled = await cancel(subId);
      expect(canceled).toMatchObject({
        status: "active",
        cancelAtPeriodEnd: true,
        canceledAt: canceled.periodEnd,
      });
      // Twice is the same as once.
      expect(await cancel(subId)).toMatchObject({ cancelAtPeriodEnd: true });

      const resumed = await resume(subId);
      expect(resumed).toMatchObject({ status: "active", cancelAtPeriodEnd: false, canceledAt: null });
      expect(await resume(subId)).toMatchObject({ cancelAtPeriodEnd: false });
    });

    it("a cancellation at the period end ends the subscription when the period ends", async () => {
      const { subId } = await subscribed("basic");
      const { periodEnd } = await cancel(subId);
      await h.advancePeriod(subId);
      const ended = await h.provider.fetchSubscription(subId);
      expect(ended).toMatchObject({ status: "canceled", canceledAt: periodEnd, cancelAtPeriodEnd: false });
      // An ended subscription can't be resumed or changed: a clear refusal, not a provider error.
      const error = await rejection(resume(subId));
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("CONFLICT");
    });

    it("an organisation's seats: more seats now, fewer at the period end", async () => {
      const { subId, owner } = await subscribed("team", { seats: 3, tenantId: "org-contract" });
      expect(await h.provider.fetchSubscription(subId)).toMatchObject({
        planId: "team",
        seats: 3,
        tenantId: "org-contract",
        userId: owner.userId,
      });
      const more = await change({
        providerSubscriptionId: subId,
        planId: "team",
        providerPriceId: priceId("team", "month"),
        interval: "month",
        seats: 5,
        when: "now",
      });
      expect(more.seats).toBe(5);
      const fewer = await change({
        providerSubscriptionId: subId,
        planId: "team",
        providerPriceId: priceId("team", "month"),
        interval: "month",
        seats: 2,
        when: "period_end",
      });
      expect(fewer.seats).toBe(5);
      await h.advancePeriod(subId);
      expect((await h.provider.fetchSubscription(subId)).seats).toBe(2);
    });

    it("offers the portal when it takes payments, else none", async () => {
      const owner = newOwner();
      const customer = await h.provider.ensureCustomer(owner, null);
      const url = await h.provider.portalUrl(customer, "https://hub.example.test/subscription");
      if (h.provider.takesPayments) expect(url).toMatch(/^https?:\/\//);
      else expect(url).toBeNull();
    });

    it("a plan without a provider price can't be bought online (a provider taking no payments needs none)", async () => {
      const owner = newOwner();
      const customer = await h.provider.ensureCustomer(owner, null);
      const started = h.provider.startCheckout({
        ...checkoutInput(owner, customer, "pro"),
        providerPriceId: null,
      });
      if (h.provider.takesPayments) {
        const error = await rejection(started);
        expect(error).toMatchObject({ code: "PLAN_UNAVAILABLE", status: 409, message: PRICE_NOT_SET });
      } else {
        expect((await started).url).toMatch(/^https?:\/\//);
      }
    });

    describe("when the provider is down", () => {
      it("says so with ProviderUnavailableError and creates nothing", async ({ skip }) => {
        if (!h.outage) return skip(`the ${factory.name} provider cannot be down`);
        const owner = newOwner();
        const customer = await h.provider.ensureCustomer(owner, null);
        const sessionsBefore = h.outage.created("sessions");
        h.outage.down();
        const error = await rejection(h.provider.startCheckout(checkoutInput(owner, customer, "pro")));
        expect(error).toBeInstanceOf(ProviderUnavailableError);
        expect((error as ProviderUnavailableError).status).toBe(503);
        expect((error as Error).message).toContain("nothing was charged");
        expect(await rejection(h.provider.ensureCustomer(newOwner(), null))).toBeInstanceOf(
          ProviderUnavailableError,
        );
        h.outage.up();
        expect(h.outage.created("sessions")).toBe(sessionsBefore);
      });

      it("a call whose answer was lost, retried, creates one customer and one checkout", async ({ skip }) => {
        if (!h.outage) return skip(`the ${factory.name} provider cannot be down`);
        const owner = newOwner();
        const customersBefore = h.outage.created("customers");
        h.outage.loseResponses();
        const lost = await rejection(h.provider.ensureCustomer(owner, null));
        expect(lost).toBeInstanceOf(ProviderUnavailableError);
        // Whether it was done is unknown: the reader is told a retry is safe, not that nothing happened.
        expect((lost as Error).message).toContain("never charges twice");
        h.outage.up();
        const customer = await h.provider.ensureCustomer(owner, null);
        expect(h.outage.created("customers")).toBe(customersBefore + 1);

        const input = checkoutInput(owner, customer, "pro");
        const sessionsBefore = h.outage.created("sessions");
        h.outage.loseResponses();
        expect(await rejection(h.provider.startCheckout(input))).toBeInstanceOf(ProviderUnavailableError);
        h.outage.up();
        const first = await h.provider.startCheckout(input);
        const again = await h.provider.startCheckout(input);
        expect(again).toEqual(first);
        expect(h.outage.created("sessions")).toBe(sessionsBefore + 1);
      });

      it("an upgrade whose answer was lost, retried, is charged once", async ({ skip }) => {
        if (!h.outage) return skip(`the ${factory.name} provider cannot be down`);
        const { subId } = await subscribed("basic");
        const invoicesBefore = h.outage.created("invoices");
        const upgrade = {
          providerSubscriptionId: subId,
          planId: "pro",
          providerPriceId: priceId("pro", "month"),
          interval: "month" as const,
          seats: 1,
          when: "now" as const,
        };
        h.outage.loseResponses();
        expect(await rejection(change(upgrade))).toBeInstanceOf(ProviderUnavailableError);
        h.outage.up();
        const state = await change(upgrade);
        expect(state.planId).toBe("pro");
        expect(await change(upgrade)).toMatchObject({ planId: "pro" });
        expect(h.outage.created("invoices")).toBe(invoicesBefore + 1);
      });
    });
  });

  describe("the Stripe provider", () => {
    let fake: FakeStripe;
    let provider: BillingProvider;
    beforeEach(async () => {
      fake = await startFakeStripeWithPlans(db);
      provider = stripeProviderFor(db, fake);
    });
    afterEach(async () => {
      await fake.close();
    });

    async function subscribed(planId: string, seats = 1, tenantId: string | null = null) {
      const owner = newOwner(tenantId);
      const customer = await provider.ensureCustomer(owner, null);
      const input = checkoutInput(owner, customer, planId, { seats });
      const started = await provider.startCheckout(input);
      const done = fake.completeCheckout(started.providerSessionId);
      return { owner, customer, input, started, ...done };
    }

    describe("webhook signatures", () => {
      it("a valid signature gives the event", () => {
        const event = fake.event("customer.subscription.updated", { id: "sub_1", object: "subscription" });
        expect(provider.parseWebhook(event.payload, event.header)).toEqual({
          id: event.id,
          type: "customer.subscription.updated",
          kind: "subscription.changed",
          providerSubscriptionId: "sub_1",
        });
      });

      it.each([
        [
          "a tampered body",
          (e: { payload: string; header: string }) => [e.payload.replace("sub_1", "sub_2"), e.header],
        ],
        ["no signature header", (e: { payload: string; header: string }) => [e.payload, null]],
        ["an empty signature header", (e: { payload: string; header: string }) => [e.payload, ""]],
        ["a garbage signature header", (e: { payload: string; header: string }) => [e.payload, "t=1,v1=abc"]],
      ] as const)("refuses %s", (_label, mutate) => {
        const event = fake.event("customer.subscription.updated", { id: "sub_1", object: "subscription" });
        const [payload, header] = mutate(event);
        expect(() => provider.parseWebhook(payload as string, header as string | null)).toThrow(
          BadSignatureError,
        );
      });

      it("refuses an event signed with another secret", () => {
        const event = fake.event("invoice.paid", { id: "in_1" }, { secret: "whsec_someoneelse0000" });
        expect(() => provider.parseWebhook(event.payload, event.header)).toThrow(BadSignatureError);
      });

      it("refuses an event signed too long ago (a replay from outside the tolerance)", () => {
        const old = Math.floor(Date.now() / 1000) - 301;
        const event = fake.event("customer.subscription.updated", { id: "sub_1" }, { timestamp: old });
        expect(() => provider.parseWebhook(event.payload, event.header)).toThrow(BadSignatureError);
        const recent = fake.event("customer.subscription.updated", { id: "sub_1" }, { timestamp: old + 60 });
        expect(provider.parseWebhook(recent.payload, recent.header).kind).toBe("subscription.changed");
      });

      it("a BadSignatureError answers 400 and says nothing about the secret", () => {
        const event = fake.event("invoice.paid", { id: "in_1" }, { secret: "whsec_someoneelse0000" });
        try {
          provider.parseWebhook(event.payload, event.header);
        } catch (error) {
          expect(error).toMatchObject({ status: 400, code: "BAD_USER_INPUT" });
          expect((error as Error).message).not.toContain("whsec");
          return;
        }
        throw new Error("expected a BadSignatureError");
      });
    });

    describe("event normalization", () => {
      it("checkout.session.completed and expired name our checkout and the subscription", async () => {
        const { started, subscription, input } = await subscribed("pro");
        const completed = fake.event(
          "checkout.session.completed",
          fake.sessions.get(started.providerSessionId),
        );
        expect(provider.parseWebhook(completed.payload, completed.header)).toEqual({
          id: completed.id,
          type: "checkout.session.completed",
          kind: "checkout.completed",
          providerSessionId: started.providerSessionId,
          checkoutId: input.checkoutId,
          providerSubscriptionId: subscription.id,
        });

        const owner = newOwner();
        const customer = await provider.ensureCustomer(owner, null);
        const abandoned = await provider.startCheckout(
          checkoutInput(owner, customer, "basic", { checkoutId: "chk-gone" }),
        );
        const expired = fake.event(
          "checkout.session.expired",
          fake.expireCheckout(abandoned.providerSessionId),
        );
        expect(provider.parseWebhook(expired.payload, expired.header)).toEqual({
          id: expired.id,
          type: "checkout.session.expired",
          kind: "checkout.expired",
          providerSessionId: abandoned.providerSessionId,
          checkoutId: "chk-gone",
        });
        expect(await provider.readCheckout(abandoned.providerSessionId)).toEqual({
          status: "expired",
          providerSubscriptionId: null,
        });
      });

      it.each([
        "customer.subscription.created",
        "customer.subscription.updated",
        "customer.subscription.deleted",
        "customer.subscription.paused",
        "customer.subscription.resumed",
      ])("%s → subscription.changed", async (type) => {
        const { subscription } = await subscribed("basic");
        const event = fake.event(type, subscription);
        expect(provider.parseWebhook(event.payload, event.header)).toMatchObject({
          kind: "subscription.changed",
          providerSubscriptionId: subscription.id,
        });
      });

      it.each(["invoice.paid", "invoice.payment_succeeded"])(
        "%s → invoice.paid with the invoice",
        async (type) => {
          const { invoice, subscription } = await subscribed("team", 3, "org-inv");
          const event = fake.event(type, invoice);
          const parsed = provider.parseWebhook(event.payload, event.header);
          expect(parsed.kind).toBe("invoice.paid");
          if (parsed.kind !== "invoice.paid") return;
          const item = subscription.items.data[0]!;
          expect(parsed.invoice).toEqual({
            providerInvoiceId: invoice.id,
            providerSubscriptionId: subscription.id,
            number: invoice.number,
            status: "paid",
            amountCents: 3 * 1500,
            currency: "usd",
            description: "3 × Team Pro (per month)",
            periodStart: new Date(item.current_period_start * 1000).toISOString(),
            periodEnd: new Date(item.current_period_end * 1000).toISOString(),
            hostedUrl: invoice.hosted_invoice_url,
            createdAt: new Date((invoice.created as number) * 1000).toISOString(),
            paidAt: new Date((invoice.created as number) * 1000).toISOString(),
          });
        },
      );

      it("invoice.payment_failed → invoice.payment_failed with the amount due", async () => {
        const { subscription } = await subscribed("pro");
        const { invoice } = fake.failPayment(subscription.id);
        const event = fake.event("invoice.payment_failed", invoice);
        const parsed = provider.parseWebhook(event.payload, event.header);
        expect(parsed).toMatchObject({
          kind: "invoice.payment_failed",
          invoice: {
            providerInvoiceId: invoice.id,
            providerSubscriptionId: subscription.id,
            status: "failed",
            amountCents: 1900,
            paidAt: null,
          },
        });
        expect((await provider.fetchSubscription(subscription.id)).status).toBe("past_due");
        fake.payLatest(subscription.id);
        expect((await provider.fetchSubscription(subscription.id)).status).toBe("active");
      });

      it("an invoice of an older API version (subscription on the invoice itself) keeps its subscription", () => {
        const legacy = {
          id: "in_legacy",
          object: "invoice",
          subscription: "sub_legacy",
          number: null,
          status: "paid",
          amount_due: 900,
          amount_paid: 900,
          currency: "USD",
          description: null,
          lines: { data: [] },
          period_start: 1_700_000_000,
          period_end: 1_700_000_000,
          created: 1_700_000_000,
          status_transitions: { paid_at: 1_700_000_100 },
        };
        const event = fake.event("invoice.paid", legacy);
        expect(provider.parseWebhook(event.payload, event.header)).toMatchObject({
          kind: "invoice.paid",
          invoice: {
            providerSubscriptionId: "sub_legacy",
            number: "in_legacy",
            currency: "usd",
            description: "Subscription",
            hostedUrl: null,
          },
        });
      });

      it.each(["customer.created", "charge.refunded", "payment_intent.succeeded", "something.new"])(
        "%s is ignored",
        (type) => {
          const event = fake.event(type, { id: "obj_1" });
          expect(provider.parseWebhook(event.payload, event.header)).toEqual({
            id: event.id,
            type,
            kind: "ignored",
          });
        },
      );

      it("a checkout in payment mode (not ours) is ignored", () => {
        const event = fake.event("checkout.session.completed", {
          id: "cs_1",
          object: "checkout.session",
          mode: "payment",
        });
        expect(normalizeStripeEvent(JSON.parse(event.payload) as Stripe.Event).kind).toBe("ignored");
      });
    });

    describe("subscription states", () => {
      it.each(Object.entries(STRIPE_STATUS_MAP))("Stripe %s reads as %s", async (stripeStatus, ours) => {
        const { subscription } = await subscribed("pro");
        subscription.status = stripeStatus;
        if (stripeStatus === "canceled" || stripeStatus === "incomplete_expired") {
          subscription.ended_at = subscription.items.data[0]!.current_period_end;
        }
        const state = await provider.fetchSubscription(subscription.id);
        expect(state.status).toBe(ours);
        if (ours === "canceled") {
          expect(state.canceledAt).toBe(new Date(subscription.ended_at! * 1000).toISOString());
        }
      });

      it("an unknown future status grants nothing", () => {
        expect(mapStripeStatus("some_new_status")).toBe("incomplete");
      });

      it("reads the period from the subscription in older API versions", async () => {
        const { subscription } = await subscribed("pro");
        const item = subscription.items.data[0]! as unknown as Record<string, unknown>;
        const legacy = subscription as unknown as Record<string, unknown>;
        legacy.current_period_start = item.current_period_start;
        legacy.current_period_end = item.current_period_end;
        delete item.current_period_start;
        delete item.current_period_end;
        const state = await provider.fetchSubscription(subscription.id);
        expect(state.periodEnd).toBe(new Date((legacy.current_period_end as number) * 1000).toISOString());
      });

      it("a cancellation date set in the portal reads as cancel at that date", async () => {
        const { subscription } = await subscribed("pro");
        const at = subscription.items.data[0]!.current_period_start + 86_400;
        subscription.cancel_at = at;
        subscription.canceled_at = subscription.created;
        const state = await provider.fetchSubscription(subscription.id);
        expect(state).toMatchObject({
          status: "active",
          cancelAtPeriodEnd: true,
          canceledAt: new Date(at * 1000).toISOString(),
        });
        expect((await provider.resume(subscription.id)).cancelAtPeriodEnd).toBe(false);
        expect(fake.calls("/v1/subscriptions/", "POST").at(-1)?.body).toEqual({ cancel_at: "" });
      });

      it("a price no plan uses is a clear error naming the price", async () => {
        fake.definePrice({ id: "price_legacy_2019", interval: "month", unitAmount: 500 });
        const { subscription } = await subscribed("pro");
        subscription.items.data[0]!.price = { id: "price_legacy_2019", object: "price" };
        const error = await rejection(provider.fetchSubscription(subscription.id));
        expect(error).toMatchObject({ code: "PLAN_UNAVAILABLE", status: 409 });
        expect((error as Error).message).toContain("price_legacy_2019");
        expect((error as Error).message).toContain("no plan here uses");
      });

      it("a yearly price reads as the yearly interval", async () => {
        const owner = newOwner();
        const customer = await provider.ensureCustomer(owner, null);
        const started = await provider.startCheckout(
          checkoutInput(owner, customer, "basic", { interval: "year" }),
        );
        const { subscription } = fake.completeCheckout(started.providerSessionId);
        expect(await provider.fetchSubscription(subscription.id)).toMatchObject({
          planId: "basic",
          interval: "year",
        });
      });

      it("an unknown subscription id is not found", async () => {
        expect(await rejection(provider.fetchSubscription("sub_nope"))).toMatchObject({ code: "NOT_FOUND" });
      });
    });

    describe("requests as Stripe receives them", () => {
      it("the checkout session: subscription mode, the price × seats, our ids, the session id in the return url", async () => {
        const { input, customer, owner, started } = await subscribed("business", 4, "org-req");
        const [create] = fake.calls("/v1/checkout/sessions", "POST");
        expect(create?.idempotencyKey).toMatch(/^lumen-checkout-/);
        const metadata = {
          checkoutId: input.checkoutId,
          userId: owner.userId,
          planId: "business",
          tenantId: "org-req",
        };
        expect(create?.body).toEqual({
          mode: "subscription",
          customer,
          client_reference_id: input.checkoutId,
          line_items: [{ price: "price_business_month", quantity: "4" }],
          metadata,
          subscription_data: { metadata },
          success_url: `${input.successUrl}?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: input.cancelUrl,
        });
        expect(started.url.startsWith(fake.url)).toBe(true);
        const [customerCall] = fake.calls("/v1/customers", "POST");
        expect(customerCall?.body).toEqual({
          email: owner.email,
          name: owner.name,
          metadata: { userId: owner.userId, tenantId: "org-req" },
        });
        expect(customerCall?.idempotencyKey).toMatch(/^lumen-customer-/);
      });

      it("an upgrade is invoiced at once; a downgrade goes to a schedule with no proration", async () => {
        const { subscription } = await subscribed("pro");
        await provider.changeSubscription({
          providerSubscriptionId: subscription.id,
          planId: "enterprise",
          providerPriceId: "price_enterprise_month",
          interval: "month",
          seats: 1,
          when: "now",
        });
        const update = fake.calls(`/v1/subscriptions/${subscription.id}`, "POST").at(-1);
        expect(update?.body).toEqual({
          items: [{ id: subscription.items.data[0]!.id, price: "price_enterprise_month", quantity: "1" }],
          proration_behavior: "always_invoice",
          payment_behavior: "pending_if_incomplete",
        });
        expect(update?.idempotencyKey).toMatch(/^lumen-change-/);
        expect(fake.invoices.get(subscription.latest_invoice!)).toMatchObject({
          billing_reason: "subscription_update",
          status: "paid",
        });

        await provider.changeSubscription({
          providerSubscriptionId: subscription.id,
          planId: "basic",
          providerPriceId: "price_basic_year",
          interval: "year",
          seats: 1,
          when: "period_end",
        });
        const [schedule] = fake.schedules.values();
        expect(schedule?.subscription).toBe(subscription.id);
        const scheduleUpdate = fake.calls(`/v1/subscription_schedules/${schedule!.id}`, "POST").at(-1);
        expect(scheduleUpdate?.body).toMatchObject({
          end_behavior: "release",
          proration_behavior: "none",
          phases: [
            { items: [{ price: "price_enterprise_month", quantity: "1" }], proration_behavior: "none" },
            {
              items: [{ price: "price_basic_year", quantity: "1" }],
              duration: { interval: "year", interval_count: "1" },
              proration_behavior: "none",
            },
          ],
        });
        // Cancelling drops the pending downgrade first (Stripe refuses cancel on a scheduled subscription).
        const canceled = await provider.cancelAtPeriodEnd(subscription.id);
        expect(canceled).toMatchObject({ planId: "enterprise", cancelAtPeriodEnd: true });
        expect(schedule?.status).toBe("released");
      });

      it("every write carries an Idempotency-Key", async () => {
        const { subscription, customer } = await subscribed("pro");
        await provider.cancelAtPeriodEnd(subscription.id);
        await provider.resume(subscription.id);
        await provider.portalUrl(customer, "https://hub.example.test/subscription");
        const posts = fake.requests.filter((r) => r.method === "POST");
        expect(posts.length).toBeGreaterThanOrEqual(5);
        for (const post of posts) expect(post.idempotencyKey).toMatch(/\S/);
      });

      it("the portal returns to our page", async () => {
        const { customer } = await subscribed("pro");
        const url = await provider.portalUrl(customer, "https://hub.example.test/subscription");
        expect(url).toMatch(new RegExp(`^${fake.url}/portal/`));
        expect(fake.calls("/v1/billing_portal/sessions", "POST")[0]?.body).toEqual({
          customer,
          return_url: "https://hub.example.test/subscription",
        });
      });
    });

    describe("refusals", () => {
      it("a declined upgrade is not granted: PAYMENT_PENDING, no second charge, and it applies once paid", async () => {
        const { subscription } = await subscribed("basic");
        const upgrade = {
          providerSubscriptionId: subscription.id,
          planId: "pro",
          providerPriceId: "price_pro_month",
          interval: "month" as const,
          seats: 1,
          when: "now" as const,
        };
        fake.declinePayments(true);
        const error = await rejection(provider.changeSubscription(upgrade));
        expect(error).toMatchObject({ code: "PAYMENT_PENDING", status: 409, message: PAYMENT_NOT_THROUGH });
        expect(await provider.fetchSubscription(subscription.id)).toMatchObject({
          planId: "basic",
          status: "active",
        });
        const invoices = fake.invoices.size;
        // Another try (a second tab, a retry) while that payment is pending: refused, not charged again.
        expect(await rejection(provider.changeSubscription(upgrade))).toMatchObject({
          code: "PAYMENT_PENDING",
        });
        expect(fake.invoices.size).toBe(invoices);
        fake.declinePayments(false);
        fake.payLatest(subscription.id);
        expect(await provider.fetchSubscription(subscription.id)).toMatchObject({
          planId: "pro",
          status: "active",
        });
      });

      it("a price Stripe does not know: the plan can't be bought right now", async () => {
        const owner = newOwner();
        const customer = await provider.ensureCustomer(owner, null);
        const error = await rejection(
          provider.startCheckout({
            ...checkoutInput(owner, customer, "pro"),
            providerPriceId: "price_deleted",
          }),
        );
        expect(error).toMatchObject({ code: "PLAN_UNAVAILABLE", status: 409 });
        expect((error as Error).message).not.toContain("price_deleted");
      });

      it("wrong credentials: unavailable, with a message for the administrators", async () => {
        const plans = createPlansRepo(db.db);
        const wrong = createStripeProvider({
          secretKey: "sk_test_wrong",
          webhookSecret: fake.webhookSecret,
          apiUrl: fake.url,
          resolvePrice: async (id) => {
            const found = await plans.byStripePrice(id);
            return found ? { planId: found.plan.id, interval: found.interval } : null;
          },
          now: Date.now,
        });
        const error = await rejection(wrong.ensureCustomer(newOwner(), null));
        expect(error).toBeInstanceOf(ProviderUnavailableError);
        expect((error as Error).message).toContain("credentials");
        expect(fake.customers.size).toBe(0);
      });

      it("a dropped connection is retried by the SDK with the same key, and one customer exists", async () => {
        fake.fail("drop", 1);
        const owner = newOwner();
        const customer = await provider.ensureCustomer(owner, null);
        expect(fake.customers.size).toBe(1);
        const attempts = fake.calls("/v1/customers", "POST");
        expect(attempts).toHaveLength(2);
        expect(attempts[0]?.idempotencyKey).toBe(attempts[1]?.idempotencyKey);
        expect(fake.customers.has(customer)).toBe(true);
      });

      it("bad seats are refused before Stripe is asked", async () => {
        const { subscription } = await subscribed("team", 3);
        const before = fake.requests.length;
        const error = await rejection(
          provider.changeSubscription({
            providerSubscriptionId: subscription.id,
            planId: "team",
            providerPriceId: "price_team_month",
            interval: "month",
            seats: 0,
            when: "now",
          }),
        );
        expect(error).toMatchObject({ status: 400, field: { seats: expect.any(String) } });
        expect(fake.requests.length).toBe(before);
      });
    });
  });
});
