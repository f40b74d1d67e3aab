/**
 * /admin/analytics: a date range (presets and a custom from/to, in the URL: shareable and
 * working without JavaScript), figures compared with the previous period of equal length,
 * charts with their data tables, top content by the reader's tier, searches that found nothing,
 * and the CSV export of the daily figures.
 */
import { type ReactNode, useId } from "react";
import { Form } from "react-router";
import type { AnalyticsReport } from "../../../server/modules/analytics/analytics.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import type { AnalyticsData } from "./analytics.server.ts";
import { BarsChart, CHART_COLOURS, LinesChart } from "./charts.tsx";
import { Figure, FigureGrid, formatNumber, longDay, PeriodSwitch, shortDay, TIER_LABEL } from "./figures.tsx";

const PRESETS = [7, 30, 90] as const;

/** The range as a query string (a preset as days=, else from and to). */
export function analyticsRangeQuery(range: { from: string; to: string; preset: number | null }): string {
  return range.preset !== null ? `days=${range.preset}` : `from=${range.from}&to=${range.to}`;
}

/** A data table under a chart, shown on request (and read by screen readers and without JS). */
function DataTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
}) {
  return (
    <details className="mt-3 text-sm" data-table>
      <summary className="cursor-pointer text-xs font-medium text-accent-text">
        Show the data as a table
      </summary>
      <div className="mt-2 max-h-80 overflow-auto rounded-lg border border-line">
        <table className="w-full text-left text-xs">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-sunken text-ink-muted">
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col" className="px-3 py-2 font-medium">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={String(row[0])}>
                {row.map((cell, i) => (
                  <td
                    key={columns[i]}
                    className={i === 0 ? "px-3 py-1.5 text-ink" : "px-3 py-1.5 tabular-nums text-ink"}
                  >
                    {typeof cell === "number" ? formatNumber(cell) : cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function ChartPanel({
  title,
  empty,
  children,
}: {
  title: string;
  /** Shown instead of a flat chart when nothing was recorded. */
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} className="min-w-0">
      <Panel title={title}>
        {empty ? <p className="mb-3 rounded-lg bg-sunken p-3 text-sm text-ink-muted">{empty}</p> : null}
        {children}
      </Panel>
    </section>
  );
}

function RangeForm({ data }: { data: AnalyticsData }) {
  const id = useId();
  const range = data.report?.range ?? null;
  const error = data.error;
  return (
    <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
      <div className="space-y-2">
        <p className="text-xs font-medium text-ink-muted" id={`${id}-presets`}>
          Last
        </p>
        <PeriodSwitch
          label="Date range presets"
          current={range?.preset ? String(range.preset) : null}
          options={PRESETS.map((d) => ({ value: String(d), text: `${d} days`, to: `?days=${d}` }))}
        />
      </div>
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Custom date range">
        <Field
          label="From"
          name="from"
          type="date"
          defaultValue={data.form.from || (range && range.preset === null ? range.from : "")}
          error={error?.field === "from" ? error.message : null}
          className="w-40"
        />
        <Field
          label="To"
          name="to"
          type="date"
          defaultValue={data.form.to || (range && range.preset === null ? range.to : "")}
          error={error?.field === "to" ? error.message : null}
          className="w-40"
        />
        <button type="submit" className={buttonClass("secondary", "md", "mb-[1.375rem]")}>
          Show range
        </button>
      </Form>
    </div>
  );
}

function Report({ report }: { report: AnalyticsReport }) {
  const { range, series, previousSeries, totals, previousTotals } = report;
  const period = `the previous ${range.days} days (${longDay(range.previous.from)} – ${longDay(range.previous.to)})`;
  const q = analyticsRangeQuery(range);
  const lines = series.map((d, i) => ({
    label: shortDay(d.day),
    views: d.views,
    readers: d.readers,
    previousViews: previousSeries[i]?.views ?? null,
    previousReaders: previousSeries[i]?.readers ?? null,
  }));
  const growth = series.map((d) => ({
    label: shortDay(d.day),
    signUps: d.signUps,
    upgrades: d.upgrades,
    downgrades: d.downgrades,
  }));
  const completions = series.map((d) => ({ label: shortDay(d.day), completions: d.completions }));
  const mix = report.tierMix.map((t) => ({ label: TIER_LABEL[t.tier] ?? t.tier, readers: t.readers }));
  const totalReaders = report.tierMix.reduce((n, t) => n + t.readers, 0);
  const fig = (
    label: string,
    key: keyof typeof totals,
    extra: Partial<Parameters<typeof Figure>[0]> = {},
  ) => (
    <Figure
      label={label}
      value={totals[key]}
      previous={previousTotals[key]}
      periodWords={`the previous ${range.days} days`}
      {...extra}
    />
  );

  return (
    <>
      <p className="text-sm text-ink-muted">
        {longDay(range.from)} – {longDay(range.to)} ({range.days} {range.days === 1 ? "day" : "days"}, UTC),
        compared with {period}.
      </p>
      <section aria-label="Totals">
        <FigureGrid>
          {fig("Views", "views", { hint: "each reader counted once per item a day" })}
          {fig("Reader-days", "readers", { hint: "unique readers of each day, added up" })}
          {fig("Sign-ups", "signUps", { to: "/admin/users", linkLabel: "open the users" })}
          {fig("Upgrades", "upgrades", {
            to: "/admin/logs?action=entitlement_changed",
            linkLabel: "see the plan changes in the audit log",
          })}
          {fig("Conversions (free → paid)", "conversions", {
            to: "/admin/subscriptions?status=active",
            linkLabel: "open the active subscriptions",
          })}
          {fig("Churn (paid → free)", "churn", {
            invert: true,
            to: "/admin/logs?action=entitlement_changed",
            linkLabel: "see the plan changes in the audit log",
          })}
          {fig("Course completions", "completions")}
          {fig("Content published", "published", { to: "/admin/content", linkLabel: "open the content" })}
          {fig("Searches", "searches")}
          {fig("Searches with no results", "zeroResultSearches", { invert: true })}
        </FigureGrid>
      </section>

      <ChartPanel
        title="Views and unique readers"
        empty={
          totals.views === 0 && previousTotals.views === 0
            ? "No views recorded in this range or the one before. Views are counted when readers open content pages (bots are not counted)."
            : null
        }
      >
        <LinesChart
          data={lines}
          summary={`Views and unique readers per day from ${longDay(range.from)} to ${longDay(range.to)}: ${formatNumber(totals.views)} views (previous period ${formatNumber(previousTotals.views)}), at most ${formatNumber(Math.max(0, ...series.map((d) => d.readers)))} unique readers in a day. Dashed lines are the previous period.`}
          series={[
            { key: "views", name: "Views", colour: CHART_COLOURS.primary },
            { key: "readers", name: "Unique readers", colour: CHART_COLOURS.secondary },
            {
              key: "previousViews",
              name: "Views, previous period",
              colour: CHART_COLOURS.primary,
              dashed: true,
            },
            {
              key: "previousReaders",
              name: "Unique readers, previous period",
              colour: CHART_COLOURS.secondary,
              dashed: true,
            },
          ]}
        />
        <DataTable
          caption="Views and unique readers per day, with the previous period's same day"
          columns={[
            "Day",
            "Views",
            "Unique readers",
            "Previous: day",
            "Previous: views",
            "Previous: readers",
          ]}
          rows={series.map((d, i) => [
            longDay(d.day),
            d.views,
            d.readers,
            previousSeries[i] ? longDay(previousSeries[i].day) : "—",
            previousSeries[i]?.views ?? 0,
            previousSeries[i]?.readers ?? 0,
          ])}
        />
      </ChartPanel>

      <div className="grid gap-6 xl:grid-cols-2">
        <ChartPanel
          title="Sign-ups and upgrades"
          empty={
            totals.signUps + totals.upgrades + totals.downgrades === 0
              ? "No sign-ups or plan changes in this range. New accounts and plan changes are charted by day."
              : null
          }
        >
          <BarsChart
            data={growth}
            summary={`Per day: ${formatNumber(totals.signUps)} sign-ups (previous period ${formatNumber(previousTotals.signUps)}), ${formatNumber(totals.upgrades)} upgrades (previous ${formatNumber(previousTotals.upgrades)}), ${formatNumber(totals.downgrades)} downgrades.`}
            series={[
              { key: "signUps", name: "Sign-ups", colour: CHART_COLOURS.primary },
              { key: "upgrades", name: "Upgrades", colour: CHART_COLOURS.secondary },
              { key: "downgrades", name: "Downgrades", colour: CHART_COLOURS.danger },
            ]}
          />
          <DataTable
            caption="Sign-ups, upgrades and downgrades per day"
            columns={["Day", "Sign-ups", "Upgrades", "Downgrades", "Conversions", "Churn"]}
            rows={series.map((d) => [
              longDay(d.day),
              d.signUps,
              d.upgrades,
              d.downgrades,
              d.conversions,
              d.churn,
            ])}
          />
        </ChartPanel>

        <ChartPanel
          title="Course completions"
          empty={
            totals.completions === 0
              ? "No course finished in this range. A completion is counted on the day a reader marks a course's last lesson done."
              : null
          }
        >
          <BarsChart
            data={completions}
            summary={`${formatNumber(totals.completions)} course completions in the range (previous period ${formatNumber(previousTotals.completions)}).`}
            series={[{ key: "completions", name: "Course completions", colour: CHART_COLOURS.warn }]}
          />
          <DataTable
            caption="Course completions per day"
            columns={["Day", "Completions"]}
            rows={series.map((d) => [longDay(d.day), d.completions])}
          />
        </ChartPanel>
      </div>

      <div className="grid gap-6 xl:grid-cols-2">
        <ChartPanel title="Tier mix now" empty={totalReaders === 0 ? "No accounts yet." : null}>
          <p className="mb-2 text-xs text-ink-subtle">
            Every active account by the plan it reads with today (its own or its organisation's subscription).
          </p>
          <BarsChart
            data={mix}
            layout="vertical"
            height={200}
            summary={`Accounts by plan now: ${report.tierMix.map((t) => `${TIER_LABEL[t.tier]} ${formatNumber(t.readers)}`).join(", ")}.`}
            series={[{ key: "readers", name: "Accounts", colour: CHART_COLOURS.primary }]}
          />
          <DataTable
            caption="Accounts by plan now"
            columns={["Plan", "Accounts", "Share"]}
            rows={report.tierMix.map((t) => [
              TIER_LABEL[t.tier] ?? t.tier,
              t.readers,
              totalReaders ? `${Math.round((t.readers / totalReaders) * 100)}%` : "—",
            ])}
          />
        </ChartPanel>
        <Panel title="Views by the reader's tier">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Views in the range by the reader's tier</caption>
            <thead className="text-xs text-ink-muted">
              <tr>
                <th scope="col" className="py-1.5 font-medium">
                  Reader
                </th>
                <th scope="col" className="py-1.5 text-right font-medium">
                  Views
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {report.viewsByTier.map((t) => (
                <tr key={t.tier}>
                  <td className="py-1.5 text-ink">{TIER_LABEL[t.tier]}</td>
                  <td className="py-1.5 text-right tabular-nums text-ink">{formatNumber(t.views)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-xs text-ink-subtle">Visitors are readers who were not signed in.</p>
        </Panel>
      </div>

      <Panel title="Top content by tier">
        {report.topContent.all.length === 0 ? (
          <p className="text-sm text-ink-muted">
            No item was viewed in this range, so there is no most-viewed list, overall or for any kind of
            reader.
          </p>
        ) : (
          <div className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
            {(["all", "visitor", "free", "basic", "pro", "enterprise"] as const).map((tier) => (
              <section key={tier} aria-label={`Top content: ${TIER_LABEL[tier]}`}>
                <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-muted">
                  {TIER_LABEL[tier]}
                </h3>
                {report.topContent[tier].length === 0 ? (
                  <p className="text-sm text-ink-subtle">No views by these readers.</p>
                ) : (
                  <ol className="space-y-1.5 text-sm">
                    {report.topContent[tier].map((item) => (
                      <li key={item.id} className="flex items-baseline justify-between gap-3">
                        <a
                          href={item.path}
                          className="min-w-0 truncate text-ink hover:text-accent-text hover:underline"
                        >
                          {item.title}
                        </a>
                        <span className="shrink-0 tabular-nums text-ink-muted">
                          {formatNumber(item.views)}
                        </span>
                      </li>
                    ))}
                  </ol>
                )}
              </section>
            ))}
          </div>
        )}
      </Panel>

      <section aria-label="Searches with no results">
        <Panel title="Searches with no results">
          {report.zeroResultSearches.length === 0 ? (
            <p className="text-sm text-ink-muted">
              Every search in this range found something: there are no failed searches to show.
            </p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Searches with no results in the range</caption>
                <thead className="text-xs text-ink-muted">
                  <tr>
                    <th scope="col" className="py-1.5 font-medium">
                      Search
                    </th>
                    <th scope="col" className="py-1.5 text-right font-medium">
                      Found nothing
                    </th>
                    <th scope="col" className="py-1.5 text-right font-medium">
                      Searched
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-line">
                  {report.zeroResultSearches.map((s) => (
                    <tr key={s.query}>
                      <td className="max-w-xs truncate py-1.5 text-ink">{s.query}</td>
                      <td className="py-1.5 text-right tabular-nums text-ink">
                        {formatNumber(s.zeroResults)}
                      </td>
                      <td className="py-1.5 text-right tabular-nums text-ink-muted">
                        {formatNumber(s.searches)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <p className="mt-2 text-xs text-ink-subtle">
            Searches are stored lowercased, per day, without who searched; texts that look like an e-mail
            address or a phone number are not stored.
          </p>
        </Panel>
      </section>
      <p className="text-xs text-ink-subtle">
        Generated {report.generatedAt.slice(11, 16)} UTC from recorded views, sign-ups, plan changes, course
        progress and searches.{" "}
        <a
          className="text-accent-text underline"
          href={`/api/admin/analytics/export?${q}&format=csv`}
          download
        >
          Download the daily figures as CSV
        </a>
        .
      </p>
    </>
  );
}

export function AnalyticsView({ data }: { data: AnalyticsData }) {
  return (
    <>
      <RangeForm data={data} />
      {data.error ? (
        <Notice tone="danger" title="That range cannot be shown" role="alert">
          {data.error.message}. Choose a range of at most 366 days that ends today or earlier.
        </Notice>
      ) : null}
      {data.report ? <Report report={data.report} /> : null}
    </>
  );
}

/** The export link (the screen's header action). */
export function ExportLink({ data }: { data: AnalyticsData }) {
  if (!data.report) return null;
  return (
    <a
      href={`/api/admin/analytics/export?${analyticsRangeQuery(data.report.range)}&format=csv`}
      download
      className={buttonClass("secondary", "sm")}
    >
      Export CSV
    </a>
  );
}
