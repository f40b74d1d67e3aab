import { Check, CircleX, ExternalLink, Pencil } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { ContentType, StudioRow } from "../../../../server/services.ts";
import { TierBadge } from "../../../components/tier-badge.tsx";
import { Card } from "../../../components/ui/card.tsx";
import { cx } from "../../../components/ui/cx.ts";
import { formatDateTime, TYPE_LABEL } from "../../../lib/format.ts";
import type { RowOutcome } from "./bulk.ts";
import { relativeTime } from "./list-params.ts";
import { StateBadge } from "./state-badge.tsx";

export interface ContentTableProps {
  rows: readonly StudioRow[];
  /** The loader's clock (relative times). */
  now: number;
  selected: ReadonlySet<string>;
  onToggle(id: string): void;
  onToggleAll(select: boolean): void;
  /** The last bulk action's result per row. */
  outcomes: ReadonlyMap<string, RowOutcome>;
}

const typeLabel = (type: string) => TYPE_LABEL[type as ContentType] ?? type;
const th = "px-3 py-2 font-medium";
const td = "px-3 py-2.5 align-top";
const checkboxClass = "size-4 rounded border-line-strong accent-accent";

function Updated({ row, now }: { row: StudioRow; now: number }) {
  return (
    <time dateTime={row.updatedAt} title={formatDateTime(row.updatedAt) ?? undefined}>
      {relativeTime(row.updatedAt, now)}
    </time>
  );
}

function Outcome({ outcome }: { outcome: RowOutcome | undefined }) {
  if (!outcome) return null;
  return (
    <span
      className={cx(
        "mt-1 flex items-start gap-1 text-xs font-medium",
        outcome.ok ? "text-ok-text" : "text-danger-text",
      )}
      data-testid="row-outcome"
    >
      {outcome.ok ? (
        <Check aria-hidden="true" className="mt-px size-3.5 shrink-0" />
      ) : (
        <CircleX aria-hidden="true" className="mt-px size-3.5 shrink-0" />
      )}
      {outcome.message}
    </span>
  );
}

function RowLinks({ row }: { row: StudioRow }) {
  return (
    <span className="flex items-center gap-3 whitespace-nowrap">
      {/* The title links to the editor too; this names the action for scanning and screen readers. */}
      <Link
        to={row.editUrl}
        className="inline-flex items-center gap-1 text-sm font-medium text-accent-text hover:underline"
      >
        <Pencil aria-hidden="true" className="size-3.5" />
        Edit<span className="sr-only"> {row.title}</span>
      </Link>
      {row.state === "published" ? (
        <Link
          to={row.publicUrl}
          className="inline-flex items-center gap-1 text-sm text-ink-muted hover:text-ink hover:underline"
        >
          <ExternalLink aria-hidden="true" className="size-3.5" />
          View<span className="sr-only"> {row.title}</span>
        </Link>
      ) : null}
    </span>
  );
}

function Select({ row, checked, onToggle }: { row: StudioRow; checked: boolean; onToggle(): void }) {
  return (
    <input
      type="checkbox"
      className={checkboxClass}
      checked={checked}
      onChange={onToggle}
      aria-label={`Select ${row.title}`}
    />
  );
}

function Muted({ children }: { children: ReactNode }) {
  return <span className="text-ink-muted">{children}</span>;
}

/**
 * The management table: a table from the `xl` breakpoint, stacked cards below it (title, state
 * and the edit link readable at 390 px without scrolling sideways).
 */
export function ContentTable({ rows, now, selected, onToggle, onToggleAll, outcomes }: ContentTableProps) {
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  return (
    <>
      <Card className="hidden overflow-x-auto xl:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Content items</caption>
          <thead className="bg-sunken text-xs uppercase tracking-wider text-ink-muted">
            <tr>
              <th scope="col" className={cx(th, "w-10")}>
                <input
                  type="checkbox"
                  className={checkboxClass}
                  checked={allSelected}
                  onChange={() => onToggleAll(!allSelected)}
                  aria-label="Select every item on this page"
                />
              </th>
              <th scope="col" className={th}>
                Title
              </th>
              <th scope="col" className={th}>
                State
              </th>
              <th scope="col" className={th}>
                Type
              </th>
              <th scope="col" className={th}>
                Plan
              </th>
              <th scope="col" className={th}>
                Category
              </th>
              <th scope="col" className={th}>
                Author
              </th>
              <th scope="col" className={th}>
                Updated
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row.id} className={selected.has(row.id) ? "bg-accent-soft/40" : undefined}>
                <td className={td}>
                  <Select row={row} checked={selected.has(row.id)} onToggle={() => onToggle(row.id)} />
                </td>
                <td className={cx(td, "min-w-56")}>
                  <Link
                    to={row.editUrl}
                    className="font-medium text-ink hover:text-accent-text hover:underline"
                  >
                    {row.title}
                  </Link>
                  <span className="block font-mono text-xs text-ink-subtle">{row.slug}</span>
                  <Outcome outcome={outcomes.get(row.id)} />
                  <span className="mt-1.5 block">
                    <RowLinks row={row} />
                  </span>
                </td>
                <td className={td}>
                  <StateBadge state={row.state} />
                </td>
                <td className={td}>
                  <Muted>{typeLabel(row.type)}</Muted>
                </td>
                <td className={td}>
                  <TierBadge tier={row.tier} />
                </td>
                <td className={td}>
                  <Muted>{row.categoryLabel ?? row.categorySlug ?? "—"}</Muted>
                </td>
                <td className={td}>
                  <Muted>{row.authorName ?? "—"}</Muted>
                </td>
                <td className={cx(td, "whitespace-nowrap")}>
                  <Muted>
                    <Updated row={row} now={now} />
                  </Muted>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>

      <div className="space-y-3 xl:hidden">
        <label className="flex items-center gap-2 px-1 text-sm text-ink-muted">
          <input
            type="checkbox"
            className={checkboxClass}
            checked={allSelected}
            onChange={() => onToggleAll(!allSelected)}
          />
          Select every item on this page
        </label>
        <ul className="space-y-3" aria-label="Content items">
          {rows.map((row) => (
            <li key={row.id}>
              <Card className={cx("flex gap-3 p-4", selected.has(row.id) && "border-accent-line")}>
                <span className="pt-0.5">
                  <Select row={row} checked={selected.has(row.id)} onToggle={() => onToggle(row.id)} />
                </span>
                <div className="min-w-0 flex-1 space-y-2">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <Link
                      to={row.editUrl}
                      className="min-w-0 break-words font-medium text-ink hover:text-accent-text hover:underline"
                    >
                      {row.title}
                    </Link>
                    <StateBadge state={row.state} />
                  </div>
                  <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-ink-muted">
                    <span>{typeLabel(row.type)}</span>
                    <TierBadge tier={row.tier} />
                    {row.categoryLabel ? <span>{row.categoryLabel}</span> : null}
                    {row.authorName ? <span>by {row.authorName}</span> : null}
                    <span>
                      updated <Updated row={row} now={now} />
                    </span>
                  </p>
                  <Outcome outcome={outcomes.get(row.id)} />
                  <RowLinks row={row} />
                </div>
              </Card>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
