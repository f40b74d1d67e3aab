/**
 * Reading reports (issue 15, /dashboard/reports): a signed-in reader's own reading and learning
 * over the last 7, 30 or 90 UTC days, from reading_activity (seconds per item and day) and
 * course_progress (lessons completed). Basic plan and up: Free readers get ForbiddenError (the page
 * shows them a teaser instead), visitors UnauthenticatedError, and only the actor's rows are read.
 *
 * - Items read per day: distinct items with reading that day; minutes per day: seconds / 60.
 * - Courses progressed: lessons completed per day (course_progress.completedAt's UTC day).
 * - By section: minutes and distinct items per section of the range.
 * - Streaks: runs of consecutive UTC days with at least one minute of reading (all history). The
 *   current streak ends today, or yesterday when nothing has been read yet today.
 */
import type { Kysely } from "kysely";
import { canAccessContent } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { ForbiddenError, UnauthenticatedError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import type { ReadingReport, ReportDay, ReportRange, ReportSection } from "./learning.schemas.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const minutes = (seconds: number) => Math.round((seconds / 60) * 10) / 10;

export const REPORTS_MIN_TIER = "Basic";

export interface ReportsServiceDeps {
  db: Kysely<DB>;
  now?: () => number;
}

/** One CSV row: a day and an item. */
export interface ReadingCsvRow {
  day: string;
  title: string;
  slug: string;
  section: string;
  minutes: number;
}

/** Current and longest runs of consecutive days in `days` (sorted YYYY-MM-DD, unique). */
export function streaksOf(days: string[], today: string): { current: number; longest: number } {
  let longest = 0;
  let run = 0;
  let prev: number | null = null;
  for (const d of days) {
    const t = Date.parse(`${d}T00:00:00.000Z`);
    run = prev !== null && t - prev === DAY_MS ? run + 1 : 1;
    longest = Math.max(longest, run);
    prev = t;
  }
  const last = days.at(-1);
  const todayMs = Date.parse(`${today}T00:00:00.000Z`);
  const current = last && (last === today || last === dayOf(todayMs - DAY_MS)) ? run : 0;
  return { current, longest };
}

/** A value as a CSV field (RFC 4180 quoting; a leading =,+,-,@ is defused against formula injection). */
export function csvField(value: string | number): string {
  let s = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function createReportsService(deps: ReportsServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  function reader(actor: Actor): string {
    const access = actor.access;
    if (!access.isAuthenticated || !access.userId)
      throw new UnauthenticatedError("Sign in to see your reports.");
    if (!canAccessContent({ minTier: REPORTS_MIN_TIER }, access)) {
      throw new ForbiddenError(
        "Reports are part of the Basic plan and above. Upgrade to see your reading reports.",
      );
    }
    return access.userId;
  }

  function window(range: ReportRange) {
    const to = dayOf(now());
    const from = dayOf(Date.parse(`${to}T00:00:00.000Z`) - (range - 1) * DAY_MS);
    return { from, to };
  }

  async function activity(userId: string, from: string, to: string) {
    return db
      .selectFrom("reading_activity")
      .innerJoin("content", "content.id", "reading_activity.contentId")
      .select([
        "reading_activity.day",
        "reading_activity.contentId",
        "reading_activity.seconds",
        "content.title",
        "content.slug",
        "content.section",
      ])
      .where("reading_activity.userId", "=", userId)
      .where("reading_activity.day", ">=", from)
      .where("reading_activity.day", "<=", to)
      .orderBy("reading_activity.day")
      .orderBy("content.title")
      .execute();
  }

  return {
    async reading(actor: Actor, range: ReportRange): Promise<ReadingReport> {
      const userId = reader(actor);
      const { from, to } = window(range);
      const rows = await activity(userId, from, to);
      const lessonRows = await db
        .selectFrom("course_progress")
        .select("completedAt")
        .where("userId", "=", userId)
        .where("completedAt", ">=", `${from}T00:00:00.000Z`)
        .execute();

      const byDay = new Map<string, { items: Set<string>; seconds: number; lessons: number }>();
      const dayList: string[] = [];
      for (let t = Date.parse(`${from}T00:00:00.000Z`); dayOf(t) <= to; t += DAY_MS) {
        dayList.push(dayOf(t));
        byDay.set(dayOf(t), { items: new Set(), seconds: 0, lessons: 0 });
      }
      const sections = new Map<string, { seconds: number; items: Set<string> }>();
      for (const r of rows) {
        const d = byDay.get(r.day);
        if (d) {
          d.items.add(r.contentId);
          d.seconds += r.seconds;
        }
        const key = r.section ?? "Other";
        const s = sections.get(key) ?? { seconds: 0, items: new Set<string>() };
        s.seconds += r.seconds;
        s.items.add(r.contentId);
        sections.set(key, s);
      }
      for (const l of lessonRows) {
        const d = byDay.get(String(l.completedAt).slice(0, 10));
        if (d) d.lessons += 1;
      }
      const days: ReportDay[] = dayList.map((day) => {
        const d = byDay.get(day)!;
        return { day, items: d.items.size, minutes: minutes(d.seconds), lessons: d.lessons };
      });
      const sectionList: ReportSection[] = [...sections.entries()]
        .map(([section, s]) => ({ section, minutes: minutes(s.seconds), items: s.items.size }))
        .sort((a, b) => b.minutes - a.minutes || a.section.localeCompare(b.section));

      const readingDays = await db
        .selectFrom("reading_activity")
        .select(["day", (eb) => eb.fn.sum<number | string>("seconds").as("total")])
        .where("userId", "=", userId)
        .where("day", "<=", to)
        .groupBy("day")
        .orderBy("day")
        .execute();
      const streak = streaksOf(
        readingDays.filter((r) => Number(r.total) >= 60).map((r) => r.day),
        to,
      );
      const totalSeconds = rows.reduce((sum, r) => sum + r.seconds, 0);
      return {
        range,
        from,
        to,
        days,
        sections: sectionList,
        streak,
        totals: {
          minutes: minutes(totalSeconds),
          items: new Set(rows.map((r) => r.contentId)).size,
          lessons: days.reduce((sum, d) => sum + d.lessons, 0),
          activeDays: days.filter((d) => d.items > 0).length,
        },
      };
    },

    /** The range's reading as CSV: one row per day and item (day, title, slug, section, minutes). */
    async readingCsv(actor: Actor, range: ReportRange): Promise<{ filename: string; csv: string }> {
      const userId = reader(actor);
      const { from, to } = window(range);
      const rows = await activity(userId, from, to);
      const lines = [["day", "item", "slug", "section", "minutes"].join(",")];
      for (const r of rows) {
        lines.push(
          [r.day, r.title, r.slug, r.section ?? "", minutes(r.seconds)].map((v) => csvField(v)).join(","),
        );
      }
      return { filename: `lumen-reading-${from}-to-${to}.csv`, csv: `${lines.join("\r\n")}\r\n` };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
