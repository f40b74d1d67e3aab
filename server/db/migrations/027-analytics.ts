/**
 * Analytics that are kept (issue 14, /admin/analytics and /admin/overview). `content_view` keeps
 * only today's and yesterday's dedup rows, so the history lives in daily aggregates written in
 * the same transaction as a view is counted (and by the search service for searches). No raw
 * personal data: no user ids, addresses or reader keys, only counts; search texts are
 * normalised and anything that looks like an e-mail address or a phone number is not stored.
 *
 * - `analytics_daily`: per UTC day and item, the counted views (a view is counted once per
 *   reader, item and day, so `views` is also the item's unique readers that day) and the same
 *   split by the reader's tier (visitor, free, basic, pro, enterprise).
 * - `analytics_site_daily`: per UTC day, the site-wide unique readers (a reader counted once a
 *   day whatever they read), also by tier.
 * - `analytics_reader_day`: the dedup rows of that count: a keyed hash of the reader and the day
 *   (changes every day, not reversible without the server secret); pruned with `content_view`.
 * - `analytics_search_daily`: per UTC day and normalised query, how many searches and how many
 *   of them found nothing.
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

const TIER_COLUMNS = ["visitor", "free", "basic", "pro", "enterprise"] as const;

export const migration: Migration = {
  async up(db: AnyDb) {
    let daily = db.schema
      .createTable("analytics_daily")
      /** UTC day, YYYY-MM-DD. */
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("contentId", "text", (c) => c.notNull().references("content.id").onDelete("cascade"))
      .addColumn("views", "integer", (c) => c.notNull().defaultTo(0));
    for (const tier of TIER_COLUMNS)
      daily = daily.addColumn(`${tier}Views`, "integer", (c) => c.notNull().defaultTo(0));
    await daily.addPrimaryKeyConstraint("analytics_daily_pk", ["day", "contentId"]).execute();
    await db.schema
      .createIndex("analytics_daily_contentId_idx")
      .on("analytics_daily")
      .column("contentId")
      .execute();

    let site = db.schema
      .createTable("analytics_site_daily")
      .addColumn("day", "text", (c) => c.primaryKey().notNull())
      .addColumn("readers", "integer", (c) => c.notNull().defaultTo(0));
    for (const tier of TIER_COLUMNS)
      site = site.addColumn(`${tier}Readers`, "integer", (c) => c.notNull().defaultTo(0));
    await site.execute();

    await db.schema
      .createTable("analytics_reader_day")
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("readerHash", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("analytics_reader_day_pk", ["day", "readerHash"])
      .execute();

    await db.schema
      .createTable("analytics_search_daily")
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("query", "text", (c) => c.notNull())
      .addColumn("searches", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("zeroResults", "integer", (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("analytics_search_daily_pk", ["day", "query"])
      .execute();

    // Sign-ups per day read user.createdAt over a range.
    await db.schema.createIndex("user_createdAt_idx").on("user").column("createdAt").ifNotExists().execute();
  },

  async down(db: AnyDb) {
    await db.schema.dropIndex("user_createdAt_idx").ifExists().execute();
    for (const table of [
      "analytics_search_daily",
      "analytics_reader_day",
      "analytics_site_daily",
      "analytics_daily",
    ])
      await db.schema.dropTable(table).execute();
  },
};
