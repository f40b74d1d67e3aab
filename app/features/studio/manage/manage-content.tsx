import { FilePlus2 } from "lucide-react";
import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import { WORKFLOW_STATE_LABELS, type WorkflowState } from "../../../../core/index.ts";
import { buttonClass } from "../../../components/ui/button.tsx";
import { Card } from "../../../components/ui/card.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { settle } from "../../../lib/api.ts";
import { type BulkAction, type RowOutcome, runBulk, summarize } from "./bulk.ts";
import { BulkBar } from "./bulk-bar.tsx";
import { ContentTable } from "./content-table.tsx";
import { ListFilters, StateTabs } from "./list-controls.tsx";
import { baseHref, isFiltered, type ListBase, listHref, STUDIO_LIST_BASE } from "./list-params.ts";
import type { StudioListPage } from "./studio-list.server.ts";

const pagerLink = "text-sm font-medium text-accent-text hover:underline";

/** The "New content" button of the screen's header. */
export function NewContentButton() {
  return (
    <Link to="/create" className={buttonClass("primary", "md")}>
      <FilePlus2 aria-hidden="true" className="size-4" />
      New content
    </Link>
  );
}

function EmptyState({ page, base }: { page: StudioListPage; base: ListBase }) {
  const { filters, list } = page;
  const everything = Object.values(list.counts).reduce((sum, n) => sum + n, 0);
  if (everything === 0 && !isFiltered(filters)) {
    return (
      <Card className="px-6 py-10 text-center">
        <p className="font-medium text-ink">Nothing has been written yet.</p>
        <p className="mt-1 text-sm text-ink-muted">
          Start an article, course, video or page with New content; it appears here as a draft.
        </p>
        <div className="mt-4">
          <NewContentButton />
        </div>
      </Card>
    );
  }
  const state = filters.state ? WORKFLOW_STATE_LABELS[filters.state as WorkflowState] : null;
  return (
    <Card className="px-6 py-10 text-center">
      <p className="font-medium text-ink">
        {filters.q ? `Nothing matches “${filters.q}”` : "No items match these filters"}
        {state ? ` in ${state}` : ""}.
      </p>
      <p className="mt-1 text-sm text-ink-muted">
        Try another word or fewer filters
        {state ? ", or look in All" : ""}.{" "}
        <Link to={baseHref(base)} className="font-medium text-accent-text hover:underline">
          Show all content
        </Link>
      </p>
    </Card>
  );
}

/**
 * The management table with its state tabs, filters, bulk actions and cursor paging. Keyed by
 * the URL in the route, so a new page or filter starts with nothing selected.
 */
export function ManageContent({
  page,
  base = STUDIO_LIST_BASE,
}: {
  page: StudioListPage;
  /** Where the list is shown (its links and filter form stay there); `/content` by default. */
  base?: ListBase;
}) {
  const { list, filters } = page;
  const { revalidate } = useRevalidator();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, RowOutcome>>(new Map());
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: "ok" | "warn" | "danger"; text: string } | null>(null);

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = (select: boolean) =>
    setSelected(select ? new Set(list.items.map((r) => r.id)) : new Set());

  async function run(action: BulkAction, value?: string) {
    setBusy(true);
    setResult(null);
    const outcome = await settle(runBulk([...selected], action, value));
    setBusy(false);
    if (!outcome.ok) {
      setResult({ tone: "danger", text: outcome.error.message });
      return;
    }
    const byRow = outcome.data;
    setOutcomes(byRow);
    setSelected((current) => new Set([...current].filter((id) => !byRow.get(id)?.ok)));
    const failed = [...byRow.values()].some((o) => !o.ok);
    setResult({ tone: failed ? "warn" : "ok", text: summarize(byRow, action) });
    await revalidate();
  }

  return (
    <div className="space-y-4">
      {page.notices.map((text) => (
        <Notice key={text} tone="warn" role="status">
          {text}
        </Notice>
      ))}
      <StateTabs filters={filters} counts={list.counts} base={base} />
      <ListFilters filters={filters} sections={page.sections} categories={page.categories} base={base} />
      {selected.size > 0 ? (
        <BulkBar
          count={selected.size}
          busy={busy}
          categories={page.categories}
          onRun={(action, value) => void run(action, value)}
          onClear={() => setSelected(new Set())}
        />
      ) : null}
      <div role="status" aria-live="polite">
        {result ? (
          <Notice tone={result.tone} title={result.tone === "danger" ? "Nothing was changed" : undefined}>
            {result.text}
          </Notice>
        ) : null}
      </div>
      <p className="text-sm text-ink-muted" data-testid="list-total">
        {list.total === 1 ? "1 item" : `${list.total} items`}
        {filters.q ? ` matching “${filters.q}”` : ""}
      </p>
      {list.items.length > 0 ? (
        <ContentTable
          rows={list.items}
          now={page.now}
          selected={selected}
          onToggle={toggle}
          onToggleAll={toggleAll}
          outcomes={outcomes}
        />
      ) : (
        <EmptyState page={page} base={base} />
      )}
      {page.cursor || list.nextCursor ? (
        <nav aria-label="Pagination" className="flex items-center justify-between gap-4">
          {page.cursor ? (
            <Link to={listHref(filters, {}, base)} className={pagerLink}>
              First page
            </Link>
          ) : (
            <span />
          )}
          {list.nextCursor ? (
            <Link to={listHref(filters, { cursor: list.nextCursor }, base)} className={pagerLink}>
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
