import { ArrowRight, Bookmark, BookOpen, Clock } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { ContentSummary } from "../../../server/modules/content/content.types.ts";
import type { ContinueItem } from "../../../server/modules/dashboard/dashboard.types.ts";
import { TierBadge } from "../../components/tier-badge.tsx";
import { cx } from "../../components/ui/cx.ts";
import { contentPath, formatDate, TYPE_LABEL } from "../../lib/format.ts";

const cardClass =
  "relative flex min-w-0 flex-col rounded-xl border border-line bg-elevated p-4 transition-colors hover:border-line-strong hover:bg-surface has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-focus";

/** A section of the dashboard: a heading, an optional link, and its content. */
export function DashboardSection({
  id,
  title,
  description,
  action,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-1">
        <div className="min-w-0">
          <h2 id={id} className="text-base font-semibold text-ink">
            {title}
          </h2>
          {description ? <p className="text-sm text-ink-muted">{description}</p> : null}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

/** The "nothing here yet" box: what the section will hold and where to go. */
export function EmptyState({
  icon,
  children,
  action,
}: {
  icon: ReactNode;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-xl border border-dashed border-line-strong px-5 py-6 text-sm text-ink-muted sm:flex-row sm:items-center">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-sunken text-ink-subtle">
        {icon}
      </span>
      <p className="flex-1">{children}</p>
      {action}
    </div>
  );
}

function Meta({ item, extra }: { item: ContentSummary; extra?: ReactNode }) {
  return (
    <p className="mb-2 flex min-w-0 items-center gap-2 text-xs text-ink-subtle">
      <span className="font-medium uppercase tracking-wide text-accent-text">{TYPE_LABEL[item.type]}</span>
      {item.categoryLabel ? (
        <>
          <span aria-hidden="true">·</span>
          <span className="min-w-0 truncate">{item.categoryLabel}</span>
        </>
      ) : null}
      <TierBadge tier={item.tier} locked={item.locked} className="ml-auto shrink-0" />
      {extra}
    </p>
  );
}

/** A compact item card (title links to the page). */
export function ItemCard({ item, footer }: { item: ContentSummary; footer?: ReactNode }) {
  const date = formatDate(item.publishedAt);
  return (
    <article className={cardClass} data-testid="dashboard-item">
      <Meta item={item} />
      <h3 className="text-sm font-semibold leading-snug text-ink">
        <Link
          to={contentPath(item.slug)}
          prefetch="intent"
          className="after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none"
        >
          {item.title}
        </Link>
      </h3>
      {item.excerpt ? <p className="mt-1.5 line-clamp-2 text-sm text-ink-muted">{item.excerpt}</p> : null}
      <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 pt-3 text-xs text-ink-subtle">
        {footer ?? (
          <>
            {date ? <time dateTime={item.publishedAt ?? undefined}>{date}</time> : null}
            {item.readingMinutes ? (
              <span className="inline-flex items-center gap-1">
                <Clock aria-hidden="true" className="size-3" />
                {item.readingMinutes} min read
              </span>
            ) : null}
          </>
        )}
      </div>
    </article>
  );
}

export function ItemGrid({ children }: { children: ReactNode }) {
  return <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">{children}</div>;
}

function minutes(seconds: number): string | null {
  if (seconds < 60) return null;
  const m = Math.round(seconds / 60);
  return m < 60 ? `${m} min read so far` : `${Math.floor(m / 60)} h ${m % 60} min read so far`;
}

/** A "continue" card: progress bar and next lesson for courses, time read for the rest. */
export function ContinueCard({ entry }: { entry: ContinueItem }) {
  const { item, progress } = entry;
  const read = minutes(entry.secondsRead);
  return (
    <article className={cx(cardClass, "gap-0")} data-testid="continue-item">
      <Meta item={item} />
      <h3 className="text-sm font-semibold leading-snug text-ink">
        <Link to={contentPath(item.slug)} prefetch="intent" className="hover:underline">
          {item.title}
        </Link>
      </h3>
      {progress ? (
        <div className="mt-3 space-y-2">
          <div className="flex items-center justify-between text-xs text-ink-muted">
            <span>
              {progress.completed} of {progress.total} lessons
            </span>
            <span className="tabular-nums">{progress.percent}%</span>
          </div>
          <div
            role="progressbar"
            aria-label={`Progress in ${item.title}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress.percent}
            className="h-1.5 overflow-hidden rounded-full bg-sunken"
          >
            <div className="h-full rounded-full bg-accent" style={{ width: `${progress.percent}%` }} />
          </div>
          {progress.nextLesson ? (
            <Link
              to={contentPath(progress.nextLesson.slug)}
              className="flex items-center gap-1.5 text-sm font-medium text-accent-text hover:underline"
            >
              <span className="min-w-0 truncate">Next lesson: {progress.nextLesson.title}</span>
              <ArrowRight aria-hidden="true" className="size-3.5 shrink-0" />
            </Link>
          ) : progress.complete ? (
            <p className="text-sm font-medium text-ok-text">Course complete</p>
          ) : null}
        </div>
      ) : (
        <p className="mt-auto pt-3 text-xs text-ink-subtle">
          {read ?? `Last opened ${formatDate(entry.lastAt) ?? "recently"}`}
        </p>
      )}
    </article>
  );
}

export const emptyIcons = {
  reading: <BookOpen aria-hidden="true" className="size-4" />,
  saved: <Bookmark aria-hidden="true" className="size-4" />,
};
