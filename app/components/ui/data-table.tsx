import type { ReactNode } from "react";
import { cx } from "./cx.ts";

export interface Column<Row> {
  /** Unique within the table. */
  id: string;
  /** The column heading; a heading that is only for screen readers goes in `srOnly`. */
  header: ReactNode;
  srOnly?: boolean;
  cell(row: Row): ReactNode;
  align?: "left" | "right";
  /** Extra classes for the body cells (e.g. `whitespace-nowrap`, a text colour). */
  className?: string;
}

/**
 * A table on wide screens and a list of cards on phones (below `sm`), so that no page scrolls
 * sideways at 390 px. `card` draws one row as a phone card; without it the phone list shows each
 * column's heading and value.
 *
 * `inset` stretches the table to the edges of a padded card (`-mx-5`, cells padded `px-5`).
 */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  card,
  caption,
  inset = false,
}: {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey(row: Row): string;
  card?(row: Row): ReactNode;
  caption?: ReactNode;
  inset?: boolean;
}) {
  const pad = inset ? "px-5" : "pr-3 last:pr-0";
  return (
    <>
      <ul className="divide-y divide-line text-sm sm:hidden">
        {rows.map((row) => (
          <li key={rowKey(row)} className="py-3">
            {card ? (
              card(row)
            ) : (
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                {columns.map((c) => (
                  <div key={c.id} className="contents">
                    <dt className={cx("text-xs text-ink-subtle", c.srOnly && "sr-only")}>{c.header}</dt>
                    <dd className="min-w-0 break-words text-ink">{c.cell(row)}</dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        ))}
      </ul>
      <div className={cx("hidden min-w-0 overflow-x-auto sm:block", inset && "-mx-5")}>
        <table className="w-full text-left text-sm">
          {caption ? <caption className="sr-only">{caption}</caption> : null}
          <thead className="text-xs uppercase tracking-wide text-ink-subtle">
            <tr>
              {columns.map((c) => (
                <th
                  key={c.id}
                  scope="col"
                  className={cx("py-2 font-semibold", pad, c.align === "right" && "text-right")}
                >
                  {c.srOnly ? <span className="sr-only">{c.header}</span> : c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={rowKey(row)} className="align-top">
                {columns.map((c) => (
                  <td
                    key={c.id}
                    className={cx("py-2.5", pad, c.align === "right" && "text-right", c.className)}
                  >
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
