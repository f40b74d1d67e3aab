/**
 * Analytics and the overview for platform administrators (issue 14; /admin/analytics,
 * /admin/overview, the /admin figures; docs/api/analytics.md). Everything is read from what is
 * recorded, never estimated:
 *
 * - views and unique readers: the daily aggregates of migration 027 (analytics-recorder.ts);
 * - sign-ups: `user.createdAt`;
 * - upgrades, downgrades, conversions (free → paid) and churn (paid → free): the
 *   `entitlement_changed` audit rows (fromTier, toTier) of the billing write path;
 * - tier mix: every active account's effective subscription now (core effective-subscription);
 * - course completions: `course_progress` (a course is complete when all its lessons are done,
 *   as engagement.service.ts computes it; the completion day is the last lesson's);
 * - content published: `content.publishedAt` of published items;
 * - searches: `analytics_search_daily`;
 * - failed repository syncs: `github_repository.lastSyncError`; security events: the audit log.
 *
 * Access: `adminAccess("analytics.read")` (platform administrators); visitors 401, everyone
 * else 403, API keys and service tokens 403.
 */
import { type Kysely, sql } from "kysely";
import { adminAccess } from "../../../core/admin-scope.ts";
import { auditActionLabel } from "../../../core/audit-actions.ts";
import {
  effectiveSubscription,
  GRANTING_SUBSCRIPTION_STATUSES,
} from "../../../core/effective-subscription.ts";
import { contentPathFor } from "../../../core/seo/urls.ts";
import { planRank } from "../../../core/tiers.ts";
import { dialectOf } from "../../db/dialect.ts";
import type { DB } from "../../db/schema.ts";
import { toBool } from "../../db/values.ts";
import { ForbiddenError, UnauthenticatedError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { planTierOf } from "../billing/billing-apply.ts";
import { chooseTemplate } from "../content/content-projection.ts";
import { type AnalyticsRange, addDays, daysBetween, type OverviewPeriod } from "./analytics-range.ts";
import { READER_TIERS, type ReaderTier } from "./analytics-recorder.ts";

export const PLAN_TIERS = ["free", "basic", "pro", "enterprise"] as const;
export type PlanTierName = (typeof PLAN_TIERS)[number];

/** The security events the overview lists. */
export const OVERVIEW_SECURITY_ACTIONS = [
  "sign_in_failure",
  "lockout",
  "admin_unlock",
  "mfa_enabled",
  "mfa_disabled",
  "mfa_failure",
  "password_reset",
  "device_mismatch",
  "backup_code_used",
] as const;

export interface DayFigures {
  day: string;
  views: number;
  /** Site-wide unique readers that day. */
  readers: number;
  signUps: number;
  upgrades: number;
  downgrades: number;
  conversions: number;
  churn: number;
  completions: number;
  published: number;
  searches: number;
  zeroResultSearches: number;
}

export type Totals = Omit<DayFigures, "day">;

export interface TopContentItem {
  id: string;
  title: string;
  slug: string;
  path: string;
  views: number;
}

export interface AnalyticsReport {
  range: AnalyticsRange;
  series: DayFigures[];
  /** The previous period, day by day (same length; index i is `range.previous.from` + i). */
  previousSeries: DayFigures[];
  totals: Totals;
  previousTotals: Totals;
  /** Accounts by the tier their effective subscription gives them now. */
  tierMix: { tier: PlanTierName; readers: number }[];
  /** Views in the range by the reader's tier (visitor = not signed in). */
  viewsByTier: { tier: ReaderTier; views: number }[];
  /** The five most viewed items in the range, overall ("all") and by the reader's tier. */
  topContent: Record<"all" | ReaderTier, TopContentItem[]>;
  /** Searches that found nothing in the range, most frequent first (at most 20). */
  zeroResultSearches: { query: string; searches: number; zeroResults: number }[];
  generatedAt: string;
}

export interface OverviewReport {
  period: OverviewPeriod;
  range: AnalyticsRange;
  readers: { total: number; paying: number; byTier: { tier: PlanTierName; readers: number }[] };
  totals: Totals;
  previousTotals: Totals;
  topContent: TopContentItem[];
  /** Repositories whose last sync failed (the 20 most recent failures). */
  failedSyncs: { id: string; slug: string; name: string; error: string; at: string | null }[];
  /** How many repositories' last sync failed. */
  failedSyncCount: number;
  securityEvents: {
    id: string;
    at: string;
    action: string;
    label: string;
    actorEmail: string | null;
    /** The account the event is about, when it is one. */
    targetEmail: string | null;
    targetType: string | null;
    targetId: string | null;
  }[];
  /** How many of each security action happened in the period. */
  securityCounts: Record<(typeof OVERVIEW_SECURITY_ACTIONS)[number], number>;
  generatedAt: string;
}

const EMPTY: Totals = {
  views: 0,
  readers: 0,
  signUps: 0,
  upgrades: 0,
  downgrades: 0,
  conversions: 0,
  churn: 0,
  completions: 0,
  published: 0,
  searches: 0,
  zeroResultSearches: 0,
};

export function requireAnalyticsReader(actor: Actor): void {
  if (actor.kind === "api-key" || actor.kind === "service")
    throw new ForbiddenError(
      "analytics are for signed-in platform administrators; API keys and service tokens cannot read them",
    );
  const decision = adminAccess("analytics.read", actor.access);
  if (decision.kind === "denied") {
    if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
    throw new ForbiddenError(decision.message);
  }
}

const num = (v: unknown) => Number(v ?? 0);
const startOf = (day: string) => `${day}T00:00:00.000Z`;

function parseDetails(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

export function createAnalyticsService(deps: { db: Kysely<DB>; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const postgres = dialectOf(db) === "postgres";

  /** The UTC day of a Better Auth datetime column, in SQL. */
  const dayOfAuthDate = (column: string) =>
    postgres
      ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
      : sql<string>`substr(${sql.ref(column)}, 1, 10)`;

  /** Per-day figures from `from` to `to` (every day present, zeros where nothing happened). */
  async function daily(from: string, to: string): Promise<Map<string, DayFigures>> {
    const out = new Map<string, DayFigures>(daysBetween(from, to).map((day) => [day, { day, ...EMPTY }]));
    const add = (day: string, key: keyof Totals, n: number) => {
      const row = out.get(day);
      if (row) row[key] += n;
    };
    const fromIso = startOf(from);
    const toIso = startOf(addDays(to, 1));

    const [views, readers, signUps, changes, published, searches] = await Promise.all([
      db
        .selectFrom("analytics_daily")
        .select(["day", (eb) => eb.fn.sum<number>("views").as("n")])
        .where("day", ">=", from)
        .where("day", "<=", to)
        .groupBy("day")
        .execute(),
      db
        .selectFrom("analytics_site_daily")
        .select(["day", "readers"])
        .where("day", ">=", from)
        .where("day", "<=", to)
        .execute(),
      db
        .selectFrom("user")
        .select([dayOfAuthDate("user.createdAt").as("day"), (eb) => eb.fn.countAll<number>().as("n")])
        .where("user.createdAt", ">=", postgres ? new Date(fromIso) : fromIso)
        .where("user.createdAt", "<", postgres ? new Date(toIso) : toIso)
        .groupBy(dayOfAuthDate("user.createdAt"))
        .execute(),
      db
        .selectFrom("audit_log")
        .select(["at", "details"])
        .where("action", "=", "entitlement_changed")
        .where("at", ">=", fromIso)
        .where("at", "<", toIso)
        .execute(),
      db
        .selectFrom("content")
        .select([
          sql<string>`substr(${sql.ref("publishedAt")}, 1, 10)`.as("day"),
          (eb) => eb.fn.countAll<number>().as("n"),
        ])
        .where("status", "=", "published")
        .where("publishedAt", ">=", fromIso)
        .where("publishedAt", "<", toIso)
        .groupBy(sql`substr(${sql.ref("publishedAt")}, 1, 10)`)
        .execute(),
      db
        .selectFrom("analytics_search_daily")
        .select([
          "day",
          (eb) => eb.fn.sum<number>("searches").as("searches"),
          (eb) => eb.fn.sum<number>("zeroResults").as("zero"),
        ])
        .where("day", ">=", from)
        .where("day", "<=", to)
        .groupBy("day")
        .execute(),
    ]);
    for (const r of views) add(r.day, "views", num(r.n));
    for (const r of readers) add(r.day, "readers", num(r.readers));
    for (const r of signUps) add(String(r.day), "signUps", num(r.n));
    for (const r of published) add(String(r.day), "published", num(r.n));
    for (const r of searches) {
      add(r.day, "searches", num(r.searches));
      add(r.day, "zeroResultSearches", num(r.zero));
    }
    for (const r of changes) {
      const details = parseDetails(r.details);
      const fromRank = planRank(details.fromTier ?? "free");
      const toRank = planRank(details.toTier ?? "free");
      const freeRank = planRank("free");
      const day = r.at.slice(0, 10);
      if (toRank > fromRank) add(day, "upgrades", 1);
      if (toRank < fromRank) add(day, "downgrades", 1);
      if (fromRank <= freeRank && toRank > freeRank) add(day, "conversions", 1);
      if (fromRank > freeRank && toRank <= freeRank) add(day, "churn", 1);
    }
    for (const day of await completionDays(fromIso, toIso)) add(day, "completions", 1);
    return out;
  }

  /** The day of each course completion in [fromIso, toIso): when the last of its lessons was done. */
  async function completionDays(fromIso: string, toIso: string): Promise<string[]> {
    const candidates = await db
      .selectFrom("content")
      .select(["id", "type", "templateId", "related"])
      .where("status", "=", "published")
      .where((eb) => eb.or([eb("type", "=", "course"), eb("templateId", "=", "course")]))
      .execute();
    const courses = candidates.filter((c) => chooseTemplate(c) === "course");
    const days: string[] = [];
    for (const course of courses) {
      let slugs: string[] = [];
      try {
        const parsed = JSON.parse(course.related);
        slugs = Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === "string") : [];
      } catch {
        slugs = [];
      }
      if (!slugs.length) continue;
      const lessons = await db
        .selectFrom("content")
        .select("id")
        .where("slug", "in", slugs)
        .where("status", "=", "published")
        .execute();
      const lessonIds = [...new Set(lessons.map((l) => l.id))];
      if (!lessonIds.length) continue;
      const done = await db
        .selectFrom("course_progress")
        .select(["userId", (eb) => eb.fn.max<string>("completedAt").as("at")])
        .where("courseId", "=", course.id)
        .where("lessonId", "in", lessonIds)
        .groupBy("userId")
        .having((eb) => eb.fn.count("lessonId").distinct(), "=", lessonIds.length)
        .having((eb) => eb.fn.max("completedAt"), ">=", fromIso)
        .having((eb) => eb.fn.max("completedAt"), "<", toIso)
        .execute();
      for (const row of done) days.push(String(row.at).slice(0, 10));
    }
    return days;
  }

  /** Active accounts by the tier their effective subscription gives them at this moment. */
  async function tierMix(): Promise<{ tier: PlanTierName; readers: number }[]> {
    const at = new Date(now());
    const [users, rows, memberships, orgs] = await Promise.all([
      db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("isActive", "=", true)
        .executeTakeFirst(),
      db
        .selectFrom("user_subscription")
        .leftJoin("user", "user.id", "user_subscription.userId")
        .select([
          "user_subscription.id",
          "user_subscription.userId",
          "user_subscription.tenantId",
          "user_subscription.tier",
          "user_subscription.status",
          "user_subscription.expiresAt",
          "user_subscription.canceledAt",
          "user_subscription.startedAt",
          "user_subscription.createdAt",
          "user.isActive as ownerActive",
        ])
        .where("user_subscription.status", "in", [...GRANTING_SUBSCRIPTION_STATUSES])
        .execute(),
      db
        .selectFrom("user_group")
        .innerJoin("user", "user.id", "user_group.userId")
        .select(["user_group.userId", "user_group.groupName"])
        .where("user_group.groupName", "like", "org-%")
        .where("user.isActive", "=", true)
        .execute(),
      db.selectFrom("organization").select(["id", "slug"]).execute(),
    ]);
    const orgIdBySlug = new Map(orgs.map((o) => [o.slug, o.id]));
    const rowsByTenant = new Map<string, typeof rows>();
    const rowsByUser = new Map<string, typeof rows>();
    for (const row of rows) {
      if (row.tenantId) rowsByTenant.set(row.tenantId, [...(rowsByTenant.get(row.tenantId) ?? []), row]);
      // Own rows count for active accounts; an organisation's rows for its active members below.
      if (toBool(row.ownerActive ?? false))
        rowsByUser.set(row.userId, [...(rowsByUser.get(row.userId) ?? []), row]);
    }
    const candidates = new Map<string, typeof rows>();
    for (const [userId, own] of rowsByUser) candidates.set(userId, [...own]);
    for (const m of memberships) {
      if (m.groupName.endsWith("-admin")) continue;
      const orgId = orgIdBySlug.get(m.groupName.slice(4));
      const orgRows = orgId ? rowsByTenant.get(orgId) : undefined;
      if (!orgRows) continue;
      candidates.set(m.userId, [...(candidates.get(m.userId) ?? []), ...orgRows]);
    }
    const counts = new Map<PlanTierName, number>(PLAN_TIERS.map((t) => [t, 0]));
    let withPlan = 0;
    for (const list of candidates.values()) {
      const best = effectiveSubscription([...new Map(list.map((r) => [r.id, r])).values()], at);
      const tier = best ? planTierOf(best.tier) : "free";
      if (tier === "free") continue;
      counts.set(tier, (counts.get(tier) ?? 0) + 1);
      withPlan++;
    }
    counts.set("free", Math.max(0, num(users?.n) - withPlan));
    return PLAN_TIERS.map((tier) => ({ tier, readers: counts.get(tier) ?? 0 }));
  }

  async function topContent(
    range: AnalyticsRange,
    tier: "all" | ReaderTier,
    limit = 5,
  ): Promise<TopContentItem[]> {
    const column = tier === "all" ? "analytics_daily.views" : (`analytics_daily.${tier}Views` as const);
    const rows = await db
      .selectFrom("analytics_daily")
      .innerJoin("content", "content.id", "analytics_daily.contentId")
      .select([
        "content.id",
        "content.title",
        "content.slug",
        "content.type",
        (eb) => eb.fn.sum<number>(column).as("n"),
      ])
      .where("analytics_daily.day", ">=", range.from)
      .where("analytics_daily.day", "<=", range.to)
      .groupBy(["content.id", "content.title", "content.slug", "content.type"])
      .having((eb) => eb.fn.sum(column), ">", 0)
      .orderBy("n", "desc")
      .orderBy("content.title")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      slug: r.slug,
      path: contentPathFor({ type: r.type, slug: r.slug }),
      views: num(r.n),
    }));
  }

  async function viewsByTier(range: AnalyticsRange): Promise<{ tier: ReaderTier; views: number }[]> {
    const row = await db
      .selectFrom("analytics_daily")
      .select((eb) => READER_TIERS.map((t) => eb.fn.sum<number>(`${t}Views`).as(t)))
      .where("day", ">=", range.from)
      .where("day", "<=", range.to)
      .executeTakeFirst();
    return READER_TIERS.map((tier) => ({ tier, views: num(row?.[tier]) }));
  }

  async function zeroResultSearches(range: AnalyticsRange) {
    const rows = await db
      .selectFrom("analytics_search_daily")
      .select([
        "query",
        (eb) => eb.fn.sum<number>("searches").as("searches"),
        (eb) => eb.fn.sum<number>("zeroResults").as("zeroResults"),
      ])
      .where("day", ">=", range.from)
      .where("day", "<=", range.to)
      .groupBy("query")
      .having((eb) => eb.fn.sum("zeroResults"), ">", 0)
      .orderBy("zeroResults", "desc")
      .orderBy("query")
      .limit(20)
      .execute();
    return rows.map((r) => ({ query: r.query, searches: num(r.searches), zeroResults: num(r.zeroResults) }));
  }

  const sum = (rows: DayFigures[]): Totals => {
    const t = { ...EMPTY };
    for (const row of rows) for (const key of Object.keys(EMPTY) as (keyof Totals)[]) t[key] += row[key];
    return t;
  };

  async function periods(range: AnalyticsRange) {
    const all = await daily(range.previous.from, range.to);
    const series = daysBetween(range.from, range.to).map((d) => all.get(d)!);
    const previousSeries = daysBetween(range.previous.from, range.previous.to).map((d) => all.get(d)!);
    return { series, previousSeries, totals: sum(series), previousTotals: sum(previousSeries) };
  }

  return {
    /** The service's clock (epoch ms): ranges end on its today. */
    now: () => now(),
    /** The analytics of `range` (platform administrators only). */
    async report(actor: Actor, range: AnalyticsRange): Promise<AnalyticsReport> {
      requireAnalyticsReader(actor);
      const [p, mix, byTier, zero, ...tops] = await Promise.all([
        periods(range),
        tierMix(),
        viewsByTier(range),
        zeroResultSearches(range),
        topContent(range, "all"),
        ...READER_TIERS.map((t) => topContent(range, t)),
      ]);
      const topByTier = Object.fromEntries([
        ["all", tops[0]],
        ...READER_TIERS.map((t, i) => [t, tops[i + 1]]),
      ]) as AnalyticsReport["topContent"];
      return {
        range,
        ...p,
        tierMix: mix,
        viewsByTier: byTier,
        topContent: topByTier,
        zeroResultSearches: zero,
        generatedAt: new Date(now()).toISOString(),
      };
    },

    /** The overview of a period (platform administrators only). */
    async overview(actor: Actor, period: OverviewPeriod, range: AnalyticsRange): Promise<OverviewReport> {
      requireAnalyticsReader(actor);
      const fromIso = startOf(range.from);
      const [p, mix, top, syncs, syncCount, events, counts] = await Promise.all([
        periods(range),
        tierMix(),
        topContent(range, "all"),
        db
          .selectFrom("github_repository")
          .select(["id", "slug", "name", "displayName", "fullName", "lastSyncError", "lastSyncErrorAt"])
          .where("lastSyncError", "is not", null)
          .orderBy("lastSyncErrorAt", "desc")
          .limit(20)
          .execute(),
        db
          .selectFrom("github_repository")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("lastSyncError", "is not", null)
          .executeTakeFirst(),
        db
          .selectFrom("audit_log")
          .leftJoin("user", "user.id", "audit_log.actorId")
          .leftJoin("user as target", (join) =>
            join.onRef("target.id", "=", "audit_log.targetId").on("audit_log.targetType", "=", "user"),
          )
          .select([
            "audit_log.id",
            "audit_log.at",
            "audit_log.action",
            "audit_log.targetType",
            "audit_log.targetId",
            "user.email as actorEmail",
            "target.email as targetEmail",
          ])
          .where("audit_log.action", "in", [...OVERVIEW_SECURITY_ACTIONS])
          .orderBy("audit_log.at", "desc")
          .orderBy("audit_log.id", "desc")
          .limit(10)
          .execute(),
        db
          .selectFrom("audit_log")
          .select(["action", (eb) => eb.fn.countAll<number>().as("n")])
          .where("action", "in", [...OVERVIEW_SECURITY_ACTIONS])
          .where("at", ">=", fromIso)
          .groupBy("action")
          .execute(),
      ]);
      const securityCounts = Object.fromEntries(
        OVERVIEW_SECURITY_ACTIONS.map((a) => [a, 0]),
      ) as OverviewReport["securityCounts"];
      for (const c of counts) securityCounts[c.action as keyof typeof securityCounts] = num(c.n);
      return {
        period,
        range,
        readers: {
          total: mix.reduce((n, t) => n + t.readers, 0),
          paying: mix.filter((t) => t.tier !== "free").reduce((n, t) => n + t.readers, 0),
          byTier: mix,
        },
        totals: p.totals,
        previousTotals: p.previousTotals,
        topContent: top,
        failedSyncs: syncs.map((s) => ({
          id: s.id,
          slug: s.slug,
          name: s.displayName ?? s.fullName ?? s.name ?? s.slug,
          error: s.lastSyncError ?? "",
          at: s.lastSyncErrorAt,
        })),
        failedSyncCount: num(syncCount?.n),
        securityEvents: events.map((e) => ({
          id: e.id,
          at: e.at,
          action: e.action,
          label: auditActionLabel(e.action),
          actorEmail: e.actorEmail,
          targetEmail: e.targetEmail,
          targetType: e.targetType,
          targetId: e.targetId,
        })),
        securityCounts,
        generatedAt: new Date(now()).toISOString(),
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
