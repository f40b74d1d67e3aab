/**
 * Freshness on a content page (decision 038): "Last reviewed <date>" in the meta line, and a
 * "May be out of date" badge once the item's effective review-by date has passed.
 *
 * The page is cached (the page cache for visitors, the per-audience read cache, both bounded to
 * 30 s and dropped on every content change), so staleness must not depend on a write: the server
 * renders the badge from `item.stale` as of the render, and the browser decides again from the
 * review-by date in the page once it runs (and again at the moment the date passes while the page
 * stays open). A page served from the cache a few seconds before the date shows the badge as soon
 * as it has loaded.
 */
import { TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import type { ContentSummary } from "../../../server/services.ts";
import { formatDate } from "../../lib/format.ts";
import { useHydrated } from "./use-hydrated.ts";

/** The longest delay a browser timer takes (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/** Whether the item is stale: the server's answer until hydration, the browser's clock after. */
export function useStale(item: Pick<ContentSummary, "stale" | "reviewBy">): boolean {
  const hydrated = useHydrated();
  const due = item.reviewBy ? Date.parse(item.reviewBy) : Number.NaN;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!Number.isFinite(due)) return;
    const wait = due - Date.now();
    if (wait <= 0 || wait > MAX_TIMER_MS) return;
    const timer = setTimeout(() => setNow(Date.now()), wait + 50);
    return () => clearTimeout(timer);
  }, [due]);
  if (!hydrated) return item.stale;
  return Number.isFinite(due) && due <= Math.max(now, Date.now());
}

/** "Last reviewed Mar 4, 2026" for the meta line; nothing for an item never reviewed. */
export function LastReviewed({ item }: { item: Pick<ContentSummary, "lastReviewedAt"> }) {
  const date = formatDate(item.lastReviewedAt);
  if (!date || !item.lastReviewedAt) return null;
  return (
    <span data-testid="last-reviewed">
      Last reviewed <time dateTime={item.lastReviewedAt}>{date}</time>
    </span>
  );
}

/** The stale badge, with the date the review was due. */
export function StaleBadge({ item }: { item: Pick<ContentSummary, "stale" | "reviewBy"> }) {
  const stale = useStale(item);
  const due = formatDate(item.reviewBy);
  if (!stale || !due || !item.reviewBy) return null;
  return (
    <p
      data-testid="stale-badge"
      className="mt-4 inline-flex max-w-full items-center gap-2 rounded-lg border border-warn-line bg-warn-soft px-3 py-1.5 text-sm text-ink"
    >
      <TriangleAlert aria-hidden="true" className="size-4 shrink-0 text-warn-text" />
      <span>
        <span className="font-medium">May be out of date</span>
        <span className="text-ink-muted">
          {" "}
          · review was due <time dateTime={item.reviewBy}>{due}</time>
        </span>
      </span>
    </p>
  );
}
