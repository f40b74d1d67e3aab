import { Flag, Heart, MessageSquare, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { cx } from "../../components/ui/cx.ts";
import { ApiError } from "../../lib/api.ts";
import { formatDate } from "../../lib/format.ts";
import { CommentForm } from "./comment-form.tsx";
import { type CommentView, commentsApi } from "./comments-api.ts";
import { ReportDialog } from "./report-dialog.tsx";

const actionClass =
  "inline-flex items-center gap-1 rounded px-1.5 py-1 text-xs font-medium text-ink-muted hover:bg-sunken hover:text-ink " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus disabled:opacity-60";

const bodyClass =
  "mt-1 space-y-2 break-words text-sm leading-6 text-ink [&_a]:text-accent [&_a]:underline " +
  "[&_blockquote]:border-l-2 [&_blockquote]:border-line-strong [&_blockquote]:pl-3 [&_blockquote]:text-ink-muted " +
  "[&_code]:rounded [&_code]:bg-sunken [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-[0.85em] " +
  "[&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-sunken [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0 " +
  "[&_ul]:list-disc [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:pl-5";

/** One comment with its actions; a top-level one also holds its replies (expandable, paged). */
export function CommentItem({
  comment: initial,
  canComment,
  onRemoved,
}: {
  comment: CommentView;
  canComment: boolean;
  onRemoved: (id: string, tombstone: boolean) => void;
}) {
  const [comment, setComment] = useState(initial);
  const [mode, setMode] = useState<"view" | "edit" | "reply">("view");
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [replies, setReplies] = useState<CommentView[] | null>(null);
  const [repliesCursor, setRepliesCursor] = useState<string | null>(null);
  const [repliesOpen, setRepliesOpen] = useState(false);
  const isTop = comment.parentCommentId === null;
  const pending = comment.status === "pending";

  async function loadReplies(cursor?: string) {
    setBusy(true);
    try {
      const page = await commentsApi.replies(comment.id, cursor);
      setReplies((prev) => [...(cursor ? (prev ?? []) : []), ...page.items]);
      setRepliesCursor(page.nextCursor);
      setRepliesOpen(true);
    } catch (e) {
      setNotice(e instanceof ApiError ? e.message : "Could not load the replies.");
    } finally {
      setBusy(false);
    }
  }

  async function toggleLike() {
    const next = !comment.likedByMe;
    try {
      const result = await commentsApi.like(comment.id, next);
      setComment((c) => ({ ...c, likedByMe: result.liked, likeCount: result.likeCount }));
    } catch (e) {
      setNotice(e instanceof ApiError ? e.message : "Could not save your like.");
    }
  }

  async function remove() {
    setBusy(true);
    try {
      const result = await commentsApi.remove(comment.id);
      setConfirmDelete(false);
      if (result.tombstone) setComment((c) => ({ ...c, deleted: true, body: "", bodyHtml: "", mine: false }));
      onRemoved(comment.id, result.tombstone);
    } catch (e) {
      setNotice(e instanceof ApiError ? e.message : "Could not delete the comment.");
      setConfirmDelete(false);
    } finally {
      setBusy(false);
    }
  }

  const replyCount = Math.max(comment.replyCount, replies?.length ?? 0);

  return (
    <li
      className={cx("list-none", isTop ? "py-4" : "py-3")}
      data-testid="comment"
      data-comment-id={comment.id}
    >
      <article
        aria-label={comment.deleted ? "Deleted comment" : `Comment by ${comment.author?.name ?? "a reader"}`}
      >
        <header className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <span className="font-medium text-ink">
            {comment.deleted ? "[deleted]" : (comment.author?.name ?? "Former member")}
          </span>
          <time dateTime={comment.createdAt} className="text-xs text-ink-subtle">
            {formatDate(comment.createdAt)}
          </time>
          {comment.editedAt && !comment.deleted ? (
            <span className="text-xs text-ink-subtle">(edited)</span>
          ) : null}
          {pending ? (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-100">
              Awaiting review
            </span>
          ) : null}
          {comment.status === "hidden" || comment.status === "removed" ? (
            <span className="rounded-full bg-sunken px-2 py-0.5 text-xs font-medium text-ink-muted">
              {comment.status === "hidden" ? "Hidden" : "Removed"}
            </span>
          ) : null}
        </header>

        {mode === "edit" ? (
          <div className="mt-2">
            <CommentForm
              contentId={comment.contentId}
              editing={comment}
              label="Edit your comment"
              submitLabel="Save"
              autoFocus
              onDone={(updated) => {
                setComment(updated);
                setMode("view");
              }}
              onCancel={() => setMode("view")}
            />
          </div>
        ) : comment.deleted ? (
          <p className="mt-1 text-sm italic text-ink-subtle">This comment was deleted.</p>
        ) : (
          <div
            className={bodyClass}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (comment-render.ts)
            dangerouslySetInnerHTML={{ __html: comment.bodyHtml }}
          />
        )}

        {mode !== "edit" && !comment.deleted ? (
          <div className="mt-1 flex flex-wrap items-center gap-1">
            <button
              type="button"
              className={cx(actionClass, comment.likedByMe && "text-accent")}
              aria-pressed={comment.likedByMe}
              onClick={toggleLike}
              disabled={!canComment || pending}
              // The name starts with the count: the page's own like button keeps the names starting "Like".
              aria-label={`${comment.likeCount} ${comment.likeCount === 1 ? "like" : "likes"}`}
              title={comment.likedByMe ? "Unlike this comment" : "Like this comment"}
            >
              <Heart aria-hidden="true" className={cx("size-3.5", comment.likedByMe && "fill-current")} />
              {comment.likeCount}
            </button>
            {canComment && isTop && !pending ? (
              <button
                type="button"
                className={actionClass}
                onClick={() => setMode(mode === "reply" ? "view" : "reply")}
              >
                <MessageSquare aria-hidden="true" className="size-3.5" /> Reply
              </button>
            ) : null}
            {comment.mine ? (
              <>
                {comment.status !== "removed" ? (
                  <button type="button" className={actionClass} onClick={() => setMode("edit")}>
                    <Pencil aria-hidden="true" className="size-3.5" /> Edit
                  </button>
                ) : null}
                <button type="button" className={actionClass} onClick={() => setConfirmDelete(true)}>
                  <Trash2 aria-hidden="true" className="size-3.5" /> Delete
                </button>
              </>
            ) : canComment ? (
              <button type="button" className={actionClass} onClick={() => setReporting(true)}>
                <Flag aria-hidden="true" className="size-3.5" /> Report
              </button>
            ) : null}
          </div>
        ) : null}
        <p aria-live="polite" className={cx("text-xs text-ink-muted", !notice && "sr-only")}>
          {notice ?? ""}
        </p>
      </article>

      {mode === "reply" ? (
        <div className="mt-2 border-l-2 border-line pl-4">
          <CommentForm
            contentId={comment.contentId}
            parentCommentId={comment.id}
            label={`Reply to ${comment.author?.name ?? "this comment"}`}
            submitLabel="Reply"
            autoFocus
            onDone={(reply) => {
              setReplies((prev) => [...(prev ?? []), reply]);
              setRepliesOpen(true);
              if (reply.status === "published") setComment((c) => ({ ...c, replyCount: c.replyCount + 1 }));
              setMode("view");
            }}
            onCancel={() => setMode("view")}
          />
        </div>
      ) : null}

      {isTop && replyCount > 0 && !repliesOpen ? (
        <button
          type="button"
          className={cx(actionClass, "mt-1 text-accent")}
          onClick={() => loadReplies()}
          disabled={busy}
        >
          {replyCount === 1 ? "1 reply" : `${replyCount} replies`}
        </button>
      ) : null}
      {repliesOpen && replies && replies.length > 0 ? (
        <ul className="mt-1 divide-y divide-line border-l-2 border-line pl-4" aria-label="Replies">
          {replies.map((r) => (
            <CommentItem
              key={r.id}
              comment={r}
              canComment={canComment}
              onRemoved={(id, tombstone) => {
                if (!tombstone) setReplies((prev) => (prev ?? []).filter((x) => x.id !== id));
                setComment((c) => ({ ...c, replyCount: Math.max(0, c.replyCount - 1) }));
              }}
            />
          ))}
        </ul>
      ) : null}
      {repliesOpen && repliesCursor ? (
        <button
          type="button"
          className={cx(actionClass, "ml-4 mt-1")}
          onClick={() => loadReplies(repliesCursor)}
          disabled={busy}
        >
          More replies
        </button>
      ) : null}

      <ConfirmDialog
        open={confirmDelete}
        title="Delete this comment?"
        confirmLabel="Delete"
        busy={busy}
        onConfirm={remove}
        onClose={() => setConfirmDelete(false)}
      >
        {comment.replyCount > 0
          ? "Its replies stay; your comment will show as [deleted]."
          : "This cannot be undone."}
      </ConfirmDialog>
      {reporting ? (
        <ReportDialog
          commentId={comment.id}
          open={reporting}
          onClose={() => setReporting(false)}
          onReported={() => {
            setReporting(false);
            setNotice("Thanks: a moderator will look at it.");
          }}
        />
      ) : null}
    </li>
  );
}
