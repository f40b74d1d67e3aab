/**
 * The /admin/logs screen body: the filter form (a plain GET form, works without JavaScript),
 * export links carrying the current filters, the rows (a table from 640 px, cards below) with
 * expandable details, the empty state and paging.
 */
import { Download } from "lucide-react";
import { Link } from "react-router";
import { AUDIT_ACTIONS, AUDIT_CATEGORIES, AUDIT_CATEGORY_LABELS } from "../../../core/audit-actions.ts";
import type { AuditLogItem } from "../../../server/modules/audit/audit-log.service.ts";
import { buttonClass } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { cx } from "../../components/ui/cx.ts";
import { inputClass } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import type { AuditLogData } from "./audit-log.server.ts";

const CATEGORY_TONE: Record<AuditLogItem["category"], string> = {
  security: "bg-red-50 text-red-800 dark:bg-red-950/60 dark:text-red-200",
  admin: "bg-accent-soft text-accent-text",
  billing: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-200",
  organisation: "bg-amber-50 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200",
  account: "bg-sunken text-ink-muted",
  other: "bg-sunken text-ink-muted",
};

const BADGE: Record<AuditLogItem["category"], string> = {
  security: "Security",
  admin: "Admin",
  billing: "Billing",
  organisation: "Organisation",
  account: "Account",
  other: "Other",
};

/** UTC, the same on the server and in the browser (no hydration mismatch). */
export function formatAuditTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

function detailValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function ActorCell({ item }: { item: AuditLogItem }) {
  if (!item.actor) return <span className="text-ink-muted">System</span>;
  const { name, email, id } = item.actor;
  if (!name && !email) {
    return (
      <span className="text-ink-muted">
        Deleted user <span className="break-all font-mono text-xs">{id}</span>
      </span>
    );
  }
  return (
    <span className="min-w-0">
      <span className="block text-ink">{name || email}</span>
      {email && name ? (
        <span className="block text-xs text-ink-muted [overflow-wrap:anywhere]">{email}</span>
      ) : null}
    </span>
  );
}

function Target({ item }: { item: AuditLogItem }) {
  if (!item.targetType && !item.targetId) return <span className="text-ink-subtle">—</span>;
  return (
    <span className="min-w-0">
      {item.targetType ? <span className="block text-ink">{item.targetType}</span> : null}
      {item.targetId ? (
        <span className="block break-all font-mono text-xs text-ink-muted">{item.targetId}</span>
      ) : null}
    </span>
  );
}

function Details({ item }: { item: AuditLogItem }) {
  const entries = Object.entries(item.details ?? {});
  if (entries.length === 0) return <span className="text-ink-subtle">—</span>;
  return (
    <details className="group">
      <summary className="cursor-pointer text-accent-text hover:underline">
        {entries.length === 1 ? "1 detail" : `${entries.length} details`}
      </summary>
      <dl className="mt-2 space-y-1.5 text-xs">
        {entries.map(([key, value]) => (
          <div key={key} className="min-w-0">
            <dt className="font-medium text-ink-muted">{key}</dt>
            <dd className="min-w-0 whitespace-pre-wrap break-words font-mono text-ink [overflow-wrap:anywhere]">
              {detailValue(value)}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

function ActionBadge({ item }: { item: AuditLogItem }) {
  return (
    <span className="min-w-0">
      <span className="block font-medium text-ink">{item.label}</span>
      <span className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs">
        <span
          className={cx("whitespace-nowrap rounded px-1.5 py-0.5 font-medium", CATEGORY_TONE[item.category])}
        >
          {BADGE[item.category]}
        </span>
        <code className="break-all text-ink-subtle">{item.action}</code>
      </span>
    </span>
  );
}

function FilterForm({ data }: { data: AuditLogData }) {
  const { form, error } = data;
  const invalid = (field: string) => (error?.field === field ? true : undefined);
  const field = (
    name: keyof AuditLogData["form"],
    label: string,
    props: { placeholder?: string; type?: string; list?: string } = {},
  ) => (
    <div className="min-w-0 text-sm">
      <label htmlFor={`audit-${name}`} className="mb-1 block font-medium text-ink">
        {label}
      </label>
      <input
        id={`audit-${name}`}
        name={name}
        defaultValue={form[name]}
        aria-invalid={invalid(name)}
        className={inputClass}
        type={props.type ?? "text"}
        placeholder={props.placeholder}
        list={props.list}
      />
    </div>
  );
  return (
    <Card className="p-4">
      <form method="get" className="space-y-4" aria-label="Filter the audit log">
        <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          <div className="col-span-2 sm:col-span-1">
            {field("q", "Search", { placeholder: "action, target, person, details", type: "search" })}
          </div>
          <div className="col-span-2 sm:col-span-1">
            {field("actor", "Actor", { placeholder: "e-mail, user id or system" })}
          </div>
          {field("action", "Actions", { placeholder: "lockout, admin_unlock", list: "audit-actions" })}
          <div className="min-w-0 text-sm">
            <label htmlFor="audit-kind" className="mb-1 block font-medium text-ink">
              Kind
            </label>
            <select
              id="audit-kind"
              name="kind"
              defaultValue={form.kind}
              aria-invalid={invalid("kind")}
              className={inputClass}
            >
              <option value="">All kinds</option>
              {AUDIT_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {AUDIT_CATEGORY_LABELS[c]}
                </option>
              ))}
            </select>
          </div>
          {field("targetType", "Target type", { placeholder: "user, plan, organization" })}
          {field("targetId", "Target id")}
          {field("from", "From", { placeholder: "2026-01-31" })}
          {field("to", "To", { placeholder: "2026-02-28" })}
        </div>
        <datalist id="audit-actions">
          {Object.entries(AUDIT_ACTIONS).map(([action, info]) => (
            <option key={action} value={action}>
              {info.label}
            </option>
          ))}
        </datalist>
        <div className="flex flex-wrap items-end gap-3">
          <div className="text-sm">
            <label htmlFor="audit-sort" className="mb-1 block font-medium text-ink">
              Order
            </label>
            <select
              id="audit-sort"
              name="sort"
              defaultValue={form.sort || "newest"}
              className={cx(inputClass, "w-auto")}
            >
              <option value="newest">Newest first</option>
              <option value="oldest">Oldest first</option>
            </select>
          </div>
          <button type="submit" className={buttonClass("primary")}>
            Apply filters
          </button>
          <Link to="/admin/logs" className={buttonClass("ghost")}>
            Clear
          </Link>
        </div>
      </form>
    </Card>
  );
}

function Rows({ items }: { items: AuditLogItem[] }) {
  return (
    <>
      <ul className="divide-y divide-line text-sm sm:hidden" aria-label="Audit events">
        {items.map((item) => (
          <li key={item.id} className="space-y-2 px-4 py-3">
            <div className="flex items-start justify-between gap-3">
              <ActionBadge item={item} />
            </div>
            <p className="text-xs text-ink-muted">
              <time dateTime={item.at}>{formatAuditTime(item.at)}</time>
              {item.ip ? <span className="ml-2 font-mono">{item.ip}</span> : null}
            </p>
            <div className="grid grid-cols-[5rem_1fr] gap-x-3 gap-y-1">
              <span className="text-xs text-ink-subtle">Actor</span>
              <ActorCell item={item} />
              <span className="text-xs text-ink-subtle">Target</span>
              <Target item={item} />
            </div>
            <Details item={item} />
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto sm:block">
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-ink-subtle">
            <tr>
              {["Time", "Actor", "Action", "Target", "IP", "Details"].map((h) => (
                <th key={h} scope="col" className="px-4 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {items.map((item) => (
              <tr key={item.id} className="align-top">
                <td className="whitespace-nowrap px-4 py-3 tabular-nums text-ink-muted">
                  <time dateTime={item.at}>{formatAuditTime(item.at)}</time>
                </td>
                <td className="min-w-44 px-4 py-3">
                  <ActorCell item={item} />
                </td>
                <td className="px-4 py-3">
                  <ActionBadge item={item} />
                </td>
                <td className="px-4 py-3">
                  <Target item={item} />
                </td>
                <td className="whitespace-nowrap px-4 py-3 font-mono text-xs text-ink-muted">
                  {item.ip ?? "—"}
                </td>
                <td className="min-w-44 max-w-xs px-4 py-3">
                  <Details item={item} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function AuditLogView({ data }: { data: AuditLogData }) {
  const { items, nextCursor, filters, paged, error } = data;
  const withFilters = (extra: Record<string, string>) => {
    const params = new URLSearchParams(filters);
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    return params.toString();
  };
  const filtered = filters !== "";
  return (
    <div className="space-y-4">
      <FilterForm data={data} />
      {error ? (
        <Notice tone="danger" role="alert" title="This filter cannot be used">
          {error.message}
        </Notice>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-ink-muted" aria-live="polite">
              {items.length === 0
                ? "No events"
                : `${items.length} event${items.length === 1 ? "" : "s"} on this page${filtered ? " matching the filters" : ""}`}
            </p>
            <div className="flex flex-wrap gap-2">
              <a
                href={`/api/admin/audit/export?${withFilters({ format: "csv" })}`}
                className={buttonClass("secondary", "sm")}
                download
              >
                <Download aria-hidden="true" className="size-4" />
                Export CSV
              </a>
              <a
                href={`/api/admin/audit/export?${withFilters({ format: "json" })}`}
                className={buttonClass("secondary", "sm")}
                download
              >
                <Download aria-hidden="true" className="size-4" />
                Export JSON
              </a>
            </div>
          </div>
          <Card className="overflow-hidden">
            {items.length === 0 ? (
              <div className="px-4 py-10 text-center text-sm text-ink-muted">
                <p className="font-medium text-ink">
                  {filtered ? "No events match these filters." : "The audit log is empty."}
                </p>
                {filtered ? (
                  <p className="mt-1">
                    Widen the time range or{" "}
                    <Link to="/admin/logs" className="text-accent-text hover:underline">
                      clear the filters
                    </Link>
                    .
                  </p>
                ) : null}
              </div>
            ) : (
              <Rows items={items} />
            )}
          </Card>
          {paged || nextCursor ? (
            <nav aria-label="Pages" className="flex flex-wrap justify-between gap-3">
              {paged ? (
                <Link
                  to={`/admin/logs${filters ? `?${filters}` : ""}`}
                  className={buttonClass("secondary", "sm")}
                >
                  First page
                </Link>
              ) : (
                <span />
              )}
              {nextCursor ? (
                <Link
                  to={`/admin/logs?${withFilters({ cursor: nextCursor })}`}
                  className={buttonClass("secondary", "sm")}
                >
                  Next page
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
