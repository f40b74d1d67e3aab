/**
 * /admin/overview: the platform at a glance for a chosen period (7, 30 or 90 days): readers and
 * paying readers by tier, sign-ups, conversions, churn, content published, top content, failed
 * repository syncs and recent security events. Every figure links to the screen that explains it.
 */
import { Link } from "react-router";
import type { OverviewReport } from "../../../server/modules/analytics/analytics.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import type { OverviewData } from "./analytics.server.ts";
import {
  Figure,
  FigureGrid,
  formatNumber,
  longDay,
  PeriodSwitch,
  shortTime,
  TIER_LABEL,
} from "./figures.tsx";

const PERIODS = [
  ["7d", "7 days"],
  ["30d", "30 days"],
  ["90d", "90 days"],
] as const;

const linkClass = "text-sm font-medium text-accent-text hover:underline";

/** Readers and paying readers by tier (shared with the /admin landing page). */
export function ReaderFigures({ report }: { report: OverviewReport }) {
  return (
    <FigureGrid>
      <Figure label="Readers" value={report.readers.total} to="/admin/users" linkLabel="open every user" />
      <Figure
        label="Paying readers"
        value={report.readers.paying}
        to="/admin/subscriptions?status=active"
        linkLabel="open the active subscriptions"
      />
      {report.readers.byTier.map((t) => (
        <Figure
          key={t.tier}
          label={`${TIER_LABEL[t.tier]} readers`}
          value={t.readers}
          to={`/admin/users?tier=${t.tier}`}
          linkLabel={`open the ${TIER_LABEL[t.tier]} users`}
        />
      ))}
    </FigureGrid>
  );
}

function Report({ report }: { report: OverviewReport }) {
  const { range, totals, previousTotals } = report;
  const days = range.days;
  const words = `the previous ${days} days`;
  const analytics = `/admin/analytics?days=${days}`;
  const security = report.securityCounts;
  return (
    <>
      <p className="text-sm text-ink-muted">
        {longDay(range.from)} – {longDay(range.to)} (UTC), compared with {words}. Readers are every active
        account by the plan it reads with now.
      </p>
      <Panel title="Readers now">
        <ReaderFigures report={report} />
      </Panel>

      <Panel
        title={`The last ${days} days`}
        action={
          <Link to={analytics} className={linkClass}>
            Open analytics
          </Link>
        }
      >
        <FigureGrid>
          <Figure
            label="Sign-ups"
            value={totals.signUps}
            previous={previousTotals.signUps}
            periodWords={words}
            to={analytics}
            linkLabel="see sign-ups by day in analytics"
          />
          <Figure
            label="Conversions (free → paid)"
            value={totals.conversions}
            previous={previousTotals.conversions}
            periodWords={words}
            to="/admin/logs?action=entitlement_changed"
            linkLabel="see the plan changes in the audit log"
          />
          <Figure
            label="Churn (paid → free)"
            value={totals.churn}
            previous={previousTotals.churn}
            periodWords={words}
            invert
            to="/admin/logs?action=entitlement_changed"
            linkLabel="see the plan changes in the audit log"
          />
          <Figure
            label="Upgrades"
            value={totals.upgrades}
            previous={previousTotals.upgrades}
            periodWords={words}
            to={analytics}
            linkLabel="see upgrades by day in analytics"
          />
          <Figure
            label="Views"
            value={totals.views}
            previous={previousTotals.views}
            periodWords={words}
            to={analytics}
            linkLabel="see views by day in analytics"
          />
          <Figure
            label="Content published"
            value={totals.published}
            previous={previousTotals.published}
            periodWords={words}
            to="/admin/content"
            linkLabel="open the content"
          />
          <Figure
            label="Course completions"
            value={totals.completions}
            previous={previousTotals.completions}
            periodWords={words}
            to={analytics}
            linkLabel="see course completions in analytics"
          />
          <Figure
            label="Searches with no results"
            value={totals.zeroResultSearches}
            previous={previousTotals.zeroResultSearches}
            periodWords={words}
            invert
            to={analytics}
            linkLabel="see which searches found nothing"
          />
        </FigureGrid>
      </Panel>

      <div className="grid gap-6 xl:grid-cols-2">
        <Panel
          title="Top content"
          action={
            <Link to={analytics} className={linkClass}>
              By tier
            </Link>
          }
        >
          {report.topContent.length === 0 ? (
            <p className="text-sm text-ink-muted">
              No content page was viewed in this period, so there is no most-viewed list yet.
            </p>
          ) : (
            <ol className="space-y-2 text-sm">
              {report.topContent.map((item, i) => (
                <li key={item.id} className="flex items-baseline gap-3">
                  <span className="w-5 shrink-0 text-right tabular-nums text-ink-subtle">{i + 1}.</span>
                  <a
                    href={item.path}
                    className="min-w-0 flex-1 truncate text-ink hover:text-accent-text hover:underline"
                  >
                    {item.title}
                  </a>
                  <span className="shrink-0 tabular-nums text-ink-muted">
                    {formatNumber(item.views)} views
                  </span>
                </li>
              ))}
            </ol>
          )}
        </Panel>

        <Panel
          title="Repository syncs"
          action={
            <Link to="/admin/content?tab=repositories" className={linkClass}>
              Repositories
            </Link>
          }
        >
          {report.failedSyncs.length === 0 ? (
            <p className="text-sm text-ok-text">No repository's last sync failed.</p>
          ) : (
            <ul className="space-y-2 text-sm">
              {report.failedSyncs.map((s) => (
                <li key={s.id} className="rounded-lg border border-danger-line bg-danger-soft p-3">
                  <Link to="/admin/content?tab=repositories" className="font-medium text-ink hover:underline">
                    {s.name}
                  </Link>
                  <p className="mt-1 break-words text-xs text-ink-muted">
                    {s.error}
                    {s.at ? ` — ${shortTime(s.at)}` : ""}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>

      <section aria-label="Security events">
        <Panel
          title="Security events"
          action={
            <Link to="/admin/logs?kind=security" className={linkClass}>
              All security events
            </Link>
          }
        >
          <FigureGrid>
            <Figure
              label={`Failed sign-ins (${days} days)`}
              value={security.sign_in_failure}
              to="/admin/logs?action=sign_in_failure"
              linkLabel="see the failed sign-ins"
            />
            <Figure
              label={`Lockouts (${days} days)`}
              value={security.lockout}
              to="/admin/logs?action=lockout"
              linkLabel="see the lockouts"
            />
            <Figure
              label={`Unlocks (${days} days)`}
              value={security.admin_unlock}
              to="/admin/logs?action=admin_unlock"
              linkLabel="see the unlocks"
            />
            <Figure
              label={`Two-factor changes (${days} days)`}
              value={security.mfa_enabled + security.mfa_disabled}
              to="/admin/logs?action=mfa_enabled&action=mfa_disabled"
              linkLabel="see the two-factor changes"
            />
          </FigureGrid>
          {report.securityEvents.length === 0 ? (
            <p className="mt-4 text-sm text-ink-muted">
              Failed sign-ins, lockouts, unlocks and two-factor changes will be listed here as they happen.
            </p>
          ) : (
            <ul className="mt-4 divide-y divide-line text-sm">
              {report.securityEvents.map((e) => (
                <li key={e.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
                  <Link
                    to={`/admin/logs?action=${encodeURIComponent(e.action)}`}
                    className="font-medium text-ink hover:underline"
                  >
                    {e.label}
                  </Link>
                  <span className="min-w-0 flex-1 truncate text-ink-muted">
                    {e.targetEmail ?? e.actorEmail ?? ""}
                    {e.actorEmail && e.targetEmail && e.actorEmail !== e.targetEmail
                      ? ` (by ${e.actorEmail})`
                      : ""}
                  </span>
                  <time dateTime={e.at} className="shrink-0 text-xs tabular-nums text-ink-subtle">
                    {shortTime(e.at)}
                  </time>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </section>
    </>
  );
}

export function OverviewView({ data }: { data: OverviewData }) {
  const current = data.report?.period ?? null;
  return (
    <>
      <PeriodSwitch
        label="Period"
        current={current}
        options={PERIODS.map(([value, text]) => ({ value, text, to: `?period=${value}` }))}
      />
      {data.error ? (
        <Notice tone="danger" title="That period cannot be shown" role="alert">
          {data.error.message}. Choose 7, 30 or 90 days.
        </Notice>
      ) : null}
      {data.report ? <Report report={data.report} /> : null}
    </>
  );
}
