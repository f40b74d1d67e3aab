/**
 * The Stripe provider (decision 019, section "Stripe"), over the official `stripe` SDK.
 *
 * - Checkout Sessions in subscription mode start a purchase; the subscription's metadata carries our
 *   checkout, user, organisation and plan ids.
 * - Every state goes out normalized (`ProviderSubscriptionState`): plan and interval from the item's
 *   price id through `resolvePrice` (the plan table's Stripe price ids), seats = the item quantity.
 * - An upgrade or a seat increase ("now") updates the item with `proration_behavior: always_invoice`
 *   and `payment_behavior: pending_if_incomplete`: the difference is invoiced and charged at once,
 *   and the change is granted only when that payment succeeds (else 409 PAYMENT_PENDING). A downgrade ("period_end") puts the
 *   subscription under a subscription schedule whose second phase starts at the period end, with no
 *   proration: the tier holds to the end, Stripe switches the price at renewal and says so with
 *   `customer.subscription.updated`.
 * - Errors: Stripe unreachable, timing out, rate limiting or answering 5xx → ProviderUnavailableError
 *   (nothing was done); a declined card or a request Stripe refuses → a ServiceError/AppError with a
 *   message of ours (never Stripe's internals).
 * - Idempotency: customers (per owner), checkout sessions (per checkout) and immediate changes (per
 *   subscription state and target) carry our own Idempotency-Key; every other POST carries the SDK's
 *   per-call key, so its automatic retries never act twice.
 */
import { createHash } from "node:crypto";
import Stripe from "stripe";
import {
  AppError,
  BadSignatureError,
  ConflictError,
  NotFoundError,
  ProviderUnavailableError,
  ServiceError,
} from "../../errors.ts";
import type {
  BillingInterval,
  BillingOwner,
  BillingProvider,
  ChangeInput,
  ProviderEvent,
  ProviderInvoice,
  ProviderSubscriptionState,
  StartCheckoutInput,
  SubscriptionStatus,
} from "./billing.types.ts";

export { stripeConfigProblem } from "./stripe-config.ts";

/** The API version the provider is written against (the SDK's own; the types describe it). */
export const STRIPE_API_VERSION = "2026-10-28.endive";

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API host (tests: a local server that answers the SDK's calls). */
  apiUrl?: string;
  /** Our plan and interval for a Stripe price id (from the plan table), or null when unknown. */
  resolvePrice(priceId: string): Promise<{ planId: string; interval: BillingInterval } | null>;
  now(): number;
  /** How often the SDK retries a request that failed on the network or with a 5xx (default 2). */
  maxNetworkRetries?: number;
  /** Milliseconds one request may take (default 20 s). */
  timeoutMs?: number;
  /** Webhook signatures older than this many seconds are refused (default: the SDK's 300). */
  webhookToleranceS?: number;
}

/** An upgrade whose charge did not go through (declined, or the bank asks the reader to confirm). */
export const PAYMENT_NOT_THROUGH =
  "The payment for this change has not gone through (declined, or your bank asks you to confirm it). Update your payment method under Manage payment method: the change applies as soon as it is paid.";

/** Stripe did not answer: what happened is unknown, a retry is safe (idempotency keys). */
export const OUTCOME_UNKNOWN =
  "The payment provider did not answer in time. Try again in a few minutes: trying again never charges twice.";

/** The message when a plan has no Stripe price for the interval (an administrator sets it). */
export const PRICE_NOT_SET = "This plan can't be bought online yet: its Stripe price is not set";

/**
 * Stripe's subscription statuses in ours. `unpaid` (every retry of a renewal failed and the
 * account keeps the subscription instead of canceling it) reads as `past_due`: access runs only to
 * the grace end recorded at the first failure, and paying the invoice brings it back to `active`
 * the same way as any past_due. `paused` (a trial ended without a payment method) grants nothing
 * and may come back: `incomplete`. Unknown statuses grant nothing either.
 */
export const STRIPE_STATUS_MAP: Record<string, SubscriptionStatus> = {
  active: "active",
  trialing: "trialing",
  past_due: "past_due",
  unpaid: "past_due",
  canceled: "canceled",
  incomplete: "incomplete",
  incomplete_expired: "canceled",
  paused: "incomplete",
};

export function mapStripeStatus(status: string): SubscriptionStatus {
  return STRIPE_STATUS_MAP[status] ?? "incomplete";
}

const iso = (seconds: number | null | undefined): string | null =>
  typeof seconds === "number" ? new Date(seconds * 1000).toISOString() : null;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

/** A stable idempotency key for one logical operation (the same inputs → the same key). */
function idempotencyKey(operation: string, ...parts: Array<string | number | boolean | null>): string {
  const digest = createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 40);
  return `lumen-${operation}-${digest}`;
}

/** Where the reader lands after paying: Stripe fills in `{CHECKOUT_SESSION_ID}` (kept unescaped). */
export function successUrlWithSession(successUrl: string): string {
  return `${successUrl}${successUrl.includes("?") ? "&" : "?"}session_id={CHECKOUT_SESSION_ID}`;
}

function sdkConnection(apiUrl: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    host: url.hostname,
    port: url.port || (protocol === "http" ? 80 : 443),
    protocol,
  };
}

/** A Stripe failure in our error family; anything that is not Stripe's is rethrown unchanged. */
export function translateStripeError(error: unknown): never {
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  const status = error.statusCode ?? 0;
  // No answer (a timeout, a dropped connection) or an internal error: the request may have been
  // carried out. The idempotency keys make the retry safe, and that is what the reader is told.
  if (error instanceof Stripe.errors.StripeConnectionError || status === 500) {
    throw new ProviderUnavailableError(OUTCOME_UNKNOWN, { cause: error });
  }
  if (
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    status > 500
  ) {
    throw new ProviderUnavailableError(undefined, { cause: error });
  }
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  ) {
    throw new ProviderUnavailableError(
      "The payment provider refused this installation's credentials; nothing was charged. An administrator needs to check the Stripe configuration.",
      { cause: error },
    );
  }
  if (error instanceof Stripe.errors.StripeCardError) {
    throw new ConflictError(
      "The payment was declined by the card issuer; nothing was changed. Update your payment method (Manage payment method) and try again.",
      { cause: error },
    );
  }
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    throw new ConflictError("This payment request is already being processed; try again in a moment.", {
      cause: error,
    });
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    if (error.code === "resource_missing" && !error.param?.includes("price")) {
      throw new NotFoundError("Stripe object", undefined, { cause: error });
    }
    if (error.param?.includes("price")) {
      throw new ServiceError(
        "PLAN_UNAVAILABLE",
        "This plan can't be bought online right now: its Stripe price is not available",
      );
    }
    throw new ConflictError(
      "The payment provider refused this request; nothing was charged. If it happens again, contact the administrators.",
      { cause: error },
    );
  }
  throw new ProviderUnavailableError(undefined, { cause: error });
}

async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    translateStripeError(error);
  }
}

/** Fields older API versions kept on the subscription rather than its items. */
interface LegacyPeriod {
  current_period_start?: number | null;
  current_period_end?: number | null;
}

/** Older API versions named the invoice's subscription directly. */
interface LegacyInvoice {
  subscription?: string | { id: string } | null;
}

function invoiceFromStripe(invoice: Stripe.Invoice, outcome: "paid" | "failed" | null): ProviderInvoice {
  const line = invoice.lines?.data?.[0];
  const subscription =
    idOf(invoice.parent?.subscription_details?.subscription) ??
    idOf((invoice as unknown as LegacyInvoice).subscription);
  const status: ProviderInvoice["status"] =
    outcome ??
    (invoice.status === "paid"
      ? "paid"
      : invoice.status === "void" || invoice.status === "uncollectible"
        ? "void"
        : "open");
  return {
    providerInvoiceId: invoice.id,
    providerSubscriptionId: subscription,
    number: invoice.number ?? invoice.id,
    status,
    amountCents: status === "paid" ? invoice.amount_paid : invoice.amount_due,
    currency: invoice.currency.toLowerCase(),
    description: invoice.description ?? line?.description ?? "Subscription",
    // The subscription line's period is the service period (the invoice's own is the last one).
    periodStart: iso(line?.period?.start ?? invoice.period_start),
    periodEnd: iso(line?.period?.end ?? invoice.period_end),
    hostedUrl: invoice.hosted_invoice_url ?? null,
    createdAt: iso(invoice.created) ?? new Date(0).toISOString(),
    paidAt: iso(invoice.status_transitions?.paid_at),
  };
}

/** A verified event normalized; types we do not act on are `ignored`. */
export function normalizeStripeEvent(event: Stripe.Event): ProviderEvent {
  const base = { id: event.id, type: event.type };
  const object = event.data.object as unknown;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = object as Stripe.Checkout.Session;
      if (session.mode !== "subscription") return { ...base, kind: "ignored" };
      return {
        ...base,
        kind: "checkout.completed",
        providerSessionId: session.id,
        checkoutId: session.client_reference_id ?? session.metadata?.checkoutId ?? null,
        providerSubscriptionId: idOf(session.subscription),
      };
    }
    case "checkout.session.expired": {
      const session = object as Stripe.Checkout.Session;
      if (session.mode !== "subscription") return { ...base, kind: "ignored" };
      return {
        ...base,
        kind: "checkout.expired",
        providerSessionId: session.id,
        checkoutId: session.client_reference_id ?? session.metadata?.checkoutId ?? null,
      };
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
    case "customer.subscription.paused":
    case "customer.subscription.resumed":
      return {
        ...base,
        kind: "subscription.changed",
        providerSubscriptionId: (object as Stripe.Subscription).id,
      };
    case "invoice.paid":
    case "invoice.payment_succeeded":
      return { ...base, kind: "invoice.paid", invoice: invoiceFromStripe(object as Stripe.Invoice, "paid") };
    case "invoice.payment_failed":
      return {
        ...base,
        kind: "invoice.payment_failed",
        invoice: invoiceFromStripe(object as Stripe.Invoice, "failed"),
      };
    default:
      return { ...base, kind: "ignored" };
  }
}

export function createStripeProvider(options: StripeProviderOptions): BillingProvider {
  const stripe = new Stripe(options.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    appInfo: { name: "Lumen Hub" },
    ...sdkConnection(options.apiUrl),
  });

  async function toState(subscription: Stripe.Subscription): Promise<ProviderSubscriptionState> {
    const item = subscription.items.data[0];
    if (!item) {
      throw new ConflictError(
        `Stripe subscription ${subscription.id} has no item: it can't be matched to a plan`,
      );
    }
    const priceId = item.price.id;
    const resolved = await options.resolvePrice(priceId);
    if (!resolved) {
      throw new ServiceError(
        "PLAN_UNAVAILABLE",
        `Stripe subscription ${subscription.id} is on price ${priceId}, which no plan here uses: set it as a plan's Stripe price id (Admin → Plans), then Stripe's retry of the event applies it`,
      );
    }
    const legacy = subscription as unknown as LegacyPeriod;
    const periodStart = iso(item.current_period_start ?? legacy.current_period_start);
    const periodEnd = iso(item.current_period_end ?? legacy.current_period_end);
    const status = mapStripeStatus(subscription.status);
    const ended = status === "canceled";
    // A cancellation Stripe will carry out later: at the period end, or on a date the portal set.
    const cancelAtPeriodEnd =
      !ended && (subscription.cancel_at_period_end || subscription.cancel_at !== null);
    // Ours is when access ends (Stripe's `canceled_at` is when the cancellation was asked for).
    const canceledAt = ended
      ? iso(subscription.ended_at ?? subscription.canceled_at ?? Math.floor(options.now() / 1000))
      : cancelAtPeriodEnd
        ? (iso(subscription.cancel_at) ?? periodEnd)
        : null;
    const metadata = subscription.metadata ?? {};
    return {
      providerSubscriptionId: subscription.id,
      providerCustomerId: idOf(subscription.customer),
      planId: resolved.planId,
      interval: resolved.interval,
      seats: item.quantity ?? 1,
      status,
      periodStart,
      periodEnd,
      cancelAtPeriodEnd,
      canceledAt,
      checkoutId: metadata.checkoutId || null,
      userId: metadata.userId || null,
      tenantId: metadata.tenantId || null,
    };
  }

  const retrieve = (id: string) => guarded(() => stripe.subscriptions.retrieve(id));

  /** A subscription that has ended at Stripe can't be changed: say so before asking. */
  function assertLive(subscription: Stripe.Subscription): void {
    if (subscription.status === "canceled" || subscription.status === "incomplete_expired") {
      throw new ConflictError(
        "This subscription has already ended at the payment provider: choose a plan on /pricing to start a new one",
      );
    }
  }

  /** Drops a pending downgrade (a schedule) so the subscription can be changed directly. */
  async function releaseSchedule(subscription: Stripe.Subscription): Promise<Stripe.Subscription> {
    const scheduleId = idOf(subscription.schedule);
    if (!scheduleId) return subscription;
    await guarded(() => stripe.subscriptionSchedules.release(scheduleId));
    return retrieve(subscription.id);
  }

  function requirePrice(priceId: string | null): string {
    if (!priceId) throw new ServiceError("PLAN_UNAVAILABLE", PRICE_NOT_SET);
    return priceId;
  }

  async function changeNow(subscription: Stripe.Subscription, price: string, seats: number) {
    // An earlier change still waits for its payment: no second charge for another one.
    if (subscription.pending_update) throw new ServiceError("PAYMENT_PENDING", PAYMENT_NOT_THROUGH);
    const current = await releaseSchedule(subscription);
    const item = current.items.data[0]!;
    if (item.price.id === price && (item.quantity ?? 1) === seats) return toState(current);
    const key = idempotencyKey(
      "change",
      current.id,
      item.id,
      item.price.id,
      item.quantity ?? 1,
      idOf(current.latest_invoice),
      price,
      seats,
    );
    const updated = await guarded(() =>
      stripe.subscriptions.update(
        current.id,
        {
          items: [{ id: item.id, price, quantity: seats }],
          proration_behavior: "always_invoice",
          // Granted only once paid: a declined card leaves the plan as it was.
          payment_behavior: "pending_if_incomplete",
        },
        { idempotencyKey: key },
      ),
    );
    if (updated.pending_update) throw new ServiceError("PAYMENT_PENDING", PAYMENT_NOT_THROUGH);
    return toState(updated);
  }

  async function changeAtPeriodEnd(
    subscription: Stripe.Subscription,
    price: string,
    seats: number,
    interval: BillingInterval,
  ) {
    const item = subscription.items.data[0]!;
    const unchanged = item.price.id === price && (item.quantity ?? 1) === seats;
    if (unchanged) {
      // Back to what runs now: a pending downgrade is dropped.
      return toState(await releaseSchedule(subscription));
    }
    const legacy = subscription as unknown as LegacyPeriod;
    const periodEnd = item.current_period_end ?? legacy.current_period_end;
    if (typeof periodEnd !== "number") {
      throw new ConflictError(
        "This subscription has no current period at the payment provider to change after",
      );
    }
    const existing = idOf(subscription.schedule);
    const schedule = existing
      ? await guarded(() => stripe.subscriptionSchedules.retrieve(existing))
      : await guarded(() => stripe.subscriptionSchedules.create({ from_subscription: subscription.id }));
    const phaseStart =
      schedule.current_phase?.start_date ??
      schedule.phases[0]?.start_date ??
      item.current_period_start ??
      legacy.current_period_start!;
    await guarded(() =>
      stripe.subscriptionSchedules.update(schedule.id, {
        end_behavior: "release",
        proration_behavior: "none",
        phases: [
          {
            items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
            start_date: phaseStart,
            end_date: periodEnd,
            proration_behavior: "none",
          },
          {
            items: [{ price, quantity: seats }],
            duration: { interval, interval_count: 1 },
            proration_behavior: "none",
          },
        ],
      }),
    );
    return toState(await retrieve(subscription.id));
  }

  return {
    kind: "stripe",
    takesPayments: true,

    async ensureCustomer(owner: BillingOwner, existing: string | null): Promise<string> {
      if (existing) return existing;
      const ownerKey = owner.tenantId ? `org:${owner.tenantId}` : `user:${owner.userId}`;
      const metadata: Record<string, string> = { userId: owner.userId };
      if (owner.tenantId) metadata.tenantId = owner.tenantId;
      const customer = await guarded(() =>
        stripe.customers.create(
          { email: owner.email, name: owner.name, metadata },
          { idempotencyKey: idempotencyKey("customer", ownerKey) },
        ),
      );
      return customer.id;
    },

    async startCheckout(input: StartCheckoutInput & { providerCustomerId: string }) {
      const price = requirePrice(input.providerPriceId);
      const metadata: Record<string, string> = {
        checkoutId: input.checkoutId,
        userId: input.owner.userId,
        planId: input.planId,
      };
      if (input.owner.tenantId) metadata.tenantId = input.owner.tenantId;
      const session = await guarded(() =>
        stripe.checkout.sessions.create(
          {
            mode: "subscription",
            customer: input.providerCustomerId,
            client_reference_id: input.checkoutId,
            line_items: [{ price, quantity: input.seats }],
            metadata,
            subscription_data: { metadata },
            success_url: successUrlWithSession(input.successUrl),
            cancel_url: input.cancelUrl,
          },
          { idempotencyKey: idempotencyKey("checkout", input.checkoutId) },
        ),
      );
      if (!session.url) {
        throw new ProviderUnavailableError(
          "The payment provider did not give a checkout page; nothing was charged.",
        );
      }
      return { providerSessionId: session.id, url: session.url };
    },

    async readCheckout(providerSessionId: string) {
      const session = await guarded(() => stripe.checkout.sessions.retrieve(providerSessionId));
      const status =
        session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open";
      return { status, providerSubscriptionId: idOf(session.subscription) };
    },

    async fetchSubscription(providerSubscriptionId: string) {
      return toState(await retrieve(providerSubscriptionId));
    },

    async changeSubscription(input: ChangeInput) {
      const price = requirePrice(input.providerPriceId);
      if (!Number.isInteger(input.seats) || input.seats < 1) {
        throw new AppError("BAD_USER_INPUT", "seats must be a whole number from 1", {
          field: { seats: "expected a whole number from 1" },
        });
      }
      const subscription = await retrieve(input.providerSubscriptionId);
      assertLive(subscription);
      return input.when === "now"
        ? changeNow(subscription, price, input.seats)
        : changeAtPeriodEnd(subscription, price, input.seats, input.interval);
    },

    async cancelAtPeriodEnd(providerSubscriptionId: string) {
      const current = await retrieve(providerSubscriptionId);
      assertLive(current);
      // Stripe refuses a cancellation on a scheduled subscription: the pending downgrade goes first.
      const subscription = await releaseSchedule(current);
      if (subscription.cancel_at_period_end) return toState(subscription);
      const updated = await guarded(() =>
        stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: true }),
      );
      return toState(updated);
    },

    async resume(providerSubscriptionId: string) {
      const subscription = await retrieve(providerSubscriptionId);
      assertLive(subscription);
      if (!subscription.cancel_at_period_end && subscription.cancel_at === null) return toState(subscription);
      const updated = await guarded(() =>
        stripe.subscriptions.update(
          providerSubscriptionId,
          subscription.cancel_at_period_end ? { cancel_at_period_end: false } : { cancel_at: "" },
        ),
      );
      return toState(updated);
    },

    async portalUrl(providerCustomerId: string, returnUrl: string) {
      const session = await guarded(() =>
        stripe.billingPortal.sessions.create({ customer: providerCustomerId, return_url: returnUrl }),
      );
      return session.url;
    },

    parseWebhook(rawBody: string, signatureHeader: string | null): ProviderEvent {
      if (!signatureHeader) throw new BadSignatureError("The webhook has no Stripe-Signature header.");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signatureHeader,
          options.webhookSecret,
          options.webhookToleranceS,
          undefined,
          options.now(),
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
          throw new BadSignatureError(undefined, { cause: error });
        }
        // Signed but not an event (not JSON): refused the same way, nothing is recorded.
        throw new BadSignatureError("The webhook body is not a Stripe event.", { cause: error });
      }
      return normalizeStripeEvent(event);
    },
  };
}
