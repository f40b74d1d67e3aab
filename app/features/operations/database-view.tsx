/**
 * /super-admin/database: migrations, tables with row counts and sizes, the integrity check (a POST
 * form: works without JavaScript) and the backup (SQLite: a download form posting to the REST
 * endpoint; PostgreSQL: the pg_dump command for the configured database, without its password).
 */
import { Form, useNavigation } from "react-router";
import type {
  IntegrityResult,
  DatabaseView as View,
} from "../../../server/modules/operations/operations.service.ts";
import { Panel } from "../../components/feature-screen.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { formatBytes, formatMs } from "./format.ts";
import type { IntegrityActionResult } from "./operations.server.ts";
import { StatusBadge, tdClass, thClass } from "./status-badge.tsx";

function IntegrityOutcome({ result, by }: { result: IntegrityResult; by: string | null }) {
  return (
    <div className="space-y-3" data-testid="integrity-result" data-ok={result.ok ? "true" : "false"}>
      <Notice
        tone={result.ok ? "ok" : "danger"}
        role="status"
        title={result.ok ? "No problems found" : result.timedOut ? "The check timed out" : "Problems found"}
      >
        Checked {formatDateTime(result.checkedAt)}
        {by ? ` by ${by}` : ""} in {formatMs(result.durationMs)}.
      </Notice>
      <ul className="space-y-2 text-sm">
        {result.checks.map((check) => (
          <li key={check.name} className="flex flex-wrap items-start gap-2">
            <StatusBadge tone={check.ok ? "ok" : "danger"}>{check.ok ? "ok" : "problem"}</StatusBadge>
            <span className="min-w-0 flex-1">
              <span className="font-medium text-ink">{check.name}</span>
              <span className="text-ink-muted">: {check.detail}</span>
            </span>
          </li>
        ))}
      </ul>
      {result.problems.length ? (
        <pre className="whitespace-pre-wrap break-words rounded-lg border border-line bg-sunken p-3 font-mono text-xs text-ink">
          {result.problems.join("\n")}
        </pre>
      ) : null}
    </div>
  );
}

function IntegrityPanel({ view, action }: { view: View; action: IntegrityActionResult | null }) {
  const navigation = useNavigation();
  const running =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "integrity-check";
  const shown = action?.ok
    ? { result: action.result, by: "you" }
    : view.lastIntegrityCheck
      ? { result: view.lastIntegrityCheck, by: view.lastIntegrityCheck.actorEmail }
      : null;
  return (
    <Panel title="Integrity check">
      <div className="space-y-4">
        <p className="text-sm text-ink-muted">
          {view.engine === "sqlite"
            ? "Runs PRAGMA integrity_check (pages, indexes, NOT NULL, UNIQUE and CHECK constraints, file structure) and PRAGMA foreign_key_check in a worker thread on its own read-only connection, so the app keeps serving."
            : "Looks for invalid indexes and constraints never validated, and verifies every B-tree index with amcheck when that extension is installed, in a read-only transaction."}{" "}
          It stops after {view.integrityTimeoutS} s. Each check is recorded in the audit log.
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="integrity-check" />
          <button type="submit" className={buttonClass("secondary")} disabled={running}>
            {running ? "Checking…" : "Run integrity check"}
          </button>
        </Form>
        {action && !action.ok ? (
          <Notice tone="warn" role="alert">
            {action.message}
          </Notice>
        ) : null}
        {shown ? (
          <IntegrityOutcome result={shown.result} by={shown.by} />
        ) : (
          <p className="text-sm text-ink-subtle">No integrity check has been run on this database yet.</p>
        )}
      </div>
    </Panel>
  );
}

function BackupPanel({ view }: { view: View }) {
  const backup = view.backup;
  return (
    <Panel title="Backup">
      {backup.kind === "download" ? (
        <div className="space-y-3">
          <p className="text-sm text-ink-muted">
            {backup.method} Each download is recorded in the audit log.
          </p>
          <form method="post" action="/api/admin/operations/database/backup">
            <button type="submit" className={buttonClass("primary")}>
              Download a backup
            </button>
          </form>
          <p className="text-xs text-ink-subtle">
            The file holds every account, session and secret of the installation: keep it as safe as the
            server. Uploaded media live in the object storage and are not in it.
          </p>
        </div>
      ) : (
        <div className="space-y-3" data-testid="pg-dump">
          <p className="text-sm text-ink-muted">
            On PostgreSQL the app does not make dumps itself: run pg_dump against the configured database.
          </p>
          <div>
            <p className="mb-1 text-xs font-medium text-ink-subtle">Back up</p>
            <pre className="whitespace-pre-wrap break-all rounded-lg border border-line bg-sunken p-3 font-mono text-xs text-ink">
              {backup.command}
            </pre>
          </div>
          <div>
            <p className="mb-1 text-xs font-medium text-ink-subtle">Restore into an empty database</p>
            <pre className="whitespace-pre-wrap break-all rounded-lg border border-line bg-sunken p-3 font-mono text-xs text-ink">
              {backup.restore}
            </pre>
          </div>
          <ul className="list-disc space-y-1 pl-5 text-sm text-ink-muted">
            {backup.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </div>
      )}
    </Panel>
  );
}

function MigrationsPanel({ view }: { view: View }) {
  const { applied, pending } = view.migrations;
  return (
    <Panel title={`Migrations: ${applied.length} applied, ${pending.length} pending`}>
      <div className="space-y-3">
        {pending.length ? (
          <Notice tone="warn" title="Pending migrations">
            {pending.join(", ")}: they are applied when an app process of this version starts.
          </Notice>
        ) : (
          <p className="text-sm text-ink-muted">
            The schema is up to date with this version. Recorded in the kysely_migration table; the sign-in
            library's own additive migrations run after these and are not listed.
          </p>
        )}
        <ol
          className="divide-y divide-line rounded-lg border border-line text-sm"
          aria-label="Applied migrations"
        >
          {applied.map((m) => (
            <li
              key={m.name}
              className="flex flex-wrap justify-between gap-x-4 px-3 py-2"
              data-testid="migration"
            >
              <span className="font-mono text-xs text-ink">{m.name}</span>
              <span className="tabular-nums text-ink-muted">{formatDateTime(m.appliedAt)}</span>
            </li>
          ))}
        </ol>
      </div>
    </Panel>
  );
}

function TablesPanel({ view }: { view: View }) {
  const tables = [...view.tables].sort(
    (a, b) => (b.bytes ?? 0) - (a.bytes ?? 0) || a.name.localeCompare(b.name),
  );
  return (
    <Panel title={`Tables: ${view.tables.length}, ${formatBytes(view.totalBytes)} in all`}>
      <p className="mb-3 text-sm text-ink-muted">{view.sizeMethod}</p>
      <div>
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-ink-subtle">
            <tr>
              <th scope="col" className={thClass}>
                Table
              </th>
              <th scope="col" className={`${thClass} text-right`}>
                Rows
              </th>
              <th scope="col" className={`${thClass} text-right`}>
                Size
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {tables.map((t) => (
              <tr key={t.name} data-testid="table-row" data-table={t.name}>
                <td className={`${tdClass} break-all font-mono text-xs text-ink`}>{t.name}</td>
                <td className={`${tdClass} whitespace-nowrap text-right tabular-nums`}>
                  {t.rows < 0 ? "—" : `${t.rowsExact ? "" : "≈ "}${t.rows.toLocaleString("en")}`}
                </td>
                <td className={`${tdClass} whitespace-nowrap text-right tabular-nums text-ink-muted`}>
                  {formatBytes(t.bytes)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}

export function DatabaseView({ view, action }: { view: View; action: IntegrityActionResult | null }) {
  return (
    <>
      <Panel title="Engine">
        <KeyValueList
          rows={[
            ["Engine", view.engine === "sqlite" ? "SQLite (one file, WAL)" : "PostgreSQL"],
            ["Size", formatBytes(view.totalBytes)],
            ["Measured", formatDateTime(view.generatedAt) ?? "—"],
          ]}
        />
      </Panel>
      <div className="grid gap-6 lg:grid-cols-2">
        <IntegrityPanel view={view} action={action} />
        <BackupPanel view={view} />
      </div>
      <TablesPanel view={view} />
      <MigrationsPanel view={view} />
    </>
  );
}
