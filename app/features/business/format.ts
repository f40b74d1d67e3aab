import { formatDate as formatDay } from "../../lib/format.ts";

/** "Mar 4, 2026" (UTC), or "—" when there is no date: the organisation screens show every row. */
export const formatDate = (iso: string | null | undefined): string => formatDay(iso) ?? "—";

/**
 * Money in the currency's minor unit → "$39.00" (the contract's display rule; the same tiny
 * function as `core/money.ts` `formatMoney`, kept here until that lands).
 */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(
    cents / 100,
  );
}

/** The price of `seats` seats of a per-seat plan for one period (cents). */
export function seatsPrice(
  plan: { monthlyPriceCents: number; yearlyPriceCents: number },
  interval: "month" | "year",
  seats: number,
): number {
  return (interval === "year" ? plan.yearlyPriceCents : plan.monthlyPriceCents) * Math.max(1, seats);
}
