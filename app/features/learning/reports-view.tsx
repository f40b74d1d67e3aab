/**
 * /dashboard/reports: the reader's reading and learning over 7, 30 or 90 days (items read and
 * minutes per day, lessons completed, by section), streaks, totals and the CSV export; an empty
 * state before any reading; and, for readers below Basic, the teaser: clearly labelled example
 * charts (never their data) and an upgrade call to action.
 */
import { BookOpen, Clock, Download, Flame, GraduationCap, Lock, Sparkles, Trophy } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { ReadingReport, ReportRange } from "../../../server/modules/learning/learning.schemas.ts";
import { buttonClass } from "../../components/ui/button.tsx";
import { ChartCard } from "./report-charts.tsx";

const RANGES: ReportRange[] = [7, 30, 90];
const short = (day: string) =>
  new Date(`${day}T00:00:00.000Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  });
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function RangePicker({ range }: { range: ReportRange }) {
  return (
    <nav aria-label="Report range" className="inline-flex rounded-lg border border-line bg-elevated p-0.5">
      {RANGES.map((r) => (
        <Link
          key={r}
          to={`?range=${r}`}
          preventScrollReset
          aria-current={r === range ? "page" : undefined}
          className={`rounded-md px-3 py-1.5 text-sm font-medium ${
            r === range ? "bg-accent text-accent-ink" : "text-ink-muted hover:bg-sunken hover:text-ink"
          }`}
        >
          {r} days
        </Link>
      ))}
    </nav>
  );
}

function Stat({
  icon,
  label,
  value,
  hint,
}: {
  icon: ReactNode;
  label: string;
  value: string;
  hint?: string;
}) {
  return (
    <div className="rounded-xl border border-line bg-elevated p-4">
      <div className="flex items-center gap-2 text-xs font-medium uppercase tracking-wide text-ink-subtle">
        {icon}
        {label}
      </div>
      <p className="mt-2 text-2xl font-semibold text-ink tabular-nums">{value}</p>
      {hint && <p className="mt-1 text-xs text-ink-muted">{hint}</p>}
    </div>
  );
}

/** One daily total (`field`) over the range, its table a Day column and one value column. */
function DayChart({
  title,
  badge,
  kind,
  days,
  field,
  name,
  summary,
}: {
  title: string;
  badge: ReactNode;
  kind: "line" | "bar";
  days: Record<string, string | number>[];
  field: "minutes" | "items" | "lessons";
  name: string;
  summary: string;
}) {
  return (
    <ChartCard
      title={title}
      badge={badge}
      kind={kind}
      x="label"
      rows={days}
      series={[{ key: field, name }]}
      columns={[
        { key: "label", label: "Day" },
        { key: field, label: name },
      ]}
      summary={summary}
    />
  );
}

function Charts({ report, example }: { report: ReadingReport; example?: boolean }) {
  const badge = example ? (
    <span className="rounded-full border border-warn-line bg-warn-soft px-2 py-0.5 text-[11px] font-semibold uppercase text-warn-text">
      Example
    </span>
  ) : undefined;
  const days = report.days.map((d) => ({ ...d, label: short(d.day) }));
  const prefix = example ? "Example data: " : "";
  const busiest = [...report.days].sort((a, b) => b.minutes - a.minutes)[0];
  const sections = report.sections.map((s) => ({ ...s, label: s.section }));
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <DayChart
        title="Minutes read per day"
        badge={badge}
        kind="line"
        days={days}
        field="minutes"
        name="Minutes"
        summary={`${prefix}${report.totals.minutes} minutes over ${report.range} days${
          busiest && busiest.minutes > 0
            ? `; the most on ${short(busiest.day)} (${busiest.minutes} minutes)`
            : ""
        }.`}
      />
      <DayChart
        title="Items read per day"
        badge={badge}
        kind="bar"
        days={days}
        field="items"
        name="Items"
        summary={`${prefix}${plural(report.totals.items, "different item")} read on ${plural(report.totals.activeDays, "day")}.`}
      />
      <DayChart
        title="Lessons completed per day"
        badge={badge}
        kind="bar"
        days={days}
        field="lessons"
        name="Lessons"
        summary={`${prefix}${plural(report.totals.lessons, "lesson")} completed over ${report.range} days.`}
      />
      <ChartCard
        title="By section"
        badge={badge}
        kind="hbar"
        x="label"
        rows={sections}
        series={[{ key: "minutes", name: "Minutes" }]}
        columns={[
          { key: "label", label: "Section" },
          { key: "minutes", label: "Minutes" },
          { key: "items", label: "Items" },
        ]}
        summary={`${prefix}${
          sections.length === 0
            ? "no reading by section yet."
            : sections.map((s) => `${s.section}: ${s.minutes} minutes, ${plural(s.items, "item")}`).join("; ")
        }.`}
      />
    </div>
  );
}

function Stats({ report }: { report: ReadingReport }) {
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <Stat
        icon={<Flame aria-hidden="true" className="size-4" />}
        label="Current streak"
        value={plural(report.streak.current, "day")}
        hint="Days in a row with at least a minute of reading (UTC)"
      />
      <Stat
        icon={<Trophy aria-hidden="true" className="size-4" />}
        label="Longest streak"
        value={plural(report.streak.longest, "day")}
      />
      <Stat
        icon={<Clock aria-hidden="true" className="size-4" />}
        label="Minutes read"
        value={String(report.totals.minutes)}
        hint={`${plural(report.totals.items, "item")} on ${plural(report.totals.activeDays, "day")}`}
      />
      <Stat
        icon={<GraduationCap aria-hidden="true" className="size-4" />}
        label="Lessons completed"
        value={String(report.totals.lessons)}
      />
    </div>
  );
}

export function ReportView({ report }: { report: ReadingReport }) {
  const empty = report.totals.items === 0 && report.totals.lessons === 0;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <RangePicker range={report.range} />
        <a
          className={buttonClass("secondary", "sm")}
          href={`/api/reports/reading.csv?range=${report.range}`}
          download
          data-testid="reports-csv"
        >
          <Download aria-hidden="true" className="size-4" />
          Export CSV
        </a>
      </div>
      <Stats report={report} />
      {empty ? (
        <div className="rounded-xl border border-dashed border-line-strong bg-elevated p-8 text-center">
          <BookOpen aria-hidden="true" className="mx-auto size-8 text-ink-subtle" />
          <h2 className="mt-3 text-base font-semibold text-ink">
            No reading in the last {report.range} days yet
          </h2>
          <p className="mx-auto mt-2 max-w-md text-sm text-ink-muted">
            Open an article, video or course lesson and spend a minute with it: your time, items and lessons
            show here the same day.
          </p>
          <Link to="/ai-education" className={buttonClass("primary", "md", "mt-5")}>
            Browse AI Education
          </Link>
        </div>
      ) : (
        <Charts report={report} />
      )}
    </div>
  );
}

/** Fixed example data for the teaser (never the reader's). */
function exampleReport(): ReadingReport {
  const minutes = [12, 18, 0, 25, 31, 9, 22, 15, 0, 28, 35, 20, 14, 26];
  const start = Date.UTC(2026, 0, 5);
  const days = minutes.map((m, i) => ({
    day: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    minutes: m,
    items: m === 0 ? 0 : 1 + (m % 3),
    lessons: i % 4 === 1 ? 1 : 0,
  }));
  return {
    range: 30,
    from: days[0]!.day,
    to: days.at(-1)!.day,
    days,
    sections: [
      { section: "AI Education", minutes: 142, items: 9 },
      { section: "Workforce Tools", minutes: 61, items: 5 },
      { section: "Resources", minutes: 32, items: 3 },
      { section: "AI News", minutes: 20, items: 4 },
    ],
    streak: { current: 4, longest: 6 },
    totals: { minutes: 255, items: 21, lessons: 4, activeDays: 12 },
  };
}

export function ReportsTeaser() {
  const example = exampleReport();
  return (
    <div className="space-y-6" data-testid="reports-teaser">
      <section className="flex flex-col gap-4 rounded-xl border border-accent-line bg-accent-soft p-5 sm:flex-row sm:items-center">
        <Lock aria-hidden="true" className="size-6 shrink-0 text-accent-text" />
        <div className="flex-1">
          <h2 className="text-base font-semibold text-ink">Reports come with the Basic plan</h2>
          <p className="mt-1 text-sm text-ink-muted">
            See how much you read each day, the lessons you complete, which sections you spend time in and
            your reading streaks, and export it all as CSV. Below is an example of what your report would look
            like.
          </p>
        </div>
        <Link to="/pricing" className={buttonClass("primary", "md")} data-testid="reports-upgrade">
          <Sparkles aria-hidden="true" className="size-4" />
          Upgrade to Basic
        </Link>
      </section>
      <p className="text-xs font-semibold uppercase tracking-wide text-warn-text">
        Example report: sample figures, not your reading
      </p>
      <section aria-label="Example report" className="space-y-6 opacity-90">
        <Stats report={example} />
        <Charts report={example} example />
      </section>
    </div>
  );
}
