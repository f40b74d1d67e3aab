import { MessageSquare } from "lucide-react";
import { useCallback, useEffect, useId, useState } from "react";
import { Link, useLocation, useRevalidator } from "react-router";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { ApiError } from "../../lib/api.ts";
import { CommentForm } from "./comment-form.tsx";
import { CommentItem } from "./comment-item.tsx";
import {
  type CommentSort,
  type CommentThreadPage,
  type CommentView,
  commentsApi,
  SORT_LABELS,
} from "./comments-api.ts";

type Loaded = Omit<CommentThreadPage, "items">;

/**
 * The comments of a content page (issue 15), below the item. Mounted by the content routes for
 * items whose body the reader may read (`readable`); the server decides again on every call, so
 * a gated item (403), comments turned off (404) or any failure to load shows nothing at all.
 * Visitors see the count and an invitation to sign in.
 *
 * A 403 here means the page is older than the reader's access: it was rendered while they could
 * read the item, and their plan has ended (or a role was taken away) since. The comments load
 * after the page (deferred-comments.tsx), so this is where it shows first: the section hides and
 * the page's data is loaded again, which brings the paywall the server now answers with.
 */
export function CommentsSection({ contentId, readable }: { contentId: string; readable: boolean }) {
  const location = useLocation();
  const [sort, setSort] = useState<CommentSort>("oldest");
  const [items, setItems] = useState<CommentView[]>([]);
  const [meta, setMeta] = useState<Loaded | null>(null);
  const [hidden, setHidden] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const sortId = useId();
  const headingId = useId();
  const { revalidate } = useRevalidator();

  const load = useCallback(
    async (nextSort: CommentSort, cursor?: string) => {
      setLoading(true);
      setLoadError(null);
      try {
        const page = await commentsApi.threads(contentId, nextSort, cursor);
        const { items: pageItems, ...rest } = page;
        setItems((prev) => (cursor ? [...prev, ...pageItems] : pageItems));
        setMeta(rest);
      } catch (e) {
        if (e instanceof ApiError && (e.status === 403 || e.status === 404 || e.status === 401)) {
          setHidden(true);
          // The reader lost access since the page was rendered: show the page as it is now.
          if (e.status === 403) void revalidate();
        } else setLoadError(e instanceof ApiError ? e.message : "Could not load the comments.");
      } finally {
        setLoading(false);
      }
    },
    [contentId, revalidate],
  );

  useEffect(() => {
    if (readable) void load(sort);
  }, [readable, sort, load]);

  if (!readable || hidden) return null;

  const total = meta?.total ?? 0;
  const heading = meta ? `${total === 1 ? "1 comment" : `${total} comments`}` : "Comments";
  const redirect = encodeURIComponent(`${location.pathname}${location.search}`);

  return (
    <section
      aria-labelledby={headingId}
      className="mt-12 max-w-3xl border-t border-line pt-8"
      data-testid="comments"
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-ink">
          <MessageSquare aria-hidden="true" className="size-5 text-ink-muted" />
          {heading}
        </h2>
        {meta && !meta.signInRequired && items.length > 1 ? (
          <div className="flex items-center gap-2 text-sm">
            <label htmlFor={sortId} className="text-ink-muted">
              Sort
            </label>
            <select
              id={sortId}
              value={sort}
              onChange={(e) => setSort(e.target.value as CommentSort)}
              className="h-8 rounded-lg border border-line-strong bg-elevated px-2 text-sm text-ink"
            >
              {(Object.keys(SORT_LABELS) as CommentSort[]).map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>

      {meta?.signInRequired ? (
        <div className="rounded-xl border border-line bg-sunken/50 p-5 text-sm text-ink-muted">
          <p className="mb-3">Readers discuss this item here.</p>
          <Link to={`/auth/signin?redirect=${redirect}`} className={buttonClass("primary", "sm")}>
            Sign in to join the discussion
          </Link>
        </div>
      ) : null}

      {meta?.canComment ? (
        <div className="mb-6">
          <CommentForm
            contentId={contentId}
            label="Add to the discussion"
            submitLabel="Post comment"
            onDone={(created) => {
              setItems((prev) => (sort === "newest" ? [created, ...prev] : [...prev, created]));
              if (created.status === "published") setMeta((m) => (m ? { ...m, total: m.total + 1 } : m));
            }}
          />
        </div>
      ) : meta && !meta.signInRequired ? (
        <p className="mb-6 rounded-lg border border-line bg-sunken/50 p-3 text-sm text-ink-muted">
          You can no longer comment on this site.
        </p>
      ) : null}

      <p aria-live="polite" className="text-sm text-danger-text">
        {loadError ?? ""}
      </p>
      {loadError ? (
        <Button variant="secondary" size="sm" onClick={() => load(sort)}>
          Try again
        </Button>
      ) : null}

      {meta && !meta.signInRequired && items.length === 0 && !loading && !loadError ? (
        <p className="py-6 text-center text-sm text-ink-muted">No comments yet. Start the discussion.</p>
      ) : null}

      {items.length > 0 ? (
        <ul className="divide-y divide-line" aria-label="Comments">
          {items.map((c) => (
            <CommentItem
              key={c.id}
              comment={c}
              canComment={meta?.canComment ?? false}
              onRemoved={(id, tombstone) => {
                if (!tombstone) setItems((prev) => prev.filter((x) => x.id !== id));
                if (!tombstone && c.status === "published")
                  setMeta((m) => (m ? { ...m, total: Math.max(0, m.total - 1) } : m));
              }}
            />
          ))}
        </ul>
      ) : null}

      {meta?.nextCursor ? (
        <div className="mt-4 flex justify-center">
          <Button
            variant="secondary"
            size="sm"
            disabled={loading}
            onClick={() => load(sort, meta.nextCursor ?? undefined)}
          >
            {loading ? "Loading…" : "Load more comments"}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
