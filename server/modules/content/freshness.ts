/**
 * Freshness of content (decision 038): when an item is due for review, whether it is stale, and
 * the same reading in SQL for the review queue.
 *
 * An item's effective review-by date is its own `reviewBy` when set; otherwise the later of its
 * last review (`lastReviewedAt`) or, never reviewed, its publication (`publishedAt`), plus its
 * section's default period (system settings `freshness.reviewDays.<section>`, core
 * REVIEW_PERIOD_DEFAULTS). No date at all (never published, no section, a period of 0): never due.
 * The item is stale from that instant on.
 *
 * Pure: the time and the periods are passed in.
 */
import { type RawBuilder, sql } from "kysely";
import { REVIEW_PERIOD_DEFAULTS, reviewPeriodKey, type SettingValue } from "../../../core/index.ts";

export const DAY_MS = 86_400_000;

/** Items due within this many days join the review queue before they turn stale. */
export const REVIEW_QUEUE_HORIZON_DAYS = 14;

/** The default review period of a section, in days (0: none). */
export type ReviewPeriods = (section: string | null) => number;

/** What the date logic reads of an item. */
export interface FreshnessFields {
  section: string | null;
  publishedAt: string | null;
  reviewBy: string | null;
  lastReviewedAt: string | null;
}

/** The periods from the live settings (`value(key)`), each setting's default when unset or invalid. */
export function reviewPeriodsFrom(value: (key: string) => SettingValue | undefined): ReviewPeriods {
  return (section) => {
    if (!section) return 0;
    const fallback = REVIEW_PERIOD_DEFAULTS[section]?.days;
    if (fallback === undefined) return 0;
    const v = value(reviewPeriodKey(section));
    return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : fallback;
  };
}

/** The catalogue's defaults (no settings service: tests and tools). */
export const defaultReviewPeriods: ReviewPeriods = reviewPeriodsFrom(() => undefined);

const msOf = (iso: string | null): number | null => {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
};

/** The effective review-by instant (epoch ms), or null when the item is never due. */
export function effectiveReviewByMs(item: FreshnessFields, periods: ReviewPeriods): number | null {
  const own = msOf(item.reviewBy);
  if (own !== null) return own;
  const base = msOf(item.lastReviewedAt) ?? msOf(item.publishedAt);
  if (base === null) return null;
  const days = periods(item.section);
  return days > 0 ? base + days * DAY_MS : null;
}

/** The effective review-by date as ISO-8601, or null. */
export function effectiveReviewBy(item: FreshnessFields, periods: ReviewPeriods): string | null {
  const ms = effectiveReviewByMs(item, periods);
  return ms === null ? null : new Date(ms).toISOString();
}

/** Stale: the effective review-by instant has come (`reviewBy` is the effective date, ISO). */
export function isStale(reviewBy: string | null, nowMs: number): boolean {
  const ms = msOf(reviewBy);
  return ms !== null && ms <= nowMs;
}

/**
 * What marking an item reviewed at `nowMs` writes: the review's time and reviewer, and its own
 * review-by date cleared when that date has come (it asked for this review; a later date stays).
 */
export function reviewedPatch(
  item: Pick<FreshnessFields, "reviewBy">,
  nowMs: number,
  reviewerId: string,
): { lastReviewedAt: string; lastReviewedBy: string; clearReviewBy: boolean } {
  const own = msOf(item.reviewBy);
  return {
    lastReviewedAt: new Date(nowMs).toISOString(),
    lastReviewedBy: reviewerId,
    clearReviewBy: own !== null && own <= nowMs,
  };
}

/**
 * The effective review-by epoch in SQL (the same reading as `effectiveReviewByMs`): the own date's
 * epoch, else the last review's (or publication's) epoch plus the section's period, as a CASE over
 * the sections with a period; NULL when never due. Portable: epochs are bigints on both dialects.
 */
export function effectiveReviewBySql(periods: ReviewPeriods): RawBuilder<number | null> {
  const base = sql`coalesce(${sql.ref("lastReviewedEpoch")}, ${sql.ref("publishedEpoch")})`;
  const arms = Object.keys(REVIEW_PERIOD_DEFAULTS)
    .map((section) => [section, periods(section)] as const)
    .filter(([, days]) => days > 0)
    .map(
      ([section, days]) =>
        sql`when ${sql.ref("section")} = ${sql.lit(section)} then ${base} + ${sql.lit(days * DAY_MS)}`,
    );
  const byPeriod = arms.length ? sql`(case ${sql.join(arms, sql` `)} else null end)` : sql`null`;
  return sql<number | null>`coalesce(${sql.ref("reviewByEpoch")}, ${byPeriod})`;
}
