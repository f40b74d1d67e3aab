/**
 * The arithmetic of billing periods (decision 019), pure: a period's end, the next renewal of a
 * row that never had a period, how upgrades and downgrades are told apart, and the proration of
 * an upgrade made in the middle of a period (what the manual provider records on its receipt).
 */
import { planRank } from "../../../core/tiers.ts";
import type { BillingInterval } from "./billing.types.ts";

const DAY = 86_400_000;

/** The instant one interval after `from` (calendar months; the 31st becomes the month's last day). */
export function addInterval(fromIso: string, interval: BillingInterval, count = 1): string {
  const from = new Date(fromIso);
  const months = interval === "year" ? 12 * count : count;
  const target = new Date(from.getTime());
  const day = from.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString();
}

/** The first period boundary after `nowIso` counted from `startIso` (rows that never had a period). */
export function currentPeriod(
  startIso: string,
  interval: BillingInterval,
  nowIso: string,
): { periodStart: string; periodEnd: string } {
  let start = startIso > nowIso ? nowIso : startIso;
  let end = addInterval(start, interval);
  // Years of monthly periods at most: a row started long ago jumps ahead a year at a time first.
  while (end <= nowIso) {
    const yearAhead = addInterval(start, "year");
    if (interval === "month" && yearAhead <= nowIso) {
      start = yearAhead;
    } else {
      start = end;
    }
    end = addInterval(start, interval);
  }
  return { periodStart: start, periodEnd: end };
}

/** The part of the period [start, end) still to run at `now`, between 0 and 1. */
export function remainingFraction(periodStart: string, periodEnd: string, nowIso: string): number {
  const start = Date.parse(periodStart);
  const end = Date.parse(periodEnd);
  const now = Date.parse(nowIso);
  if (!(end > start)) return 0;
  return Math.min(1, Math.max(0, (end - now) / (end - start)));
}

export interface ProrationInput {
  /** Price of one period of the current plan, interval and seats (cents). */
  currentPeriodCents: number;
  /** Price of one period of the new plan, interval and seats (cents). */
  newPeriodCents: number;
  /** Whether the interval changes (month → year): the new period starts now. */
  intervalChanges: boolean;
  periodStart: string;
  periodEnd: string;
  now: string;
}

/**
 * What an upgrade made now costs. Same interval: the price difference for the rest of the
 * current period (the period end stays). New interval: a full new period starting now, less the
 * unused part of the current one. Never negative; rounded to whole cents.
 */
export function prorate(input: ProrationInput): { amountCents: number; fraction: number } {
  const fraction = remainingFraction(input.periodStart, input.periodEnd, input.now);
  const amount = input.intervalChanges
    ? input.newPeriodCents - input.currentPeriodCents * fraction
    : (input.newPeriodCents - input.currentPeriodCents) * fraction;
  return { amountCents: Math.max(0, Math.round(amount)), fraction };
}

/** Days between two instants, rounded up (for "in 3 days"). */
export function daysBetween(fromIso: string, toIso: string): number {
  return Math.max(0, Math.ceil((Date.parse(toIso) - Date.parse(fromIso)) / DAY));
}

export type ChangeDirection = "upgrade" | "downgrade" | "same";

/**
 * Upgrade (now, prorated): a higher tier; or the same tier with a longer interval or more seats
 * and nothing less. Downgrade (at the period end): anything else that differs. Same: nothing differs.
 */
export function changeDirection(
  from: { tier: string; interval: BillingInterval; seats: number },
  to: { tier: string; interval: BillingInterval; seats: number },
): ChangeDirection {
  const rank = planRank(to.tier) - planRank(from.tier);
  if (rank > 0) return "upgrade";
  if (rank < 0) return "downgrade";
  const intervalStep = (to.interval === "year" ? 1 : 0) - (from.interval === "year" ? 1 : 0);
  const seatStep = Math.sign(to.seats - from.seats);
  if (intervalStep === 0 && seatStep === 0) return "same";
  if (intervalStep >= 0 && seatStep >= 0) return "upgrade";
  return "downgrade";
}
