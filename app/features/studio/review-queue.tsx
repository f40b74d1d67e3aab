/**
 * The review queue (`/review`, decision 038): published items due for review, the one due first
 * at the top, filtered by section with links (no JavaScript needed to filter or page), each with
 * "Mark reviewed" (POST /api/content/{id}/reviewed) for writers who may change published content.
 */
import { CalendarCheck, CircleX, ExternalLink, Pencil } from "lucide-react";
import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import type { ReviewQueueRow } from "../../../server/modules/content/freshness.service.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import { ApiError, api } from "../../lib/api.ts";
import { formatDate } from "../../lib/format.ts";
import type { ReviewQueuePage } from "./review-queue.server.ts";

const DAY_MS = 86_400_000;

/** "Overdue by 3 days" / "Due today" / "Due in 5 days", from the queue's clock. */
export function dueText(reviewBy: string, now: number): { text: string; overdue: boolean } {
  const ms = Date.parse(reviewBy) - now;
  if (ms <= 0) {
    const days = Math.floor(-ms / DAY_MS);
    return {
      text: days === 0 ? "Due today" : `Overdue by ${days} day${days === 1 ? "" : "s"}`,
      overdue: true,
    };
  }
  const days = Math.ceil(ms / DAY_MS);
  return { text: days <= 1 ? "Due tomorrow" : `Due in ${days} days`, overdue: false };
}

function sectionLink(section: string | null): string {
  return section ? `?section=${encodeURIComponent(section)}` : "?";
}

function SectionFilter({ page }: { page: ReviewQueuePage }) {
  const chips = [{ slug: null as string | null, label: "All sections" }, ...page.sections];
  return (
    <nav aria-label="Sections">
      <ul className="flex flex-wrap gap-1">
        {chips.map((chip) => {
          const active = chip.slug === page.section;
          return (
            <li key={chip.slug ?? "all"}>
              <Link
                to={sectionLink(chip.slug)}
                aria-current={active ? "page" : undefined}
                className={cx(
                  "inline-flex h-9 items-center rounded-lg px-3 text-sm font-medium",
                  active
                    ? "bg-accent-soft text-accent-text"
                    : "text-ink-muted hover:bg-sunken hover:text-ink",
                )}
              >
                {chip.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function DueBadge({ row, now }: { row: ReviewQueueRow; now: number }) {
  const due = dueText(row.reviewBy, now);
  return (
    <span
      className={cx(
        "inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium",
        due.overdue ? "border-warn-line bg-warn-soft text-warn-text" : "border-line bg-sunken text-ink-muted",
      )}
    >
      {due.text}
    </span>
  );
}

interface RowProps {
  row: ReviewQueueRow;
  now: number;
  sectionLabel: string | null;
  canMarkReviewed: boolean;
  busy: boolean;
  error: string | null;
  onMark(row: ReviewQueueRow): void;
}

function QueueRow({ row, now, sectionLabel, canMarkReviewed, busy, error, onMark }: RowProps) {
  const due = formatDate(row.reviewBy);
  const reviewed = formatDate(row.lastReviewedAt);
  return (
    <li data-testid="review-row" data-id={row.id}>
      <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <Link
              to={`/content/${encodeURIComponent(row.id)}/edit`}
              className="min-w-0 break-words font-medium text-ink hover:text-accent-text hover:underline"
            >
              {row.title}
            </Link>
            <DueBadge row={row} now={now} />
          </div>
          <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-ink-muted">
            {sectionLabel ? <span>{sectionLabel}</span> : null}
            <span>
              Review by <time dateTime={row.reviewBy}>{due}</time>
              {row.ownReviewBy ? " (set on the item)" : " (section default)"}
            </span>
            <span>
              {reviewed
                ? `Last reviewed ${reviewed}${row.lastReviewedByName ? ` by ${row.lastReviewedByName}` : ""}`
                : `Published ${formatDate(row.publishedAt) ?? "—"}, not reviewed since`}
            </span>
          </p>
          {error ? (
            <p className="flex items-start gap-1 text-xs font-medium text-danger-text" role="alert">
              <CircleX aria-hidden="true" className="mt-px size-3.5 shrink-0" />
              {error}
            </p>
          ) : null}
          <p className="flex flex-wrap items-center gap-3 pt-0.5">
            <Link
              to={`/content/${encodeURIComponent(row.id)}/edit`}
              className="inline-flex items-center gap-1 text-sm font-medium text-accent-text hover:underline"
            >
              <Pencil aria-hidden="true" className="size-3.5" />
              Edit<span className="sr-only"> {row.title}</span>
            </Link>
            <Link
              to={`/content/${encodeURIComponent(row.slug)}`}
              className="inline-flex items-center gap-1 text-sm text-ink-muted hover:text-ink hover:underline"
            >
              <ExternalLink aria-hidden="true" className="size-3.5" />
              View<span className="sr-only"> {row.title}</span>
            </Link>
          </p>
        </div>
        {canMarkReviewed ? (
          <Button
            variant="secondary"
            size="sm"
            className="shrink-0 self-start"
            disabled={busy}
            onClick={() => onMark(row)}
          >
            <CalendarCheck aria-hidden="true" className="size-4" />
            {busy ? "Marking…" : "Mark reviewed"}
            <span className="sr-only"> {row.title}</span>
          </Button>
        ) : null}
      </Card>
    </li>
  );
}

export function ReviewQueueView({ page }: { page: ReviewQueuePage }) {
  const { queue } = page;
  const now = Date.parse(queue.now);
  const revalidator = useRevalidator();
  const [done, setDone] = useState<Array<{ id: string; title: string; next: string | null }>>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const labelOf = new Map(page.sections.map((s) => [s.slug, s.label]));
  const doneIds = new Set(done.map((d) => d.id));
  const rows = queue.items.filter((r) => !doneIds.has(r.id));
  // Marked here but still in the loaded page (until the revalidated page arrives without them).
  const remaining = queue.total - (queue.items.length - rows.length);
  const last = done.at(-1);

  async function mark(row: ReviewQueueRow) {
    setBusy(row.id);
    setErrors(({ [row.id]: _, ...rest }) => rest);
    try {
      const { reviewed } = await api.post<{ reviewed: { reviewBy: string | null } }>(
        `/api/content/${encodeURIComponent(row.id)}/reviewed`,
      );
      setDone((list) => [...list, { id: row.id, title: row.title, next: reviewed.reviewBy }]);
      revalidator.revalidate();
    } catch (error) {
      const message = error instanceof ApiError ? error.message : "The item could not be marked reviewed.";
      setErrors((e) => ({ ...e, [row.id]: message }));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="space-y-4">
      <SectionFilter page={page} />
      {page.notices.map((n) => (
        <Notice key={n} tone="info">
          {n}
        </Notice>
      ))}
      {!page.canMarkReviewed ? (
        <Notice tone="info">
          Marking published items reviewed needs the publish permission (editors, content managers and
          administrators). You can still open each item and suggest changes.
        </Notice>
      ) : null}
      <p className="text-sm text-ink-muted" aria-live="polite">
        {last ? (
          <span data-testid="review-done" className="text-ok-text">
            Marked “{last.title}” reviewed
            {last.next ? `; next review by ${formatDate(last.next)}` : ""}.{" "}
          </span>
        ) : null}
        {`${Math.max(0, remaining)} item${remaining === 1 ? "" : "s"} due within ${queue.horizonDays} days`}
        {page.section ? ` in ${labelOf.get(page.section) ?? page.section}` : ""}.
      </p>
      {rows.length === 0 ? (
        <Card className="p-6 text-center text-sm text-ink-muted">
          Nothing is due for review{page.section ? " in this section" : ""}. Items join this list{" "}
          {queue.horizonDays} days before their review-by date.
        </Card>
      ) : (
        <ul className="space-y-3" aria-label="Items due for review">
          {rows.map((row) => (
            <QueueRow
              key={row.id}
              row={row}
              now={now}
              sectionLabel={row.section ? (labelOf.get(row.section) ?? row.section) : null}
              canMarkReviewed={page.canMarkReviewed}
              busy={busy === row.id}
              error={errors[row.id] ?? null}
              onMark={mark}
            />
          ))}
        </ul>
      )}
      {queue.nextCursor || page.cursor ? (
        <div className="flex justify-between text-sm">
          {page.cursor ? (
            <Link to={sectionLink(page.section)} className="text-accent-text hover:underline">
              First page
            </Link>
          ) : (
            <span />
          )}
          {queue.nextCursor ? (
            <Link
              to={`${sectionLink(page.section)}${page.section ? "&" : ""}cursor=${queue.nextCursor}`}
              className="text-accent-text hover:underline"
            >
              Next page
            </Link>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
