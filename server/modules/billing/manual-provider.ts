/**
 * The manual provider (decision 019): the default when Stripe is not configured. It takes no
 * payments: the flows are Stripe's (checkout, change, cancel, resume), the state is computed here
 * (periods of one month or one year from the start) and every charge is recorded as a receipt that
 * says no payment was taken (invoices paid outside, trials, grants, the demo). The billing service
 * computes the proration of an upgrade (billing-periods.ts) and records the receipts.
 */
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { BadSignatureError, ConflictError, NotFoundError } from "../../errors.ts";
import { createSubscriptionsRepo, type UserSubscription } from "../subscriptions/subscriptions.repo.ts";
import { ownerKeyOf } from "./billing.repo.ts";
import type {
  BillingInterval,
  BillingProvider,
  ProviderInvoice,
  ProviderSubscriptionState,
  SubscriptionStatus,
} from "./billing.types.ts";
import { addInterval, currentPeriod } from "./billing-periods.ts";

/** Said on every receipt of the manual provider. */
export const NO_PAYMENT_NOTE = "Recorded — this installation takes no payments";

export interface ManualProviderDeps {
  db: Kysely<DB>;
  now(): number;
  /** Prefix of the checkout page's address ("" for a same-site path). */
  baseUrl: string;
}

export interface ManualProvider extends BillingProvider {
  readonly kind: "manual";
  /** The state of a new subscription bought through a manual checkout: one period from now. */
  newSubscription(input: {
    checkoutId: string;
    planId: string;
    interval: BillingInterval;
    seats: number;
    userId: string;
    tenantId: string | null;
    providerCustomerId: string | null;
  }): ProviderSubscriptionState;
  /** A receipt of the manual provider (status paid, no payment taken). */
  receipt(input: {
    id: string;
    providerSubscriptionId: string | null;
    amountCents: number;
    currency: string;
    description: string;
    periodStart: string | null;
    periodEnd: string | null;
  }): ProviderInvoice;
}

/** The id of the manual subscription bought through checkout `checkoutId` (or of an older row). */
export const manualSubscriptionId = (seed: string) => `msub_${seed}`;

/**
 * A row managed as manual, as the provider's normalized state. An older row (demo, sign-up,
 * admin) that never had a period gets its current one counted from its start, and the id
 * `msub_<row id>`.
 */
export function stateOfManualRow(row: UserSubscription, nowIso: string): ProviderSubscriptionState {
  const interval = (row.billingInterval as BillingInterval | null) ?? "month";
  let periodStart = row.periodStart;
  let periodEnd = row.periodEnd;
  if (!periodEnd) {
    const period = currentPeriod(row.startedAt ?? row.createdAt, interval, nowIso);
    periodStart = period.periodStart;
    periodEnd = period.periodEnd;
  }
  return {
    providerSubscriptionId: row.providerSubscriptionId ?? manualSubscriptionId(row.id),
    providerCustomerId: null,
    planId: row.planId ?? row.tier.toLowerCase(),
    interval,
    seats: row.seats ?? 1,
    status: row.status as SubscriptionStatus,
    periodStart,
    periodEnd,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canceledAt: row.canceledAt,
    checkoutId: null,
    userId: row.userId,
    tenantId: row.tenantId,
  };
}

export function createManualProvider(deps: ManualProviderDeps): ManualProvider {
  const nowIso = () => new Date(deps.now()).toISOString();
  const subscriptions = createSubscriptionsRepo(deps.db);

  /** The row of a manual subscription id: by its provider id, or an older row's `msub_<row id>`. */
  async function rowOf(providerSubscriptionId: string): Promise<UserSubscription | null> {
    const found = await deps.db
      .selectFrom("user_subscription")
      .select("id")
      .where("providerSubscriptionId", "=", providerSubscriptionId)
      .where((eb) => eb.or([eb("source", "is", null), eb("source", "<>", "stripe")]))
      .executeTakeFirst();
    if (found) return subscriptions.getById(found.id);
    const rowId = providerSubscriptionId.startsWith("msub_") ? providerSubscriptionId.slice(5) : null;
    const row = rowId ? await subscriptions.getById(rowId) : null;
    return row && row.providerSubscriptionId === null && row.source !== "stripe" ? row : null;
  }

  /**
   * The state of the row, with what a provider knows besides the row: the owner's customer id
   * (billing_customer, saved when the checkout started) and the checkout it was bought through
   * (`msub_<checkout id>`; an older row's `msub_<row id>` names no checkout).
   */
  async function current(providerSubscriptionId: string): Promise<ProviderSubscriptionState> {
    const row = await rowOf(providerSubscriptionId);
    if (!row) throw new NotFoundError("subscription", providerSubscriptionId);
    const state = stateOfManualRow(row, nowIso());
    const customer = await deps.db
      .selectFrom("billing_customer")
      .select("providerCustomerId")
      .where("provider", "=", "manual")
      .where("ownerKey", "=", ownerKeyOf(row))
      .executeTakeFirst();
    const seed = state.providerSubscriptionId.startsWith("msub_")
      ? state.providerSubscriptionId.slice(5)
      : null;
    const checkout = seed
      ? await deps.db
          .selectFrom("billing_checkout")
          .select("id")
          .where("id", "=", seed)
          .where("provider", "=", "manual")
          .executeTakeFirst()
      : undefined;
    return {
      ...state,
      providerCustomerId: customer?.providerCustomerId ?? null,
      checkoutId: checkout?.id ?? null,
    };
  }

  /** A live subscription's state; an ended one can't be changed, cancelled or resumed. */
  async function live(providerSubscriptionId: string): Promise<ProviderSubscriptionState> {
    const state = await current(providerSubscriptionId);
    if (state.status === "canceled" || state.status === "expired") {
      throw new ConflictError("This subscription has ended: start a new one from /pricing.");
    }
    return state;
  }

  return {
    kind: "manual",
    takesPayments: false,

    async ensureCustomer(_owner, existing) {
      return existing ?? `mcus_${randomUUID()}`;
    },

    async startCheckout(input) {
      return {
        providerSessionId: `mchk_${input.checkoutId}`,
        url: `${deps.baseUrl}/checkout/${input.checkoutId}`,
      };
    },

    async readCheckout(providerSessionId) {
      const row = await deps.db
        .selectFrom("billing_checkout")
        .select(["status", "expiresAt"])
        .where("provider", "=", "manual")
        .where("providerSessionId", "=", providerSessionId)
        .executeTakeFirst();
      if (!row) return { status: "expired", providerSubscriptionId: null };
      if (row.status === "completed") {
        return {
          status: "complete",
          providerSubscriptionId: manualSubscriptionId(providerSessionId.slice(5)),
        };
      }
      const open = (row.status === "open" || row.status === "awaiting_approval") && row.expiresAt > nowIso();
      return { status: open ? "open" : "expired", providerSubscriptionId: null };
    },

    fetchSubscription: current,

    async changeSubscription(input) {
      const state = await live(input.providerSubscriptionId);
      // A downgrade waits for the period end: the state holds until then (the pending change is
      // the billing service's bookkeeping).
      if (input.when === "period_end") return state;
      const intervalChanges = input.interval !== state.interval;
      const start = nowIso();
      return {
        ...state,
        planId: input.planId,
        interval: input.interval,
        seats: input.seats,
        status: "active",
        periodStart: intervalChanges || !state.periodStart ? start : state.periodStart,
        periodEnd: intervalChanges || !state.periodEnd ? addInterval(start, input.interval) : state.periodEnd,
      };
    },

    async cancelAtPeriodEnd(providerSubscriptionId) {
      const state = await live(providerSubscriptionId);
      return { ...state, cancelAtPeriodEnd: true, canceledAt: state.periodEnd };
    },

    async resume(providerSubscriptionId) {
      const state = await live(providerSubscriptionId);
      return { ...state, cancelAtPeriodEnd: false, canceledAt: null };
    },

    async portalUrl() {
      return null;
    },

    parseWebhook() {
      throw new BadSignatureError("This installation's manual billing receives no webhooks.");
    },

    newSubscription(input) {
      const start = nowIso();
      return {
        providerSubscriptionId: manualSubscriptionId(input.checkoutId),
        providerCustomerId: input.providerCustomerId,
        planId: input.planId,
        interval: input.interval,
        seats: input.seats,
        status: "active",
        periodStart: start,
        periodEnd: addInterval(start, input.interval),
        cancelAtPeriodEnd: false,
        canceledAt: null,
        checkoutId: input.checkoutId,
        userId: input.userId,
        tenantId: input.tenantId,
      };
    },

    receipt(input) {
      const at = nowIso();
      return {
        providerInvoiceId: `mrec_${input.id}`,
        providerSubscriptionId: input.providerSubscriptionId,
        number: `R-${at.slice(0, 10).replaceAll("-", "")}-${input.id
          .replace(/[^a-zA-Z0-9]/g, "")
          .slice(-6)
          .toUpperCase()}`,
        status: "paid",
        amountCents: input.amountCents,
        currency: input.currency,
        description: `${input.description}. ${NO_PAYMENT_NOTE}.`,
        periodStart: input.periodStart,
        periodEnd: input.periodEnd,
        hostedUrl: null,
        createdAt: at,
        paidAt: at,
      };
    },
  };
}
