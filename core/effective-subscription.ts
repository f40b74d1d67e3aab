/**
 * The effective subscription: which of a user's subscription rows sets their tier (the
 * `custom:tier` and `custom:subscriptionStatus` claims) and which of an organisation's rows is its
 * plan. The one rule, used by identity (`server/auth/identity.ts`) and by organisations.
 *
 * Candidates are the user's own rows plus every row of the organisations the user belongs to
 * (`tenantId` = organisation id): an organisation seat counts exactly like an own subscription.
 *
 * 1. A row grants its tier at `now` when its status is `active` or `trialing`, it has not expired
 *    (`expiresAt` null or after `now`) and it is not canceled by then (`canceledAt` null or after
 *    `now`: a cancellation dated in the future — "cancel at period end" — keeps the row granting
 *    until that date). A `past_due` row (a failed payment) grants only during its grace period:
 *    until its `expiresAt`, which must be set. Timestamps are ISO-8601 strings compared as stored.
 * 2. Among granting rows the highest tier wins (Free < Basic < Pro < Enterprise, `business` reads
 *    as Enterprise; an unknown tier ranks below Free but still wins when it is the only row).
 * 3. Ties: the most recently started row (`startedAt`, else `createdAt`), then the greatest id,
 *    so the answer never depends on the order the rows were loaded in.
 */
import { planRank } from "./tiers.ts";

/** Statuses that grant a subscription's tier (until it expires or its cancellation takes effect). */
export const ACTIVE_SUBSCRIPTION_STATUSES = ["active", "trialing"] as const;

/** A failed payment: the row grants only until its `expiresAt` (the grace end, decision 019). */
export const GRACE_SUBSCRIPTION_STATUSES = ["past_due"] as const;

/** Every status that may grant: the rows worth loading for the rule. */
export const GRANTING_SUBSCRIPTION_STATUSES = [
  ...ACTIVE_SUBSCRIPTION_STATUSES,
  ...GRACE_SUBSCRIPTION_STATUSES,
] as const;

/** The fields of a subscription row the rule reads. */
export interface SubscriptionCandidate {
  id: string;
  tier: string;
  status: string;
  expiresAt: string | null;
  canceledAt: string | null;
  startedAt: string | null;
  createdAt: string;
}

/** Rule 1: does this row grant its tier at `now`? */
export function subscriptionGrants(row: SubscriptionCandidate, now: Date): boolean {
  const at = now.toISOString();
  const inGrace = (GRACE_SUBSCRIPTION_STATUSES as readonly string[]).includes(row.status);
  if (!inGrace && !(ACTIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(row.status)) return false;
  if (inGrace && row.expiresAt === null) return false;
  return (row.expiresAt === null || row.expiresAt > at) && (row.canceledAt === null || row.canceledAt > at);
}

/** Rules 2 and 3 as a comparator: negative when `a` is preferred over `b`. */
export function compareSubscriptions(a: SubscriptionCandidate, b: SubscriptionCandidate): number {
  const diff = planRank(b.tier) - planRank(a.tier);
  if (diff !== 0) return diff;
  const started = (b.startedAt ?? b.createdAt).localeCompare(a.startedAt ?? a.createdAt);
  if (started !== 0) return started;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/** The subscription that sets the tier at `now`, or null when no row grants one. */
export function effectiveSubscription<T extends SubscriptionCandidate>(
  rows: readonly T[],
  now: Date,
): T | null {
  let best: T | null = null;
  for (const row of rows) {
    if (!subscriptionGrants(row, now)) continue;
    if (best === null || compareSubscriptions(row, best) < 0) best = row;
  }
  return best;
}
