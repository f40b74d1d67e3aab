import { Bookmark } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { api } from "../../lib/api.ts";
import { runOptimistic } from "./optimistic.ts";
import { useHydrated } from "./use-hydrated.ts";

export interface BookmarkButtonProps {
  contentId: string;
  saved: boolean;
  signedIn: boolean;
  signInHref: string;
  /** The reader's own Save state is still being fetched (an audience page): shown disabled. */
  pending?: boolean;
}

export const sendBookmark = (contentId: string, saved: boolean) => {
  const path = `/api/bookmarks/${encodeURIComponent(contentId)}`;
  type Answer = { contentId: string; saved: boolean };
  return saved ? api.put<Answer>(path) : api.delete<Answer>(path);
};

/**
 * Save for later (PUT/DELETE /api/bookmarks/:id). Optimistic: the button flips at once and rolls
 * back with a toast when the server refuses. Visitors get a 'Sign in to save' link.
 */
export function BookmarkButton({
  contentId,
  saved,
  signedIn,
  signInHref,
  pending = false,
}: BookmarkButtonProps) {
  const hydrated = useHydrated();
  const [state, setState] = useState(saved);
  const busy = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: contentId resets the state on navigation
  useEffect(() => {
    setState(saved);
  }, [contentId, saved]);

  if (!signedIn) {
    return (
      <Link to={signInHref} className={buttonClass("secondary", "sm")}>
        <Bookmark aria-hidden="true" className="size-4" />
        <span className="text-ink-muted">Sign in to save</span>
      </Link>
    );
  }

  const toggle = async () => {
    if (busy.current) return;
    busy.current = true;
    const before = state;
    await runOptimistic({
      before,
      optimistic: !before,
      send: () => sendBookmark(contentId, !before),
      settle: (answer) => answer.saved,
      set: setState,
      onError: (message) =>
        showToast(before ? "The item was not removed from your saved items" : "The item was not saved", {
          description: message,
        }),
    });
    busy.current = false;
  };

  return (
    <button
      type="button"
      aria-pressed={state}
      aria-busy={pending || undefined}
      disabled={!hydrated || pending}
      onClick={() => void toggle()}
      className={cx(
        buttonClass("secondary", "sm"),
        state && "border-accent-line bg-accent-soft text-accent-text hover:bg-accent-soft",
      )}
    >
      <Bookmark aria-hidden="true" className={cx("size-4", state && "fill-current")} />
      <span>{state ? "Saved" : "Save"}</span>
    </button>
  );
}
