import { Archive, Send, X } from "lucide-react";
import { useState } from "react";
import { TIERS } from "../../../../core/index.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card } from "../../../components/ui/card.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { cx } from "../../../components/ui/cx.ts";
import type { BulkAction } from "./bulk.ts";

const selectClass =
  "h-8 min-w-0 rounded-lg border border-line-strong bg-elevated px-2 text-sm text-ink " +
  "focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30";

/** What each confirmed action does, in the dialog. */
const CONFIRM: Record<"publish" | "archive", { title: string; body: string; label: string }> = {
  publish: {
    title: "Publish the selected items?",
    body: "Each item goes live for its readers now. Items that cannot be published (for example, without the content:publish permission) are left as they are and say why.",
    label: "Publish",
  },
  archive: {
    title: "Archive the selected items?",
    body: "Archived items leave the site and the lists readers see. They can be restored to a draft later.",
    label: "Archive",
  },
};

/** The actions for the selected rows; shown while at least one row is selected. */
export function BulkBar({
  count,
  busy,
  categories,
  onRun,
  onClear,
}: {
  count: number;
  busy: boolean;
  categories: readonly { slug: string; label: string }[];
  onRun(action: BulkAction, value?: string): void;
  onClear(): void;
}) {
  const [confirming, setConfirming] = useState<"publish" | "archive" | null>(null);
  const [category, setCategory] = useState("");
  const [tier, setTier] = useState("");
  return (
    <Card
      role="region"
      aria-label="Bulk actions"
      className="sticky top-2 z-10 flex flex-wrap items-center gap-2 border-accent-line p-3 shadow-md"
    >
      <p className="mr-1 text-sm font-medium text-ink" aria-live="polite">
        {count} selected
      </p>
      <Button size="sm" disabled={busy} onClick={() => setConfirming("publish")}>
        <Send aria-hidden="true" className="size-3.5" />
        Publish
      </Button>
      <Button size="sm" variant="secondary" disabled={busy} onClick={() => setConfirming("archive")}>
        <Archive aria-hidden="true" className="size-3.5" />
        Archive
      </Button>
      <form
        className="flex items-center gap-1.5"
        onSubmit={(e) => {
          e.preventDefault();
          if (category) onRun("set_category", category);
        }}
      >
        <label className="sr-only" htmlFor="bulk-category">
          New category
        </label>
        <select
          id="bulk-category"
          className={cx(selectClass, "max-w-40")}
          value={category}
          onChange={(e) => setCategory(e.target.value)}
        >
          <option value="">Change category…</option>
          {categories.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.label}
            </option>
          ))}
        </select>
        <Button size="sm" variant="secondary" type="submit" disabled={busy || !category}>
          Apply
        </Button>
      </form>
      <form
        className="flex items-center gap-1.5"
        onSubmit={(e) => {
          e.preventDefault();
          if (tier) onRun("set_tier", tier);
        }}
      >
        <label className="sr-only" htmlFor="bulk-tier">
          New plan
        </label>
        <select id="bulk-tier" className={selectClass} value={tier} onChange={(e) => setTier(e.target.value)}>
          <option value="">Change plan…</option>
          {TIERS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <Button size="sm" variant="secondary" type="submit" disabled={busy || !tier}>
          Apply
        </Button>
      </form>
      <Button size="sm" variant="ghost" disabled={busy} onClick={onClear}>
        <X aria-hidden="true" className="size-3.5" />
        Clear<span className="sr-only"> selection</span>
      </Button>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? CONFIRM[confirming].title : ""}
        confirmLabel={confirming ? `${CONFIRM[confirming].label} ${count}` : ""}
        busy={busy}
        onClose={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) onRun(confirming);
          setConfirming(null);
        }}
      >
        {confirming ? CONFIRM[confirming].body : null}
      </ConfirmDialog>
    </Card>
  );
}
