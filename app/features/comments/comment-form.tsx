import { type FormEvent, useId, useRef, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { ApiError } from "../../lib/api.ts";
import { COMMENT_BODY_LIMIT, type CommentView, commentsApi, newRequestKey } from "./comments-api.ts";

/**
 * The write form of the comments section: a new comment, a reply, or an edit of one's own. One
 * request key per submission round, so a double click or a retry after a lost answer posts once.
 */
export function CommentForm({
  contentId,
  parentCommentId,
  editing,
  label,
  submitLabel,
  autoFocus,
  onDone,
  onCancel,
}: {
  contentId: string;
  parentCommentId?: string;
  /** Edit this comment (its body) instead of creating one. */
  editing?: CommentView;
  label: string;
  submitLabel: string;
  autoFocus?: boolean;
  onDone: (comment: CommentView) => void;
  onCancel?: () => void;
}) {
  const [body, setBody] = useState(editing?.body ?? "");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const requestKey = useRef(newRequestKey());
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const length = body.trim().length;
  const tooLong = length > COMMENT_BODY_LIMIT;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    if (length === 0) {
      setError("Write something first.");
      return;
    }
    if (tooLong) {
      setError(`Keep it under ${COMMENT_BODY_LIMIT} characters.`);
      return;
    }
    setPending(true);
    setError(null);
    try {
      const { comment } = editing
        ? await commentsApi.edit(editing.id, body)
        : await commentsApi.create(contentId, {
            body,
            requestKey: requestKey.current,
            ...(parentCommentId ? { parentCommentId } : {}),
          });
      requestKey.current = newRequestKey();
      setBody("");
      onDone(comment);
    } catch (e) {
      setError(e instanceof ApiError ? (e.field.body ?? e.message) : "Something went wrong. Try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-2" noValidate>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <textarea
        id={id}
        value={body}
        onChange={(e) => {
          setBody(e.target.value);
          if (error) setError(null);
        }}
        rows={parentCommentId || editing ? 3 : 4}
        placeholder={label}
        // biome-ignore lint/a11y/noAutofocus: opened on purpose by the reader's click (reply / edit)
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${hintId} ${errorId}`}
        className={cx(
          "w-full rounded-lg border border-line-strong bg-elevated px-3 py-2 text-sm text-ink placeholder:text-ink-subtle",
          "focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30",
          "aria-invalid:border-danger-text",
        )}
      />
      <p
        id={errorId}
        aria-live="polite"
        role={error ? "alert" : undefined}
        className={cx("text-sm text-danger-text", !error && "sr-only")}
      >
        {error ?? ""}
      </p>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={hintId} className="text-xs text-ink-subtle">
          Markdown: **bold**, *italic*, `code`, [links](https://…), lists and &gt; quotes.{" "}
          <span className={cx(tooLong && "font-medium text-danger-text")}>
            {length.toLocaleString("en-US")} / {COMMENT_BODY_LIMIT.toLocaleString("en-US")}
          </span>
        </p>
        <div className="flex gap-2">
          {onCancel ? (
            <Button variant="ghost" size="sm" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" size="sm" disabled={pending} aria-busy={pending}>
            {pending ? (editing ? "Saving…" : "Posting…") : submitLabel}
          </Button>
        </div>
      </div>
    </form>
  );
}
