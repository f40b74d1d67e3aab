import { Search } from "lucide-react";
import type { ChangeEvent, ReactNode } from "react";
import { Form, Link } from "react-router";
import { TIERS, WORKFLOW_STATE_LABELS, WORKFLOW_STATES, type WorkflowState } from "../../../../core/index.ts";
import type { ContentType } from "../../../../server/services.ts";
import { buttonClass } from "../../../components/ui/button.tsx";
import { cx } from "../../../components/ui/cx.ts";
import { TYPE_LABEL } from "../../../lib/format.ts";
import {
  type ListBase,
  listHref,
  ORDER_CHOICES,
  orderValue,
  STUDIO_LIST_BASE,
  type StudioFilters,
} from "./list-params.ts";

const controlClass =
  "h-9 w-full rounded-lg border border-line-strong bg-elevated px-2.5 text-sm text-ink " +
  "focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30";

/** The state tabs, each with its count for the current filters. */
export function StateTabs({
  filters,
  counts,
  base = STUDIO_LIST_BASE,
}: {
  filters: StudioFilters;
  counts: Record<WorkflowState, number>;
  base?: ListBase;
}) {
  const all = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const tabs: { state: string; label: string; count: number }[] = [
    { state: "", label: "All", count: all },
    ...WORKFLOW_STATES.map((s) => ({ state: s, label: WORKFLOW_STATE_LABELS[s], count: counts[s] })),
  ];
  return (
    <nav aria-label="Workflow states">
      <ul className="flex flex-wrap gap-1.5">
        {tabs.map((tab) => {
          const current = filters.state === tab.state;
          return (
            <li key={tab.state || "all"}>
              <Link
                to={listHref(filters, { state: tab.state, cursor: null }, base)}
                aria-current={current ? "page" : undefined}
                className={cx(
                  "inline-flex h-8 items-center gap-1.5 rounded-full border px-3 text-sm font-medium transition-colors",
                  current
                    ? "border-accent bg-accent text-accent-ink"
                    : "border-line bg-elevated text-ink-muted hover:border-line-strong hover:text-ink",
                )}
              >
                {tab.label}
                <span
                  className={cx(
                    "rounded-full px-1.5 text-xs tabular-nums",
                    current ? "bg-black/25" : "bg-sunken text-ink-subtle",
                  )}
                >
                  {tab.count}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Choice({
  label,
  name,
  value,
  children,
}: {
  label: string;
  name: string;
  value: string;
  children: ReactNode;
}) {
  // With JavaScript a choice applies at once; without it, the Apply button sends the form.
  const apply = (event: ChangeEvent<HTMLSelectElement>) => event.currentTarget.form?.requestSubmit();
  return (
    <label className="block min-w-0 text-xs font-medium text-ink-muted">
      {label}
      <select name={name} defaultValue={value} onChange={apply} className={cx(controlClass, "mt-1")}>
        {children}
      </select>
    </label>
  );
}

/** Search, filters and sort: one GET form, so a filtered list is a URL and works without JavaScript. */
export function ListFilters({
  filters,
  sections,
  categories,
  base = STUDIO_LIST_BASE,
}: {
  filters: StudioFilters;
  sections: readonly { slug: string; label: string }[];
  categories: readonly { slug: string; label: string }[];
  base?: ListBase;
}) {
  // A link's author id (not "me") stays choosable.
  const otherAuthor = filters.author && filters.author !== "me" ? filters.author : null;
  return (
    <search>
      <Form
        method="get"
        action={base.path}
        // The form's values replace the URL's: a new search or filter starts at page one.
        key={listHref(filters, {}, base)}
        className="space-y-3"
      >
        {Object.entries(base.params ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {filters.state ? <input type="hidden" name="state" value={filters.state} /> : null}
        <div className="flex gap-2">
          <label htmlFor="content-search" className="sr-only">
            Search this list
          </label>
          <div className="relative min-w-0 flex-1">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-ink-subtle"
            />
            <input
              id="content-search"
              name="q"
              type="search"
              defaultValue={filters.q}
              maxLength={200}
              placeholder="Search titles, slugs and summaries"
              className={cx(controlClass, "pl-8")}
            />
          </div>
          <button type="submit" className={buttonClass("secondary", "sm", "h-9")}>
            Search
          </button>
        </div>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 2xl:grid-cols-6">
          <Choice label="Section" name="section" value={filters.section}>
            <option value="">Any section</option>
            {sections.map((s) => (
              <option key={s.slug} value={s.slug}>
                {s.label}
              </option>
            ))}
          </Choice>
          <Choice label="Category" name="category" value={filters.category}>
            <option value="">Any category</option>
            {categories.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.label}
              </option>
            ))}
          </Choice>
          <Choice label="Plan" name="tier" value={filters.tier}>
            <option value="">Any plan</option>
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Choice>
          <Choice label="Type" name="type" value={filters.type}>
            <option value="">Any type</option>
            {(Object.keys(TYPE_LABEL) as ContentType[]).map((t) => (
              <option key={t} value={t}>
                {TYPE_LABEL[t]}
              </option>
            ))}
          </Choice>
          <Choice label="Author" name="author" value={filters.author}>
            <option value="">Anyone</option>
            <option value="me">Me</option>
            {otherAuthor ? <option value={otherAuthor}>The author in the link</option> : null}
          </Choice>
          <Choice label="Sort" name="order" value={orderValue(filters)}>
            {ORDER_CHOICES.map((o) => (
              <option key={orderValue(o)} value={orderValue(o)}>
                {o.label}
              </option>
            ))}
          </Choice>
        </div>
        <noscript>
          <button type="submit" className={buttonClass("secondary", "sm")}>
            Apply filters
          </button>
        </noscript>
      </Form>
    </search>
  );
}
