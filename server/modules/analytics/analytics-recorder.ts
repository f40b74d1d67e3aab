/**
 * The write side of analytics (migration 027): the daily aggregates a counted view and a search
 * add to. Each write is one upsert (`INSERT … ON CONFLICT DO UPDATE SET n = n + 1`), never a
 * read before the write, so concurrent requests never lose a count. Nothing personal is stored:
 * views are counts by tier, readers a keyed daily hash (only to count each reader once a day),
 * and search texts are normalised with e-mail addresses and phone numbers left out.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";

/** The reader tiers analytics splits by (a visitor is not signed in). */
export const READER_TIERS = ["visitor", "free", "basic", "pro", "enterprise"] as const;
export type ReaderTier = (typeof READER_TIERS)[number];

/** Longest search text kept (longer ones are cut). */
export const SEARCH_QUERY_MAX = 100;

/** What a search text is stored as when it looks like personal data. */
export const REDACTED_QUERY = "(personal data not stored)";

/** The tier column of a reader: a visitor, or their plan in lowercase (no plan reads as free). */
export function readerTierOf(access: { isAuthenticated: boolean; tier: string | null }): ReaderTier {
  if (!access.isAuthenticated) return "visitor";
  const tier = (access.tier ?? "free").toLowerCase();
  if (tier === "business") return "enterprise";
  return (READER_TIERS as readonly string[]).includes(tier) && tier !== "visitor"
    ? (tier as ReaderTier)
    : "free";
}

/**
 * A search text as it is counted: lowercased, spaces collapsed, cut to 100 characters; null when
 * empty. Text that looks like an e-mail address or a phone number (7+ digits) becomes
 * `REDACTED_QUERY`, so no one's contact details end up in the aggregates.
 */
export function normaliseSearchQuery(text: string): string | null {
  const normal = text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  if (!normal) return null;
  if (/[^\s@]+@[^\s@]+/.test(normal) || /(?:\d[\s().-]*){7,}/.test(normal)) return REDACTED_QUERY;
  return [...normal].slice(0, SEARCH_QUERY_MAX).join("").trim();
}

/** A counted view's aggregates: the item's day row, and the site's readers when the reader is new today. */
export async function addViewAggregates(
  trx: Kysely<DB>,
  view: { day: string; contentId: string; tier: ReaderTier; readerHash: string },
): Promise<void> {
  const tierViews = `${view.tier}Views` as const;
  await trx
    .insertInto("analytics_daily")
    .values({ day: view.day, contentId: view.contentId, views: 1, [tierViews]: 1 })
    .onConflict((oc) =>
      oc.columns(["day", "contentId"]).doUpdateSet((eb) => ({
        views: eb("analytics_daily.views", "+", 1),
        [tierViews]: eb(`analytics_daily.${tierViews}`, "+", 1),
      })),
    )
    .execute();
  const firstToday = await trx
    .insertInto("analytics_reader_day")
    .values({ day: view.day, readerHash: view.readerHash })
    .onConflict((oc) => oc.doNothing())
    .returning("day")
    .executeTakeFirst();
  if (!firstToday) return;
  const tierReaders = `${view.tier}Readers` as const;
  await trx
    .insertInto("analytics_site_daily")
    .values({ day: view.day, readers: 1, [tierReaders]: 1 })
    .onConflict((oc) =>
      oc.column("day").doUpdateSet((eb) => ({
        readers: eb("analytics_site_daily.readers", "+", 1),
        [tierReaders]: eb(`analytics_site_daily.${tierReaders}`, "+", 1),
      })),
    )
    .execute();
}

/** Deletes the readers' dedup rows of days before `day` (they only deduplicate today). */
export async function pruneReaderDaysBefore(db: Kysely<DB>, day: string): Promise<number> {
  const result = await db.deleteFrom("analytics_reader_day").where("day", "<", day).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Counts one search of `query` (already normalised) on `day`; `found` is its number of results. */
export async function addSearch(db: Kysely<DB>, day: string, query: string, found: number): Promise<void> {
  const zero = found === 0 ? 1 : 0;
  await db
    .insertInto("analytics_search_daily")
    .values({ day, query, searches: 1, zeroResults: zero })
    .onConflict((oc) =>
      oc.columns(["day", "query"]).doUpdateSet((eb) => ({
        searches: eb("analytics_search_daily.searches", "+", 1),
        zeroResults: eb("analytics_search_daily.zeroResults", "+", zero),
      })),
    )
    .execute();
}
