import { Link, useNavigation } from "react-router";
import { Screen } from "../../components/screen.tsx";
import { Card } from "../../components/ui/card.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import { CommentQueue } from "../../features/moderation/comment-queue.tsx";
import { loadModeration } from "../../features/moderation/moderation.server.ts";
import { MODERATION_TABS } from "../../features/moderation/moderation-tabs.ts";
import { RestrictedUsers, ReviewQueue } from "../../features/moderation/restricted-and-review.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/moderate";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/moderate");

/** Content managers, platform admins and the owner; the moderation service checks it again. */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/moderate");
  return loadModeration(args);
}

const EMPTY_TEXT: Record<string, string> = {
  reported: "No comment has an open report. Reports from readers appear here, newest first.",
  pending: "No comment is waiting for approval. Comments held by pre-moderation appear here, oldest first.",
  hidden: "No hidden comments. Hidden comments can be restored from here.",
  all: "No comments yet.",
};

export default function Moderate({ loaderData }: Route.ComponentProps) {
  const { tab, summary, queue, restricted, review, problem, filter } = loaderData;
  const filterParam = filter
    ? `&${filter.kind === "author" ? "authorId" : "contentId"}=${encodeURIComponent(filter.id)}`
    : "";
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/moderate";
  return (
    <Screen
      path="/moderate"
      purpose="Comments readers reported or that wait for approval, hidden comments to restore, muted and banned commenters, and content waiting for review."
    >
      <nav aria-label="Moderation queues">
        <ul className="flex flex-wrap gap-1">
          {MODERATION_TABS.map((t) => {
            const count = t.count ? summary[t.count] : null;
            const active = t.id === tab;
            return (
              <li key={t.id}>
                <Link
                  to={`?tab=${t.id}`}
                  aria-current={active ? "page" : undefined}
                  className={cx(
                    "inline-flex h-9 items-center gap-2 rounded-lg px-3 text-sm font-medium",
                    active
                      ? "bg-accent-soft text-accent-text"
                      : "text-ink-muted hover:bg-sunken hover:text-ink",
                  )}
                >
                  {t.label}
                  {count !== null ? (
                    <span
                      className={cx(
                        "rounded-full px-1.5 text-xs tabular-nums",
                        count > 0 && (t.id === "reported" || t.id === "pending" || t.id === "review")
                          ? "bg-accent text-accent-ink"
                          : "bg-sunken text-ink-muted",
                      )}
                    >
                      {count}
                    </span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      <Card className={cx("p-4 transition-opacity sm:p-5", loading && "opacity-60")} aria-busy={loading}>
        {problem ? (
          <Notice tone="danger" role="alert" className="mb-3">
            {problem} <Link to={`?tab=${tab}`}>Back to the first page</Link>
          </Notice>
        ) : null}
        {filter ? (
          <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-ink-muted">
            Showing only comments {filter.kind === "author" ? "by" : "on"}{" "}
            <span className="font-medium text-ink">{filter.label}</span>
            <Link to={`?tab=${tab}`} className="text-accent-text hover:underline">
              Show all
            </Link>
          </p>
        ) : null}
        {queue ? (
          <>
            <CommentQueue
              key={`${tab}-${queue.items.map((c) => c.id).join()}`}
              page={queue}
              emptyText={EMPTY_TEXT[tab] ?? ""}
            />
            {queue.nextCursor ? (
              <div className="mt-4 flex justify-between text-sm">
                <Link to={`?tab=${tab}${filterParam}`} className="text-accent-text hover:underline">
                  First page
                </Link>
                <Link
                  to={`?tab=${tab}${filterParam}&cursor=${queue.nextCursor}`}
                  className="text-accent-text hover:underline"
                >
                  Next page
                </Link>
              </div>
            ) : null}
          </>
        ) : null}
        {restricted ? <RestrictedUsers items={restricted} /> : null}
        {review ? <ReviewQueue items={review.items} total={review.total} /> : null}
      </Card>
    </Screen>
  );
}
