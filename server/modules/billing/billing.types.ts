/**
 * Subscriptions and billing (decision 019): the wire types the REST API, the pages and the
 * providers share, and the BillingProvider interface (the manual provider and Stripe implement it).
 *
 * Money is always an integer in the currency's minor unit (cents) with a lowercase ISO 4217 code.
 * Times are ISO-8601 strings.
 */

export type BillingInterval = "month" | "year";
export type PlanKind = "individual" | "organization";
/** What a plan grants: the tiers of core/tiers.ts, lowercase as stored. */
export type PlanTier = "free" | "basic" | "pro" | "enterprise";
export type ProviderKind = "manual" | "stripe";

/** A plan as readers see it (`GET /api/plans`). */
export interface PlanView {
  id: string;
  name: string;
  tier: PlanTier;
  kind: PlanKind;
  description: string;
  currency: string;
  monthlyPriceCents: number;
  yearlyPriceCents: number;
  /** What a year saves against twelve months, in cents (0 when none), and as a whole percent. */
  yearlySavingCents: number;
  yearlySavingPercent: number;
  perSeat: boolean;
  minSeats: number;
  maxSeats: number | null;
  features: string[];
  sortOrder: number;
  /** Archived plans are not offered; subscriptions on them run to their end. */
  archived: boolean;
}

/** A plan as platform admins edit it (`/api/admin/plans`): adds the provider ids and version. */
export interface AdminPlanView extends PlanView {
  stripeMonthlyPriceId: string | null;
  stripeYearlyPriceId: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** What a plan opens that the plan below it does not, computed from the live library. */
export interface PlanUnlocks {
  planId: string;
  tier: PlanTier;
  /** Published items whose minimum tier is exactly this plan's tier. */
  newItems: number;
  /** A few of them to name ("including the Responsible AI course"): featured first, then newest. */
  highlights: Array<{ title: string; slug: string; type: string }>;
}

export type SubscriptionStatus = "active" | "trialing" | "past_due" | "canceled" | "expired" | "incomplete";

/** One invoice or receipt (`GET /api/billing/invoices`, and on `/subscription`). */
export interface InvoiceView {
  id: string;
  number: string;
  status: "paid" | "open" | "failed" | "void";
  amountCents: number;
  currency: string;
  description: string;
  periodStart: string | null;
  periodEnd: string | null;
  createdAt: string;
  paidAt: string | null;
  provider: ProviderKind;
  /** Stripe's hosted invoice page; null for the manual provider's records. */
  hostedUrl: string | null;
}

/** The reader's (or their organisation's) subscription as `/subscription` shows it. */
export interface SubscriptionOverview {
  provider: ProviderKind;
  /** False for the manual provider: "this installation takes no payments". */
  takesPayments: boolean;
  /** The tier the reader reads with right now (after every rule). */
  currentTier: PlanTier;
  /** The paid subscription (own, or the organisation's for a member), or null on Free. */
  subscription: {
    id: string;
    scope: "personal" | "organization";
    plan: PlanView;
    interval: BillingInterval;
    status: SubscriptionStatus;
    startedAt: string | null;
    periodStart: string | null;
    /** Renewal date, or the end date when cancelling. */
    periodEnd: string | null;
    cancelAtPeriodEnd: boolean;
    /** A downgrade or interval change that waits for the period end. */
    pendingChange: { plan: PlanView; interval: BillingInterval; seats: number | null; at: string } | null;
    /** A failed payment: the reader keeps the plan until this date. */
    graceUntil: string | null;
    seats: { total: number; used: number; pending: number } | null;
    /** Price per period for the current plan, interval and seats (cents). */
    amountCents: number;
    currency: string;
    /** Optimistic concurrency: send back with change/cancel/resume/seats. */
    version: number;
    /** What the viewer may do with it (an organisation's member only reads). */
    canManage: boolean;
  } | null;
  /** A checkout started and not finished (a manual one may await an administrator). */
  openCheckout: CheckoutView | null;
  invoices: InvoiceView[];
  /** Whether "Manage payment method" (the provider's portal) is offered. */
  portalAvailable: boolean;
}

export type CheckoutStatus = "open" | "awaiting_approval" | "completed" | "expired" | "canceled";

/** One attempt to buy (`/checkout/:id`). */
export interface CheckoutView {
  id: string;
  status: CheckoutStatus;
  provider: ProviderKind;
  takesPayments: boolean;
  /** Demo installations: the reader confirms a manual checkout themselves. */
  selfServe: boolean;
  plan: PlanView;
  interval: BillingInterval;
  seats: number;
  organizationName: string | null;
  amountCents: number;
  currency: string;
  /** Where to continue: Stripe's hosted page, or our own /checkout/:id for manual. */
  url: string;
  /** Where the reader goes after a completed checkout (e.g. back to the item they wanted). */
  returnTo: string | null;
  createdAt: string;
  expiresAt: string;
  completedAt: string | null;
}

// ---------------------------------------------------------------------------------------------
// Providers

/** Who pays: a reader, or an organisation (its admin acts for it). */
export interface BillingOwner {
  userId: string;
  email: string;
  name: string;
  tenantId: string | null;
}

/** The provider's current state of one subscription, normalized. */
export interface ProviderSubscriptionState {
  providerSubscriptionId: string;
  providerCustomerId: string | null;
  /** Our plan and interval, from the provider's price id (Stripe) or as recorded (manual). */
  planId: string;
  interval: BillingInterval;
  seats: number;
  status: SubscriptionStatus;
  periodStart: string | null;
  periodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  /** Our checkout id, when the subscription came from one (Stripe: metadata.checkoutId). */
  checkoutId: string | null;
  /** Our user and organisation (Stripe: metadata.userId, metadata.tenantId). */
  userId: string | null;
  tenantId: string | null;
}

export interface ProviderInvoice {
  providerInvoiceId: string;
  providerSubscriptionId: string | null;
  number: string;
  status: "paid" | "open" | "failed" | "void";
  amountCents: number;
  currency: string;
  description: string;
  periodStart: string | null;
  periodEnd: string | null;
  hostedUrl: string | null;
  createdAt: string;
  paidAt: string | null;
}

/** A verified provider event, normalized; `ignored` for types we do not act on. */
export type ProviderEvent = { id: string; type: string } & (
  | {
      kind: "checkout.completed";
      providerSessionId: string;
      checkoutId: string | null;
      providerSubscriptionId: string | null;
    }
  | { kind: "checkout.expired"; providerSessionId: string; checkoutId: string | null }
  | { kind: "subscription.changed"; providerSubscriptionId: string }
  | { kind: "invoice.paid"; invoice: ProviderInvoice }
  | { kind: "invoice.payment_failed"; invoice: ProviderInvoice }
  | { kind: "ignored" }
);

export interface StartCheckoutInput {
  checkoutId: string;
  owner: BillingOwner;
  /** The provider's customer for this owner when one exists already. */
  providerCustomerId: string | null;
  planId: string;
  /** The provider price for the plan and interval (Stripe price id); null for manual. */
  providerPriceId: string | null;
  interval: BillingInterval;
  seats: number;
  successUrl: string;
  cancelUrl: string;
}

export interface ChangeInput {
  providerSubscriptionId: string;
  planId: string;
  providerPriceId: string | null;
  interval: BillingInterval;
  seats: number;
  /** now: upgrade or seat change, prorated; period_end: downgrade, no proration, the tier holds to the end. */
  when: "now" | "period_end";
}

/**
 * A payment provider. Every method either succeeds or throws ProviderUnavailableError (provider
 * down: nothing was done) or a ServiceError (refused); idempotency keys make a retried call safe.
 * Local state (rows, entitlements, audit, e-mails) is never the provider's business: the billing
 * service applies the normalized states and events the provider returns.
 */
export interface BillingProvider {
  readonly kind: ProviderKind;
  readonly takesPayments: boolean;
  /** Creates the provider's customer for an owner (Stripe); manual returns a local id. */
  ensureCustomer(owner: BillingOwner, existing: string | null): Promise<string>;
  /** Starts a hosted checkout; returns where to send the reader and the provider's session id. */
  startCheckout(input: StartCheckoutInput & { providerCustomerId: string }): Promise<{
    providerSessionId: string;
    url: string;
  }>;
  /** The session as the provider sees it now (a return from checkout, before the webhook). */
  readCheckout(providerSessionId: string): Promise<{
    status: "open" | "complete" | "expired";
    providerSubscriptionId: string | null;
  }>;
  /** The subscription's current state at the provider (webhooks re-read it: order does not matter). */
  fetchSubscription(providerSubscriptionId: string): Promise<ProviderSubscriptionState>;
  changeSubscription(input: ChangeInput): Promise<ProviderSubscriptionState>;
  cancelAtPeriodEnd(providerSubscriptionId: string): Promise<ProviderSubscriptionState>;
  resume(providerSubscriptionId: string): Promise<ProviderSubscriptionState>;
  /** The customer portal (payment methods, invoices) or null when the provider has none. */
  portalUrl(providerCustomerId: string, returnUrl: string): Promise<string | null>;
  /** Verifies a webhook's signature and normalizes it; throws BadSignatureError when forged. */
  parseWebhook(rawBody: string, signatureHeader: string | null): ProviderEvent;
}
