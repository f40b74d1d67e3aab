/**
 * /super-admin/infrastructure: every app process on this database (from the heartbeat table),
 * database and storage latency measured for this page, and the background jobs.
 */
import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import type {
  JobAcrossProcesses,
  ProcessView,
  InfrastructureView as View,
} from "../../../server/modules/operations/operations.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { CachesTable } from "./caches-table.tsx";
import {
  formatBytes,
  formatEvery,
  formatMs,
  formatPercent,
  formatRelative,
  formatSeconds,
} from "./format.ts";
import { StatusBadge, tdClass, thClass } from "./status-badge.tsx";

/** Reloads the figures every `seconds` while the tab is visible. */
function useAutoRefresh(seconds: number) {
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle")
        void revalidator.revalidate();
    }, seconds * 1000);
    return () => clearInterval(timer);
  }, [revalidator, seconds]);
}

function statusBadges(process: ProcessView, now: string) {
  return (
    <>
      {process.current ? <StatusBadge tone="ok">this process</StatusBadge> : null}
      {process.status === "gone" ? (
        <StatusBadge tone="danger">gone · last seen {formatRelative(process.lastSeenAt, now)}</StatusBadge>
      ) : (
        <StatusBadge tone={process.current ? "neutral" : "ok"}>live</StatusBadge>
      )}
    </>
  );
}

function processFigures(process: ProcessView) {
  return {
    memory: formatBytes(process.rssBytes),
    heap: `heap ${formatBytes(process.heapUsedBytes)} / ${formatBytes(process.heapTotalBytes)}`,
    lag: `${formatMs(process.lagP50Ms)} / ${formatMs(process.lagP99Ms)}`,
    cache: formatPercent(process.pageCacheHitRate),
    cacheDetail: `${process.pageCacheHits} hits, ${process.pageCacheMisses} misses`,
  };
}

/** The processes as a table on wide screens. */
function ProcessesTable({ processes, now }: { processes: ProcessView[]; now: string }) {
  const headings = [
    "Process",
    "Version",
    "Uptime",
    "Memory (RSS)",
    "Lag p50 / p99",
    "Requests / min",
    "Page-cache hits",
  ];
  return (
    <table className="hidden w-full text-left text-sm xl:table">
      <thead className="text-xs uppercase tracking-wide text-ink-subtle">
        <tr>
          {headings.map((h) => (
            <th key={h} scope="col" className={thClass}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {processes.map((p) => {
          const f = processFigures(p);
          return (
            <tr
              key={p.processId}
              data-testid="process-row"
              data-process-id={p.processId}
              className={p.status === "gone" ? "text-ink-muted" : undefined}
            >
              <td className={`${tdClass} min-w-56`}>
                <div className="break-all font-mono text-xs text-ink">{p.processId}</div>
                <div className="text-xs text-ink-subtle">
                  {p.hostname} · pid {p.pid}
                </div>
                <div className="mt-1 flex flex-wrap gap-1">{statusBadges(p, now)}</div>
              </td>
              <td className={`${tdClass} whitespace-nowrap`}>{p.version}</td>
              <td className={`${tdClass} whitespace-nowrap tabular-nums`}>{formatSeconds(p.uptimeS)}</td>
              <td className={`${tdClass} whitespace-nowrap tabular-nums`}>
                {f.memory}
                <div className="text-xs text-ink-subtle">{f.heap}</div>
              </td>
              <td className={`${tdClass} whitespace-nowrap tabular-nums`}>{f.lag}</td>
              <td className={`${tdClass} tabular-nums`}>{p.requestsLastMinute}</td>
              <td className={`${tdClass} whitespace-nowrap tabular-nums`}>
                {f.cache}
                <div className="text-xs text-ink-subtle">{f.cacheDetail}</div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The processes as cards below the xl breakpoint. */
function ProcessCards({ processes, now }: { processes: ProcessView[]; now: string }) {
  return (
    <ul className="space-y-3 xl:hidden">
      {processes.map((process) => {
        const f = processFigures(process);
        return (
          <li
            key={process.processId}
            className="rounded-lg border border-line p-4"
            data-testid="process-card"
            data-process-id={process.processId}
          >
            <div className="mb-3 flex flex-wrap items-center gap-2">
              <span className="min-w-0 break-all font-mono text-sm text-ink">{process.processId}</span>
              {statusBadges(process, now)}
            </div>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
              {(
                [
                  ["Host · pid", `${process.hostname} · ${process.pid}`],
                  ["Version", process.version],
                  ["Uptime", formatSeconds(process.uptimeS)],
                  ["Memory (RSS)", `${f.memory} (${f.heap})`],
                  ["Event-loop lag p50 / p99", f.lag],
                  ["Requests, last minute", String(process.requestsLastMinute)],
                  ["Page-cache hit rate", `${f.cache} (${f.cacheDetail})`],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="min-w-0">
                  <dt className="text-xs text-ink-subtle">{label}</dt>
                  <dd className="break-words tabular-nums text-ink">{value}</dd>
                </div>
              ))}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

function outcomeBadge(job: { lastOutcome: string | null; consecutiveFailures: number }) {
  if (job.lastOutcome === "error") return <StatusBadge tone="danger">failed</StatusBadge>;
  if (job.lastOutcome === "running") return <StatusBadge tone="neutral">running</StatusBadge>;
  if (job.lastOutcome === "ok") return <StatusBadge tone="ok">ok</StatusBadge>;
  return <StatusBadge tone="neutral">not run yet</StatusBadge>;
}

type AnyJob = ProcessView["jobs"][number] | JobAcrossProcesses;

/** A shared job runs each tick on one process (its lease): the ticks this process left to others. */
function sharedText(job: AnyJob): string {
  return job.exclusive ? ` · one process per tick (${job.skipped ?? 0} run elsewhere)` : "";
}

function failuresText(job: AnyJob, across?: boolean): string {
  const all = across ? (job as JobAcrossProcesses) : null;
  return `${all ? all.failuresAllProcesses : job.failures}${all && all.processes > 1 ? ` over ${all.processes} processes` : ""}`;
}

/** The jobs as cards below the xl breakpoint (the table needs the width). */
function JobCards({ jobs, now, across }: { jobs: AnyJob[]; now: string; across?: boolean }) {
  return (
    <ul className="divide-y divide-line xl:hidden">
      {jobs.map((job) => (
        <li key={job.name} className="space-y-1 py-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-ink">{job.label}</span>
            {outcomeBadge(job)}
          </div>
          <div className="font-mono text-xs text-ink-subtle">{job.name}</div>
          <div className="text-ink-muted">
            {formatEvery(job.intervalMs)} · {job.runs} run(s){sharedText(job)}
            {job.lastStartedAt
              ? ` · last ${formatRelative(job.lastStartedAt, now)} (took ${formatMs(job.lastDurationMs)})`
              : ""}
            {job.intervalMs === null ? "" : ` · next ${formatRelative(job.nextRunAt, now)}`} · failures{" "}
            {failuresText(job, across)}
          </div>
          {job.lastError ? (
            <div className="break-words text-xs text-danger-text">
              Last error {formatRelative(job.lastErrorAt, now)}: {job.lastError}
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function JobsTable({ jobs, now, across }: { jobs: AnyJob[]; now: string; across?: boolean }) {
  return (
    <div className="mt-2" data-testid={across ? "jobs-all" : "jobs-process"}>
      <JobCards jobs={jobs} now={now} across={across} />
      <table className="hidden w-full text-left text-sm xl:table">
        <thead className="text-xs uppercase tracking-wide text-ink-subtle">
          <tr>
            <th scope="col" className={thClass}>
              Job
            </th>
            <th scope="col" className={thClass}>
              Schedule
            </th>
            <th scope="col" className={thClass}>
              Last run
            </th>
            <th scope="col" className={thClass}>
              Outcome
            </th>
            <th scope="col" className={thClass}>
              Next run
            </th>
            <th scope="col" className={thClass}>
              Failures
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {jobs.map((job) => {
            const all = across ? (job as JobAcrossProcesses) : null;
            return (
              <tr key={job.name} data-testid="job" data-job={job.name}>
                <td className={`${tdClass} min-w-56`}>
                  <div className="font-medium text-ink">{job.label}</div>
                  <div className="font-mono text-xs text-ink-subtle">{job.name}</div>
                </td>
                <td className={`${tdClass} whitespace-nowrap text-ink-muted`}>
                  {formatEvery(job.intervalMs)}
                  <div className="text-xs tabular-nums">
                    {job.runs} run(s){sharedText(job)}
                  </div>
                </td>
                <td className={`${tdClass} whitespace-nowrap tabular-nums`}>
                  {formatRelative(job.lastStartedAt, now)}
                  <div className="text-xs text-ink-subtle">
                    took {formatMs(job.lastDurationMs)}
                    {all && all.processes > 1 ? ` · on ${all.processId.split("-").slice(-2).join("-")}` : ""}
                  </div>
                </td>
                <td className={tdClass}>{outcomeBadge(job)}</td>
                <td className={`${tdClass} whitespace-nowrap tabular-nums text-ink-muted`}>
                  {job.intervalMs === null ? "—" : formatRelative(job.nextRunAt, now)}
                </td>
                <td className={`${tdClass} min-w-40`}>
                  <span className="tabular-nums">{failuresText(job, across)}</span>
                  {job.lastError ? (
                    <div className="mt-1 break-words text-xs text-danger-text">
                      Last error {formatRelative(job.lastErrorAt, now)}: {job.lastError}
                    </div>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function InfrastructureView({ view }: { view: View }) {
  useAutoRefresh(10);
  const now = view.generatedAt;
  const live = view.processes.filter((p) => p.status === "live").length;
  const gone = view.processes.length - live;
  const { database, storage } = view.latency;
  return (
    <>
      <p className="text-sm text-ink-muted">
        Measured {formatDateTime(now)}; this page refreshes every 10 seconds.{" "}
        <Link to="." className="font-medium text-accent-text underline-offset-2 hover:underline">
          Refresh now
        </Link>
      </p>
      <Panel title={`App processes: ${live} live${gone ? `, ${gone} gone` : ""}`}>
        <p className="mb-3 text-sm text-ink-muted">
          Every app process on this database writes a heartbeat every {view.heartbeatIntervalS} s. A process
          not heard from for {view.goneAfterS} s is shown as gone (stopped, crashed or unreachable), and its
          row is deleted after 10 minutes; a process that stops cleanly removes its row at once. Figures are
          since each process started, except lag (the last few seconds) and requests (the last minute).
        </p>
        <ProcessesTable processes={view.processes} now={now} />
        <ProcessCards processes={view.processes} now={now} />
      </Panel>
      <Panel title="In-memory caches">
        <p className="mb-3 text-sm text-ink-muted">
          What each live process keeps in memory between requests, against its bounds (entries and estimated
          bytes; the oldest entries go first beyond them), as of its last heartbeat.
        </p>
        {view.processes
          .filter((p) => p.status === "live")
          .map((p) => (
            <section key={p.processId} className="mb-4">
              <h3 className="mb-1 break-all font-mono text-xs text-ink-subtle">
                {p.processId}
                {p.current ? " (this process)" : ""}
              </h3>
              {p.caches.length === 0 ? (
                <p className="text-sm text-ink-muted">No cache figures reported yet.</p>
              ) : (
                <CachesTable process={p} />
              )}
            </section>
          ))}
      </Panel>
      <Panel title="Database and storage latency">
        <p className="mb-3 text-sm text-ink-muted">Measured from this process when the page was loaded.</p>
        <div className="grid gap-4 md:grid-cols-2">
          <div data-testid="latency-database">
            <h3 className="mb-2 flex items-center gap-2 text-sm font-medium text-ink">
              Database ({database.kind}){" "}
              <StatusBadge tone={database.ok ? "ok" : "danger"}>
                {database.ok ? "reachable" : "failing"}
              </StatusBadge>
            </h3>
            <KeyValueList
              rows={[
                ["Round trip", formatMs(database.latencyMs)],
                ["Query", <code key="q">{database.query}</code>],
                ...(database.error ? ([["Error", database.error]] as Array<[string, string]>) : []),
              ]}
            />
          </div>
          <div data-testid="latency-storage">
            <h3 className="mb-2 flex items-center gap-2 text-sm font-medium text-ink">
              Object storage ({storage.kind}){" "}
              <StatusBadge tone={storage.ok ? "ok" : "danger"}>
                {storage.ok ? "working" : "failing"}
              </StatusBadge>
            </h3>
            <KeyValueList
              rows={[
                ["Put a probe object", formatMs(storage.steps.put)],
                ["Head", formatMs(storage.steps.head)],
                ["Get", formatMs(storage.steps.get)],
                ["Delete", formatMs(storage.steps.delete)],
                ...(storage.error ? ([["Error", storage.error]] as Array<[string, string]>) : []),
              ]}
            />
          </div>
        </div>
      </Panel>
      <Panel title="Background jobs">
        <p className="mb-1 text-sm text-ink-muted">
          Every app process runs each of these jobs on its own timer (two processes never apply the same
          change twice). This table shows, for each job, the most recent run among the live processes, and the
          failures added up over them; with several processes, each one's own runs are listed below the table.
          Old content views are not a timer: they are deleted by the first view of a new day.
        </p>
        {view.jobs.length === 0 ? (
          <Notice tone="warn">No live process has reported its jobs yet.</Notice>
        ) : (
          <JobsTable jobs={view.jobs} now={now} across />
        )}
        {(live > 1 ? view.processes : [])
          .filter((p) => p.status === "live" && p.jobs.length)
          .map((p) => (
            <details key={p.processId} className="mt-4 text-sm" data-testid="process-jobs">
              <summary className="cursor-pointer text-ink-muted">
                Jobs on {p.processId}
                {p.current ? " (this process)" : ""}: {p.jobs.length}
              </summary>
              <JobsTable jobs={p.jobs} now={now} />
            </details>
          ))}
      </Panel>
    </>
  );
}
