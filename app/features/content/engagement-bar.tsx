import { Eye, Heart } from "lucide-react";
import { useEffect } from "react";
import { useLocation } from "react-router";
import { signInUrl } from "../../../core/index.ts";
import type { PageEngagement } from "../../../server/modules/engagement/engagement.schemas.ts";
import { BookmarkButton } from "./bookmark-button.tsx";
import { formatViews, sendViewBeacon } from "./engagement-client.ts";
import { LikeButton } from "./like-button.tsx";
import { useReadingBeacon } from "./reading-beacon.ts";
import { ShareMenu } from "./share-menu.tsx";

/** Counts the view once the page runs in the browser (again for each item navigated to). */
export function useViewBeacon(contentId: string, enabled = true): void {
  useEffect(() => {
    if (enabled) sendViewBeacon(contentId);
  }, [contentId, enabled]);
}

/** "1,234 views" for the metadata line. */
export function ViewCount({ engagement }: { engagement: PageEngagement | null | undefined }) {
  if (!engagement) return null;
  return (
    <span className="inline-flex items-center gap-1">
      <Eye aria-hidden="true" className="size-3.5" />
      {formatViews(engagement.viewCount)}
    </span>
  );
}

export interface EngagementBarProps {
  contentId: string;
  title: string;
  /** The absolute URL to share. */
  url: string;
  engagement: PageEngagement | null | undefined;
  signedIn: boolean;
  /** The reader may not read the item: likes are shown, not offered (the server refuses them). */
  locked?: boolean;
}

/** Like and share, under the content header. */
export function EngagementBar({
  contentId,
  title,
  url,
  engagement,
  signedIn,
  locked = false,
}: EngagementBarProps) {
  const location = useLocation();
  // `saved` is set only for a signed-in reader's own view (not for visitors or a writer's preview);
  // an audience page's is on its way (`deferred`).
  const pending = engagement?.deferred === true;
  const personal = signedIn && (typeof engagement?.saved === "boolean" || pending);
  useReadingBeacon(contentId, personal && !locked);
  if (!engagement) return null;
  return (
    <div className="mt-5 flex flex-wrap items-center gap-2">
      {locked ? (
        <span className="inline-flex items-center gap-1.5 px-1 text-sm text-ink-muted">
          <Heart aria-hidden="true" className="size-4" />
          {engagement.likeCount.toLocaleString("en-US")}
          <span className="sr-only"> likes</span>
        </span>
      ) : (
        <LikeButton
          contentId={contentId}
          liked={engagement.liked === true}
          count={engagement.likeCount}
          signedIn={signedIn}
          signInHref={signInUrl(location.pathname)}
          pending={pending}
        />
      )}
      {locked && signedIn ? null : (
        <BookmarkButton
          contentId={contentId}
          saved={engagement.saved === true}
          signedIn={signedIn}
          signInHref={signInUrl(location.pathname)}
          pending={pending}
        />
      )}
      <ShareMenu
        contentId={contentId}
        url={url}
        title={title}
        count={engagement.shareCount}
        signedIn={signedIn}
      />
    </div>
  );
}
