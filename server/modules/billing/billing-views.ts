/**
 * Rows of the billing tables as the wire types of billing.types.ts.
 */
import type { CheckoutRow, InvoiceRow } from "./billing.repo.ts";
import type {
  AdminPlanView,
  BillingInterval,
  CheckoutStatus,
  CheckoutView,
  InvoiceView,
  ProviderKind,
} from "./billing.types.ts";
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
