/**
 * Money for display (decision 019): amounts are integer minor units (cents) with a lowercase
 * ISO 4217 currency code. One formatter for every screen: "$19", "$190", "$9.50", "€49".
 */

/** Whole amounts drop the ".00"; anything else shows its cents. An unknown currency shows its code. */
export function formatMoney(cents: number, currency: string): string {
  const code = (currency || "usd").trim().toUpperCase();
  const amount = Number.isFinite(cents) ? cents / 100 : 0;
  const whole = Number.isInteger(amount);
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: code,
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    // Not a currency Intl knows: the code and the number.
    return `${code} ${amount.toFixed(whole ? 0 : 2)}`;
  }
}

/** "$19/month", "$190/year" (per seat: "$15 per seat/month"). */
export function formatPrice(
  cents: number,
  currency: string,
  interval: "month" | "year",
  options: { perSeat?: boolean } = {},
): string {
  return `${formatMoney(cents, currency)}${options.perSeat ? " per seat" : ""}/${interval}`;
}
