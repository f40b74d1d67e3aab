import { Clock } from "lucide-react";
import { Link } from "react-router";
import type { ContentSummary } from "../../../server/services.ts";
import { TierBadge } from "../../components/tier-badge.tsx";
import { cx } from "../../components/ui/cx.ts";
import { contentPath, formatDate, TYPE_LABEL } from "../../lib/format.ts";

/** A content item as a card: type, category, title, excerpt, tier (lock when locked), date, reading time. */
export function ContentCard({ item, className }: { item: ContentSummary; className?: string }) {
  const date = formatDate(item.publishedAt);
  return (
    <article
      className={cx(
        "relative flex flex-col rounded-xl border border-line bg-elevated p-5 transition-colors hover:border-line-strong hover:bg-surface has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-focus",
        className,
      )}
    >
      <div className="mb-3 flex items-start justify-between gap-3 text-xs text-ink-subtle">
        <p className="flex min-w-0 items-center gap-2 pt-0.5">
          <span className="font-medium uppercase tracking-wide text-accent-text">
            {TYPE_LABEL[item.type]}
          </span>
          {item.categoryLabel ? (
            <>
              <span aria-hidden="true">·</span>
              <span className="min-w-0 truncate">{item.categoryLabel}</span>
            </>
          ) : null}
        </p>
        <TierBadge tier={item.tier} locked={item.locked} className="shrink-0" />
      </div>
      <h3 className="text-base font-semibold leading-snug text-ink">
        <Link
          to={contentPath(item.slug)}
          prefetch="intent"
          className="after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none"
        >
          {item.title}
        </Link>
      </h3>
      {item.excerpt ? (
        <p className="mt-2 line-clamp-3 text-sm leading-relaxed text-ink-muted">{item.excerpt}</p>
      ) : null}
      <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 pt-4 text-xs text-ink-subtle">
        {date ? <time dateTime={item.publishedAt ?? undefined}>{date}</time> : null}
        {item.readingMinutes ? (
          <span className="inline-flex items-center gap-1">
            <Clock aria-hidden="true" className="size-3" />
            {item.readingMinutes} min read
          </span>
        ) : null}
      </div>
    </article>
  );
}

export function ContentGrid({ items, className }: { items: ContentSummary[]; className?: string }) {
  return (
    <div className={cx("grid gap-4 sm:grid-cols-2 xl:grid-cols-3", className)}>
      {items.map((item) => (
        <ContentCard key={item.id} item={item} />
      ))}
    </div>
  );
}
