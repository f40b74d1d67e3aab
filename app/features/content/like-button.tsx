import { Heart } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { formatCount, sendLike } from "./engagement-client.ts";
import { type LikeState, optimisticLike, runOptimistic } from "./optimistic.ts";
import { useHydrated } from "./use-hydrated.ts";

export interface LikeButtonProps {
  contentId: string;
  liked: boolean;
  count: number;
  signedIn: boolean;
  /** Where a visitor signs in (returns to this page). */
  signInHref: string;
  /** The reader's own like is still being fetched (an audience page): shown disabled. */
  pending?: boolean;
}

function LikeCount({ count }: { count: number }) {
  return (
    <span className="tabular-nums">
      {formatCount(count)}
      <span className="sr-only">{count === 1 ? " like" : " likes"}</span>
    </span>
  );
}

/**
 * The like toggle (heart, aria-pressed, count). Optimistic: the heart and count change at once
 * and roll back with a toast when the server refuses. Visitors get a 'Sign in to like' link. Before
 * hydration (or without JavaScript) the button is shown disabled.
 */
export function LikeButton({
  contentId,
  liked,
  count,
  signedIn,
  signInHref,
  pending = false,
}: LikeButtonProps) {
  const hydrated = useHydrated();
  const [state, setState] = useState<LikeState>({ liked, count });
  const busy = useRef(false);

  // New page data (another item, or a reload): show it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: contentId resets the state on navigation
  useEffect(() => {
    setState({ liked, count });
  }, [contentId, liked, count]);

  if (!signedIn) {
    return (
      <Link to={signInHref} className={buttonClass("secondary", "sm")}>
        <Heart aria-hidden="true" className="size-4" />
        <LikeCount count={count} />
        <span className="text-ink-muted">· Sign in to like</span>
      </Link>
    );
  }

  const toggle = async () => {
    if (busy.current) return;
    busy.current = true;
    const before = state;
    await runOptimistic({
      before,
      optimistic: optimisticLike(before, !before.liked),
      send: () => sendLike(contentId, !before.liked),
      settle: (answer) => ({ liked: answer.liked, count: answer.likeCount }),
      set: setState,
      onError: (message) => showToast("Your like was not saved", { description: message }),
    });
    busy.current = false;
  };

  return (
    <button
      type="button"
      aria-pressed={state.liked}
      aria-busy={pending || undefined}
      disabled={!hydrated || pending}
      onClick={() => void toggle()}
      className={cx(
        buttonClass("secondary", "sm"),
        state.liked && "border-accent-line bg-accent-soft text-accent-text hover:bg-accent-soft",
      )}
    >
      <Heart aria-hidden="true" className={cx("size-4", state.liked && "fill-current")} />
      <span>Like</span>
      <LikeCount count={state.count} />
    </button>
  );
}
