import type { HTMLAttributes, ReactNode } from "react";
import { cx } from "./cx.ts";

export const cardClass = "rounded-xl border border-line bg-elevated shadow-[0_1px_2px_rgba(0,0,0,0.04)]";

export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx(cardClass, className)} {...rest} />;
}

/** A definition list styled as a two-column key/value table. */
export function KeyValueList({ rows, className }: { rows: Array<[string, ReactNode]>; className?: string }) {
  return (
    <dl className={cx("divide-y divide-line text-sm", className)}>
      {rows.map(([key, value]) => (
        <div key={key} className="grid grid-cols-[minmax(7rem,11rem)_1fr] gap-4 py-2.5">
          <dt className="text-ink-muted">{key}</dt>
          <dd className="min-w-0 break-words text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
