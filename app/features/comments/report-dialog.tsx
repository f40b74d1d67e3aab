import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { ApiError } from "../../lib/api.ts";
import { commentsApi, REPORT_REASONS } from "./comments-api.ts";

/** The small "Report comment" dialog (native <dialog>): a reason and an optional note. */
export function ReportDialog({
  commentId,
  open,
  onClose,
  onReported,
}: {
  commentId: string;
  open: boolean;
  onClose: () => void;
  onReported: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState<string>("spam");
  const [note, setNote] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const noteId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await commentsApi.report(commentId, reason, note);
      onReported();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Something went wrong. Try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-line bg-elevated p-0 text-ink shadow-xl backdrop:bg-black/50"
    >
      <form onSubmit={submit} className="space-y-4 p-5">
        <h2 id={titleId} className="text-base font-semibold">
          Report comment
        </h2>
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm text-ink-muted">What is wrong with it?</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r.value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="reason"
                value={r.value}
                checked={reason === r.value}
                onChange={() => setReason(r.value)}
                className="accent-[var(--color-accent)]"
              />
              {r.label}
            </label>
          ))}
        </fieldset>
        <div>
          <label htmlFor={noteId} className="mb-1 block text-sm text-ink-muted">
            Note for the moderators (optional)
          </label>
          <textarea
            id={noteId}
            value={note}
            maxLength={500}
            rows={2}
            onChange={(e) => setNote(e.target.value)}
            className="w-full rounded-lg border border-line-strong bg-elevated px-3 py-2 text-sm text-ink focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30"
          />
        </div>
        <p aria-live="polite" className="text-sm text-danger-text">
          {error ?? ""}
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" size="sm" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" size="sm" disabled={pending}>
            {pending ? "Sending…" : "Report"}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
