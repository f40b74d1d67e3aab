import { ArrowLeft, ArrowRight, Inbox } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { findRoute, TIERS } from "../../../core/index.ts";
import { buttonClass } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { NamedIcon } from "../../components/ui/icon.tsx";
import { PageHeader } from "../../components/ui/page-header.tsx";
import { ContentGrid } from "./content-card.tsx";
import type { ListingData, ListingFilters } from "./content-data.ts";

function hrefWith(pathname: string, filters: ListingFilters, change: Partial<ListingFilters>): string {
  const next = { ...filters, cursor: null, ...change };
  const params = new URLSearchParams();
  if (next.category) params.set("category", next.category);
  if (next.tier) params.set("tier", next.tier);
  if (next.type) params.set("type", next.type);
  if (next.cursor) params.set("cursor", next.cursor);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

function Chip({ to, active, children }: { to: string; active: boolean; children: ReactNode }) {
  return (
    <Link
      to={to}
      preventScrollReset
      aria-current={active ? "true" : undefined}
      className={cx(
        "inline-flex h-8 items-center rounded-full border px-3 text-sm transition-colors",
        active
          ? "border-accent bg-accent text-accent-ink"
          : "border-line bg-elevated text-ink-muted hover:border-line-strong hover:text-ink",
      )}
    >
      {children}
    </Link>
  );
}

/** Section or category listing: header, category chips, tier filter, cards and cursor pagination. */
export function Listing({
  listing,
  notice,
  actions,
}: {
  listing: ListingData;
  notice?: ReactNode;
  /** Shown in the header (a section's Follow button). */
  actions?: ReactNode;
}) {
  const { pathname } = useLocation();
  const { scope, filters, categories, items, nextCursor } = listing;
  const title = scope.kind === "section" ? scope.section.label : scope.category.label;
  const description = scope.kind === "section" ? scope.section.description : scope.category.description;
  const icon =
    scope.kind === "section" ? findRoute(scope.section.path)?.icon : (scope.category.icon ?? "Tag");
  const filtered = Boolean(filters.category || filters.tier || filters.type);

  return (
    <div>
      <PageHeader
        eyebrow={scope.kind === "section" ? "Section" : "Category"}
        title={title}
        description={description}
        actions={actions}
        icon={
          <span className="flex size-9 items-center justify-center rounded-lg bg-accent-soft text-accent-text">
            <NamedIcon name={icon} className="size-5" />
          </span>
        }
      />
      {notice ? <div className="mb-6">{notice}</div> : null}

      <div className="mb-6 space-y-3">
        {categories.length > 0 ? (
          <nav aria-label="Filter by category" className="flex flex-wrap gap-2">
            <Chip to={hrefWith(pathname, filters, { category: null })} active={!filters.category}>
              All categories
            </Chip>
            {categories.map((c) => (
              <Chip
                key={c.slug}
                to={hrefWith(pathname, filters, { category: c.slug })}
                active={filters.category === c.slug}
              >
                {c.label}
                <span className="ml-1.5 text-xs opacity-70">{c.itemCount}</span>
              </Chip>
            ))}
          </nav>
        ) : null}
        <nav aria-label="Filter by plan" className="flex flex-wrap items-center gap-2">
          <span className="mr-1 text-xs font-medium uppercase tracking-wider text-ink-subtle">Plan</span>
          <Chip to={hrefWith(pathname, filters, { tier: null })} active={!filters.tier}>
            All plans
          </Chip>
          {TIERS.map((tier) => (
            <Chip key={tier} to={hrefWith(pathname, filters, { tier })} active={filters.tier === tier}>
              {tier}
            </Chip>
          ))}
        </nav>
      </div>

      <h2 className="sr-only">{filtered ? "Filtered content" : `All content in ${title}`}</h2>
      {items.length > 0 ? (
        <ContentGrid items={items} />
      ) : (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-line px-6 py-14 text-center">
          <Inbox aria-hidden="true" className="mb-3 size-8 text-ink-subtle" />
          <p className="font-medium text-ink">{filters.cursor ? "No more items" : "Nothing here yet"}</p>
          <p className="mt-1 text-sm text-ink-muted">
            {filtered
              ? "No published content matches these filters."
              : "No content has been published here yet."}
          </p>
          {filtered ? (
            <Link to={pathname} className={buttonClass("secondary", "sm", "mt-4")}>
              Clear filters
            </Link>
          ) : null}
        </div>
      )}

      {filters.cursor || nextCursor ? (
        <nav aria-label="Pagination" className="mt-8 flex items-center justify-between gap-3">
          {filters.cursor ? (
            <Link to={hrefWith(pathname, filters, { cursor: null })} className={buttonClass("ghost", "sm")}>
              <ArrowLeft aria-hidden="true" className="size-4" />
              First page
            </Link>
          ) : (
            <span />
          )}
          {nextCursor ? (
            <Link
              to={hrefWith(pathname, filters, { cursor: nextCursor })}
              className={buttonClass("secondary", "sm")}
            >
              Next page
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
