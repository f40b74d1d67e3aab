/**
 * Words the pricing page and the paywall share about plans: what a plan unlocks ("including the
 * Responsible AI course"), the yearly saving ("Save 17% — $38 a year"). Pure, no I/O.
 */
import { formatMoney } from "./money.ts";

export interface NamedItem {
  title: string;
  type: string;
}

/** "1 item", "14 items". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A course is "the X course"; anything else is its quoted title. */
export function itemName(item: NamedItem): string {
  return item.type === "course" ? `the ${item.title} course` : `“${item.title}”`;
}

/** ", including the X course and “Y”" for up to `max` items; "" for none. */
export function includingPhrase(items: readonly NamedItem[], max = 2): string {
  const names = items.slice(0, max).map(itemName);
  if (names.length === 0) return "";
  return `, including ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`}`;
}

/** "Save 17% — $38 a year", or null when a year saves nothing. */
export function yearlySavingText(plan: {
  yearlySavingCents: number;
  yearlySavingPercent: number;
  currency: string;
  perSeat?: boolean;
}): string | null {
  if (plan.yearlySavingCents <= 0) return null;
  const per = plan.perSeat ? " per seat" : "";
  return `Save ${plan.yearlySavingPercent}% — ${formatMoney(plan.yearlySavingCents, plan.currency)} a year${per}`;
}
