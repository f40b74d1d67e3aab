/**
 * How billing shows money, dates and plan words. Money: integer cents and a lowercase currency
 * (decision 019), shown with Intl in en-US.
 */
import type { BillingInterval, PlanTier } from "../../../server/modules/billing/billing.types.ts";

/** "$19.00" from 1900 and "usd". */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(
    cents / 100,
  );
}

const dayFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

/** "24 Dec 2026"; "—" when missing. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : dayFormat.format(d);
}

export const TIER_NAME: Record<PlanTier, string> = {
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  enterprise: "Enterprise",
};

/** "month" → "monthly". */
export const intervalAdverb = (interval: BillingInterval) => (interval === "year" ? "yearly" : "monthly");

/** "/month" or "/year". */
export const perInterval = (interval: BillingInterval) => (interval === "year" ? "/year" : "/month");

export const STATUS_LABEL: Record<string, string> = {
  active: "Active",
  trialing: "Trial",
  past_due: "Payment failed",
  canceled: "Canceled",
  expired: "Expired",
  incomplete: "Incomplete",
};
