/**
 * Rows of the billing tables as the wire types of billing.types.ts.
 */
import type { UserSubscription } from "../subscriptions/subscriptions.repo.ts";
import type { CheckoutRow, InvoiceRow } from "./billing.repo.ts";
import type {
  AdminPlanView,
  BillingInterval,
  CheckoutStatus,
  CheckoutView,
  InvoiceView,
  PlanView,
  ProviderKind,
  ProviderSubscriptionState,
} from "./billing.types.ts";
import { isStripeRow, planTierOf } from "./billing-apply.ts";
import { changeDirection, prorate } from "./billing-periods.ts";
import { periodPrice, publicPlan } from "./plans.repo.ts";

export function invoiceView(row: InvoiceRow): InvoiceView {
  return {
    id: row.id,
    number: row.number,
    status: row.status as InvoiceView["status"],
    amountCents: row.amountCents,
    currency: row.currency,
    description: row.description,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    createdAt: row.createdAt,
    paidAt: row.paidAt,
    provider: row.provider as ProviderKind,
    hostedUrl: row.hostedUrl,
  };
}

export function checkoutView(
  row: CheckoutRow,
  plan: AdminPlanView,
  options: { takesPayments: boolean; selfServe: boolean; amountCents?: number },
): CheckoutView {
  const interval = row.billingInterval as BillingInterval;
  return {
    id: row.id,
    status: row.status as CheckoutStatus,
    provider: row.provider as ProviderKind,
    takesPayments: row.provider === "stripe" && options.takesPayments,
    selfServe: options.selfServe,
    plan: publicPlan(plan),
    interval,
    seats: row.seats,
    organizationName: row.organizationName,
    amountCents: options.amountCents ?? periodPrice(plan, interval, row.seats),
    currency: plan.currency,
    url: row.url ?? `/checkout/${row.id}`,
    returnTo: row.returnTo,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    completedAt: row.completedAt,
  };
}

/** A checkout as platform admins list it: with the reader who started it. */
export type AdminCheckoutView = CheckoutView & { customer: { name: string; email: string } };

/** One option of the change-plan list (`changeQuotes`). */
export interface ChangeQuote {
  plan: PlanView;
  interval: BillingInterval;
  seats: number;
  /** upgrade: now, prorated; downgrade: at the period end; same: the current plan. */
  direction: "upgrade" | "downgrade" | "same";
  /** The prorated amount an upgrade costs now (manual provider; Stripe computes its own), else null. */
  dueNowCents: number | null;
  /** The price of one period of this option. */
  periodCents: number;
}

/**
 * What each plan would do to a subscription now (`billing.changeQuotes`): upgrade (with the
 * prorated amount due now on the manual provider), downgrade (at the period end) or the same plan.
 */
export function changeQuotesFor(
  row: UserSubscription,
  before: ProviderSubscriptionState,
  currentPlan: AdminPlanView,
  allPlans: AdminPlanView[],
  now: string,
): ChangeQuote[] {
  const organization = row.tenantId !== null;
  const quotes: ChangeQuote[] = [];
  for (const plan of allPlans) {
    if (plan.tier === "free" || (plan.kind === "organization") !== organization) continue;
    for (const interval of ["month", "year"] as const) {
      const seats = plan.perSeat ? Math.max(before.seats, plan.minSeats) : 1;
      let direction = changeDirection(
        { tier: planTierOf(row.tier), interval: before.interval, seats: before.seats },
        { tier: plan.tier, interval, seats },
      );
      if (direction === "same" && plan.id !== before.planId) direction = "downgrade";
      const dueNowCents =
        direction === "upgrade" && !isStripeRow(row)
          ? prorate({
              currentPeriodCents: periodPrice(currentPlan, before.interval, before.seats),
              newPeriodCents: periodPrice(plan, interval, seats),
              intervalChanges: before.interval !== interval,
              periodStart: before.periodStart!,
              periodEnd: before.periodEnd!,
              now,
            }).amountCents
          : null;
      quotes.push({
        plan: publicPlan(plan),
        interval,
        seats,
        direction,
        dueNowCents,
        periodCents: periodPrice(plan, interval, seats),
      });
    }
  }
  return quotes;
}
