/**
 * The pieces the analytics, overview and /admin screens share: a figure card (a number, what it
 * counts, the change against the previous period, a link to the screen that explains it), the
 * period switch and number / day formatting. No chart library here: the overview and /admin do
 * not chart, so recharts stays in the /admin/analytics chunk only.
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { cx } from "../../components/ui/cx.ts";

export const TIER_LABEL: Record<string, string> = {
  all: "All readers",
  visitor: "Visitors",
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  enterprise: "Enterprise",
};

const numberFormat = new Intl.NumberFormat("en-GB");
export const formatNumber = (n: number) => numberFormat.format(n);

const dayFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const longDayFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
/** "5 Mar" for a YYYY-MM-DD day. */
export const shortDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00.000Z`));
/** "5 Mar 2026". */
export const longDay = (day: string) => longDayFormat.format(new Date(`${day}T00:00:00.000Z`));
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});
export const shortTime = (iso: string) => `${timeFormat.format(new Date(iso))} UTC`;

/** The change from `previous` to `current` in words: "+3 (+25%)", "+3 (new)", "no change". */
export function deltaWords(
  current: number,
  previous: number,
): { text: string; tone: "up" | "down" | "flat" } {
  const diff = current - previous;
  if (diff === 0) return { text: "no change", tone: "flat" };
  const sign = diff > 0 ? "+" : "−";
  const pct = previous === 0 ? "new" : `${sign}${Math.round((Math.abs(diff) / previous) * 100)}%`;
  return { text: `${sign}${formatNumber(Math.abs(diff))} (${pct})`, tone: diff > 0 ? "up" : "down" };
}

/** One figure: value, label, and optionally the change against the previous period and a link. */
export function Figure({
  label,
  value,
  previous,
  periodWords,
  to,
  linkLabel,
  invert = false,
  hint,
}: {
  label: string;
  value: number;
  /** The previous period's value (a delta is shown when given). */
  previous?: number;
  /** "the previous 30 days". */
  periodWords?: string;
  to?: string;
  /** What the link opens, for screen readers and the tooltip. */
  linkLabel?: string;
  /** True when going down is good (churn). */
  invert?: boolean;
  hint?: ReactNode;
}) {
  const delta = previous === undefined ? null : deltaWords(value, previous);
  const good = delta && delta.tone !== "flat" ? (delta.tone === "up") !== invert : null;
  const body = (
    <>
      <dt className="text-xs text-ink-subtle">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-ink">{formatNumber(value)}</dd>
      {delta ? (
        <dd
          className={cx(
            "mt-1 text-xs tabular-nums",
            good === null ? "text-ink-subtle" : good ? "text-ok-text" : "text-danger-text",
          )}
        >
          {delta.text}
          <span className="text-ink-subtle"> vs {periodWords ?? "the previous period"}</span>
        </dd>
      ) : null}
      {hint ? <dd className="mt-1 text-xs text-ink-subtle">{hint}</dd> : null}
    </>
  );
  const box = "block h-full rounded-lg bg-sunken p-4";
  return to ? (
    <div>
      <Link
        to={to}
        title={linkLabel}
        className={cx(
          box,
          "transition-colors hover:bg-accent-soft focus-visible:outline-2 focus-visible:outline-focus",
        )}
      >
        <dl>{body}</dl>
        <span className="sr-only">{linkLabel ? `: ${linkLabel}` : ""}</span>
      </Link>
    </div>
  ) : (
    <div className={box}>
      <dl>{body}</dl>
    </div>
  );
}

export function FigureGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-4">{children}</div>;
}

/** A row of links that switch a period (works without JavaScript); the current one is marked. */
export function PeriodSwitch({
  label,
  options,
  current,
}: {
  label: string;
  options: { to: string; text: string; value: string }[];
  current: string | null;
}) {
  return (
    <nav aria-label={label} className="inline-flex rounded-lg border border-line bg-elevated p-0.5">
      {options.map((o) => (
        <Link
          key={o.value}
          to={o.to}
          aria-current={o.value === current ? "page" : undefined}
          className={cx(
            "rounded-md px-3 py-1.5 text-sm font-medium",
            o.value === current
              ? "bg-accent text-accent-ink"
              : "text-ink-muted hover:bg-sunken hover:text-ink",
          )}
        >
          {o.text}
        </Link>
      ))}
    </nav>
  );
}
