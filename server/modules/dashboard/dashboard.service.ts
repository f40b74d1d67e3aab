/**
 * The reader's dashboard (issue 15): built only from the signed-in reader's own rows, and every
 * list keeps only published items the reader may read (in SQL, `readableBy`), except the upgrade
 * teaser, which names only titles the public listing and the pricing page already show.
 *
 * - Continue where you left off: the items read last (`reading_activity.lastAt`), courses with
 *   completed lessons (`course_progress`) and today's or yesterday's views; courses carry their
 *   progress and the next lesson (the engagement service's lesson list, as on the course page).
 * - Saved: bookmarks, newest first.
 * - New in your plan since your last visit: published after the visit before this one
 *   (`user_visit.previousDashboardAt`; first visit: the last 14 days). A visit within
 *   `VISIT_GAP_MS` of the last one does not move the mark, so reloading keeps the list.
 * - Recommended: readable items from the sections the reader reads and saves most, then featured
 *   items, never ones already read, progressed or saved.
 * - What an upgrade would add: the tier inventory of the next plan up; nothing on Enterprise.
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { parseTier, TIERS, type Tier } from "../../../core/index.ts";
import { dialectOf } from "../../db/dialect.ts";
import type { DB } from "../../db/schema.ts";
import type { Actor } from "../actor.ts";
import { type Content, contentFromRow } from "../content/content.repo.ts";
import type { ContentSummary } from "../content/content.types.ts";
import { readableBy } from "../content/readable-sql.ts";
import { tierInventory } from "../content/tier-inventory.ts";
import type { EngagementService } from "../engagement/engagement.service.ts";
import { createBookmarks } from "./bookmarks.ts";
import type {
  ContinueItem,
  CourseProgressCard,
  DashboardData,
  DashboardSectionName,
  UpgradeTeaser,
} from "./dashboard.types.ts";
import { createReadingRecorder, signedInUserId } from "./reading.ts";

export const CONTINUE_MAX = 6;
export const SAVED_MAX = 6;
export const FRESH_MAX = 6;
export const RECOMMENDED_MAX = 6;
export const FIRST_VISIT_DAYS = 14;
/** Visits closer than this to the last one keep the "since your last visit" mark. */
export const VISIT_GAP_MS = 60 * 60 * 1000;

export interface DashboardServiceDeps {
  db: Kysely<DB>;
  engagement: Pick<EngagementService, "getProgress">;
  summarize: (actor: Actor, items: readonly Content[]) => Promise<ContentSummary[]>;
  now?: () => number;
  logger?: Pick<Logger, "warn">;
}

const latest = (a: string, b: string) => (a > b ? a : b);

export function createDashboardService(deps: DashboardServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const dialect = dialectOf(db);
  const bookmarks = createBookmarks({ db, now, summarize: deps.summarize });
  const reading = createReadingRecorder({ db, now });

  /** Published items the actor may read, by id (unknown, unpublished and gated ones left out). */
  async function readableByIds(actor: Actor, ids: readonly string[]): Promise<Map<string, Content>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom("content as c")
      .selectAll("c")
      .where("c.id", "in", [...ids])
      .where("c.status", "=", "published")
      .where(readableBy(actor.access, dialect, "c"))
      .execute();
    return new Map(rows.map((r) => [r.id, contentFromRow(r as never)]));
  }

  /** Marks this visit and answers the mark "new since" counts from. */
  async function visit(userId: string): Promise<{ since: string; firstVisit: boolean }> {
    const t = now();
    const nowIso = new Date(t).toISOString();
    const row = await db.selectFrom("user_visit").selectAll().where("userId", "=", userId).executeTakeFirst();
    const fallback = new Date(t - FIRST_VISIT_DAYS * 24 * 60 * 60 * 1000).toISOString();
    if (!row) {
      await db
        .insertInto("user_visit")
        .values({ userId, lastDashboardAt: nowIso, previousDashboardAt: null })
        .onConflict((oc) => oc.column("userId").doNothing())
        .execute();
      return { since: fallback, firstVisit: true };
    }
    if (t - Date.parse(row.lastDashboardAt) >= VISIT_GAP_MS) {
      await db
        .updateTable("user_visit")
        .set({ previousDashboardAt: row.lastDashboardAt, lastDashboardAt: nowIso })
        .where("userId", "=", userId)
        .execute();
      return { since: row.lastDashboardAt, firstVisit: false };
    }
    return row.previousDashboardAt
      ? { since: row.previousDashboardAt, firstVisit: false }
      : { since: fallback, firstVisit: true };
  }

  async function courseCard(actor: Actor, course: Content): Promise<CourseProgressCard | null> {
    try {
      const progress = await deps.engagement.getProgress(actor, course.id);
      const done = new Set(progress.completedLessonIds);
      const nextId = progress.lessonIds.find((id) => !done.has(id)) ?? null;
      let nextLesson: CourseProgressCard["nextLesson"] = null;
      if (nextId) {
        const lesson = await db
          .selectFrom("content")
          .select(["id", "slug", "title"])
          .where("id", "=", nextId)
          .executeTakeFirst();
        if (lesson) nextLesson = lesson;
      }
      return {
        completed: progress.completed,
        total: progress.total,
        percent: progress.percent,
        complete: progress.complete,
        nextLesson,
      };
    } catch {
      return null;
    }
  }

  async function continueReading(actor: Actor, userId: string): Promise<ContinueItem[]> {
    const [reads, courses, views] = await Promise.all([
      db
        .selectFrom("reading_activity")
        .select(["contentId"])
        .select((eb) => [
          eb.fn.max("lastAt").as("lastAt"),
          eb.fn.sum<number | string>("seconds").as("seconds"),
        ])
        .where("userId", "=", userId)
        .groupBy("contentId")
        .orderBy((eb) => eb.fn.max("lastAt"), "desc")
        .limit(30)
        .execute(),
      db
        .selectFrom("course_progress")
        .select(["courseId"])
        .select((eb) => eb.fn.max("completedAt").as("lastAt"))
        .where("userId", "=", userId)
        .groupBy("courseId")
        .orderBy((eb) => eb.fn.max("completedAt"), "desc")
        .limit(30)
        .execute(),
      db
        .selectFrom("content_view")
        .select(["contentId", "day"])
        .where("readerKey", "=", `u:${userId}`)
        .orderBy("day", "desc")
        .limit(30)
        .execute(),
    ]);
    const seen = new Map<string, { lastAt: string; seconds: number }>();
    const note = (id: string, lastAt: string, seconds = 0) => {
      const had = seen.get(id);
      seen.set(id, {
        lastAt: had ? latest(had.lastAt, lastAt) : lastAt,
        seconds: (had?.seconds ?? 0) + seconds,
      });
    };
    for (const r of reads) note(r.contentId, String(r.lastAt), Number(r.seconds ?? 0));
    for (const r of courses) note(r.courseId, String(r.lastAt));
    // A view knows only its day: it sorts after the reads of that day.
    for (const r of views) if (!seen.has(r.contentId)) note(r.contentId, `${r.day}T00:00:00.000Z`);
    const ordered = [...seen.entries()].sort((a, b) => b[1].lastAt.localeCompare(a[1].lastAt));
    const readable = await readableByIds(
      actor,
      ordered.map(([id]) => id),
    );
    const picked = ordered.filter(([id]) => readable.has(id)).slice(0, CONTINUE_MAX);
    const items = picked.map(([id]) => readable.get(id)!);
    const summaries = await deps.summarize(actor, items);
    return Promise.all(
      summaries.map(async (item, i) => ({
        item,
        lastAt: picked[i]![1].lastAt,
        secondsRead: picked[i]![1].seconds,
        progress: item.type === "course" ? await courseCard(actor, items[i]!) : null,
      })),
    );
  }

  async function newSince(actor: Actor, since: string): Promise<ContentSummary[]> {
    const rows = await db
      .selectFrom("content as c")
      .selectAll("c")
      .where("c.status", "=", "published")
      .where("c.publishedAt", "is not", null)
      .where("c.publishedAt", ">", since)
      .where("c.publishedAt", "<=", new Date(now()).toISOString())
      .where(readableBy(actor.access, dialect, "c"))
      .orderBy("c.publishedAt", "desc")
      .orderBy("c.id")
      .limit(FRESH_MAX)
      .execute();
    return deps.summarize(
      actor,
      rows.map((r) => contentFromRow(r as never)),
    );
  }

  async function recommended(actor: Actor, userId: string, exclude: Set<string>): Promise<ContentSummary[]> {
    const [readSections, savedSections, progressed, saved, read] = await Promise.all([
      db
        .selectFrom("reading_activity as r")
        .innerJoin("content as c", "c.id", "r.contentId")
        .select(["c.section"])
        .select((eb) => eb.fn.sum<number | string>("r.seconds").as("weight"))
        .where("r.userId", "=", userId)
        .groupBy("c.section")
        .execute(),
      db
        .selectFrom("bookmark as b")
        .innerJoin("content as c", "c.id", "b.contentId")
        .select(["c.section"])
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("b.userId", "=", userId)
        .groupBy("c.section")
        .execute(),
      db
        .selectFrom("course_progress")
        .select(["courseId", "lessonId"])
        .where("userId", "=", userId)
        .execute(),
      db.selectFrom("bookmark").select("contentId").where("userId", "=", userId).execute(),
      db.selectFrom("reading_activity").select("contentId").where("userId", "=", userId).distinct().execute(),
    ]);
    const weight = new Map<string, number>();
    for (const r of readSections)
      if (r.section) weight.set(r.section, (weight.get(r.section) ?? 0) + Number(r.weight ?? 0) + 1);
    // A saved item counts like ten minutes of reading.
    for (const r of savedSections)
      if (r.section) weight.set(r.section, (weight.get(r.section) ?? 0) + Number(r.n) * 600);
    const topSections = [...weight.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([s]) => s);
    const skip = new Set(exclude);
    for (const r of progressed) {
      skip.add(r.courseId);
      skip.add(r.lessonId);
    }
    for (const r of saved) skip.add(r.contentId);
    for (const r of read) skip.add(r.contentId);

    let query = db
      .selectFrom("content as c")
      .selectAll("c")
      .where("c.status", "=", "published")
      .where("c.publishedAt", "is not", null)
      .where(readableBy(actor.access, dialect, "c"));
    query = query.where((eb) =>
      topSections.length > 0
        ? eb.or([eb("c.section", "in", topSections), eb("c.featured", "=", true as never)])
        : eb("c.featured", "=", true as never),
    );
    const candidates = (await query.orderBy("c.publishedAt", "desc").limit(200).execute())
      .map((r) => contentFromRow(r as never))
      .filter((c) => !skip.has(c.id));
    const rank = (c: Content) => {
      const s = c.section ? topSections.indexOf(c.section) : -1;
      return s >= 0 ? s : topSections.length + (c.featured ? 0 : 1);
    };
    const picked = candidates
      .map((c, i) => ({ c, i }))
      .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
      .map((x) => x.c);
    // Round-robin over the reader's sections so one section does not fill the list.
    const bySection = new Map<number, Content[]>();
    for (const c of picked) {
      const r = rank(c);
      bySection.set(r, [...(bySection.get(r) ?? []), c]);
    }
    const out: Content[] = [];
    const queues = [...bySection.entries()].sort((a, b) => a[0] - b[0]).map(([, list]) => list);
    while (out.length < RECOMMENDED_MAX && queues.some((q) => q.length > 0)) {
      for (const q of queues) {
        const next = q.shift();
        if (next && out.length < RECOMMENDED_MAX) out.push(next);
      }
    }
    if (out.length < RECOMMENDED_MAX) {
      const taken = new Set([...skip, ...out.map((c) => c.id)]);
      const more = await db
        .selectFrom("content as c")
        .selectAll("c")
        .where("c.status", "=", "published")
        .where("c.publishedAt", "is not", null)
        .where(readableBy(actor.access, dialect, "c"))
        .orderBy("c.publishedAt", "desc")
        .limit(60)
        .execute();
      for (const r of more) {
        if (out.length >= RECOMMENDED_MAX) break;
        if (!taken.has(r.id)) out.push(contentFromRow(r as never));
      }
    }
    return deps.summarize(actor, out);
  }

  async function upgrade(tier: Tier): Promise<UpgradeTeaser | null> {
    const next = TIERS[TIERS.indexOf(tier) + 1];
    if (!next) return null;
    const entry = (await tierInventory(db)).find((e) => e.tier === next);
    if (!entry) return null;
    return { tier: next, items: entry.items, byType: entry.byType, highlights: entry.highlights };
  }

  return {
    /** The signed-in reader's dashboard; marks the visit ("new since your last visit"). */
    async get(actor: Actor): Promise<DashboardData> {
      const userId = signedInUserId(actor, "see your dashboard");
      const tier: Tier = parseTier(actor.access.tier) ?? "Free";
      const mark = await visit(userId);
      const unavailable: DashboardSectionName[] = [];
      /** One section that fails is reported as unavailable; the rest of the dashboard still shows. */
      const section = async <T>(
        name: DashboardSectionName,
        run: () => Promise<T>,
        fallback: T,
      ): Promise<T> => {
        try {
          return await run();
        } catch (error) {
          deps.logger?.warn({ err: error, section: name }, "a dashboard section failed");
          unavailable.push(name);
          return fallback;
        }
      };
      const [continueItems, saved, fresh, teaser] = await Promise.all([
        section("continue", () => continueReading(actor, userId), []),
        section("saved", () => bookmarks.list(actor, SAVED_MAX), { items: [], total: 0 }),
        section("fresh", () => newSince(actor, mark.since), []),
        section("upgrade", () => upgrade(tier), null),
      ]);
      const exclude = new Set([
        ...continueItems.map((c) => c.item.id),
        ...saved.items.map((s) => s.item.id),
        ...fresh.map((f) => f.id),
      ]);
      const orgName = actor.context.claims?.["custom:orgName"];
      return {
        tier,
        organisationPlan: actor.tenantId
          ? { orgName: typeof orgName === "string" && orgName ? orgName : null }
          : null,
        continueReading: continueItems,
        saved: saved.items,
        savedCount: saved.total,
        fresh: { since: mark.since, firstVisit: mark.firstVisit, items: fresh },
        recommended: await section("recommended", () => recommended(actor, userId, exclude), []),
        upgrade: teaser,
        unavailable,
      };
    },

    listBookmarks: bookmarks.list,
    setBookmark: bookmarks.set,
    isSaved: bookmarks.isSaved,
    recordReading: reading.record,
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
