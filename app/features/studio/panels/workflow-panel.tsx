import { CalendarClock, MessageSquareWarning } from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import type { WorkflowAction } from "../../../../core/index.ts";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { inputClass } from "../../../components/ui/fields.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { settle } from "../../../lib/api.ts";
import { LocalTime } from "./local-time.tsx";
import { StateBadge } from "./state-badge.tsx";
import { history, transition } from "./studio-calls.ts";
import type { ItemPanelProps, WorkflowEvent } from "./types.ts";
import {
  type ActionButton,
  actionButtons,
  confirmText,
  doneMessage,
  eventVerb,
  localTimeZone,
  readScheduleTime,
  toLocalInputValue,
} from "./workflow-actions.ts";

/** The newest workflow event of the item (who moved it last, and when); null until known. */
function useLastEvent(id: string, version: number): WorkflowEvent | null {
  const [event, setEvent] = useState<WorkflowEvent | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version may come with a new event
  useEffect(() => {
    const abort = new AbortController();
    history(id, abort.signal).then(
      (events) => setEvent(events[0] ?? null),
      // Who/when is extra information: the panel works without it.
      () => {},
    );
    return () => abort.abort();
  }, [id, version]);
  return event;
}

type Open = { action: WorkflowAction; need: "time" | "notes" | "confirm" } | null;

/**
 * The item's workflow state and the transitions this user may make now (the server's
 * `item.actions`). Unsaved editor changes are saved first; refusals show the server's message.
 */
export function WorkflowPanel({ item, onItemChange, hasUnsavedChanges, saveNow }: ItemPanelProps) {
  const last = useLastEvent(item.id, item.version);
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ at?: string; notes?: string }>({});
  const [done, setDone] = useState<string | null>(null);
  const [at, setAt] = useState("");
  const [notes, setNotes] = useState("");
  const headingId = useId();
  const atId = useId();
  const notesId = useId();
  const buttons = actionButtons(item.actions, item.state);

  /** Shows a refusal; a confirmation dialog closes so the message is not hidden behind it. */
  function refuse(message: string) {
    setError(message);
    setOpen((o) => (o?.need === "confirm" ? null : o));
  }

  async function run(action: WorkflowAction, extra: { at?: string; notes?: string } = {}) {
    setBusy(true);
    setError(null);
    setDone(null);
    setFieldError({});
    try {
      let version = item.version;
      if (hasUnsavedChanges) {
        const saved = await saveNow();
        if (!saved) {
          refuse(
            "Your changes could not be saved, so nothing else was done. Fix the problem shown in the editor and try again.",
          );
          return;
        }
        version = saved.version;
      }
      const result = await settle(transition(item.id, { action, version, ...extra }));
      if (!result.ok) {
        const { field, message } = result.error;
        if (field.at || field.notes) setFieldError({ at: field.at, notes: field.notes });
        refuse(message);
        return;
      }
      setOpen(null);
      setNotes("");
      setDone(doneMessage(action, result.data.item.state));
      onItemChange(result.data.item);
    } finally {
      setBusy(false);
    }
  }

  function choose(button: ActionButton) {
    setError(null);
    setFieldError({});
    if (button.need === "nothing") {
      void run(button.action);
      return;
    }
    if (button.need === "time" && !at) {
      // Offer the current schedule when rescheduling, else an hour from now.
      const current = item.state === "scheduled" && item.publishedAt ? new Date(item.publishedAt) : null;
      setAt(toLocalInputValue(current ?? new Date(Date.now() + 3_600_000)));
    }
    setOpen({ action: button.action, need: button.need });
  }

  function submitSchedule(e: FormEvent) {
    e.preventDefault();
    const read = readScheduleTime(at, new Date());
    if (!read.ok) {
      setFieldError({ at: read.error });
      return;
    }
    void run("schedule", { at: read.iso });
  }

  function submitNotes(e: FormEvent) {
    e.preventDefault();
    if (!notes.trim()) {
      setFieldError({ notes: "Say what should change: the writer sees these notes." });
      return;
    }
    void run("request_changes", { notes: notes.trim() });
  }

  const openButton = open ? buttons.find((b) => b.action === open.action) : undefined;

  return (
    <section aria-labelledby={headingId} className="min-w-0 space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-sm font-semibold text-ink">
          Workflow
        </h2>
        <StateBadge state={item.state} />
      </div>

      {item.state === "scheduled" && item.publishedAt ? (
        <p className="flex items-center gap-2 text-sm text-ink">
          <CalendarClock aria-hidden="true" className="size-4 text-accent-text" />
          <span>
            Goes live <LocalTime iso={item.publishedAt} />
          </span>
        </p>
      ) : null}

      {last ? (
        <p className="text-xs text-ink-subtle">
          {eventVerb(last.action)}
          {last.actorName ? ` by ${last.actorName}` : ""} · <LocalTime iso={last.at} />
        </p>
      ) : null}

      {item.state === "changes_requested" && item.reviewerNotes ? (
        <div
          role="note"
          className="rounded-xl border border-warn-line bg-warn-soft px-4 py-3 text-sm text-ink"
        >
          <p className="mb-1 flex items-center gap-2 font-semibold">
            <MessageSquareWarning aria-hidden="true" className="size-4 text-warn-text" />
            Changes requested by the reviewer
          </p>
          <p className="whitespace-pre-wrap">{item.reviewerNotes}</p>
        </div>
      ) : null}

      {error ? (
        <Notice tone="danger" role="alert" title="Not done">
          {error}
        </Notice>
      ) : null}
      {done ? (
        <Notice tone="ok" role="status">
          {done}
        </Notice>
      ) : null}

      {item.state === "in_review" && !item.actions.includes("approve") ? (
        <p className="text-sm text-ink-muted">
          Waiting for a reviewer: approving and publishing need the content:publish permission.
        </p>
      ) : buttons.length === 0 ? (
        <p className="text-sm text-ink-muted">No workflow step is open to you for this item now.</p>
      ) : null}
      {buttons.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {buttons.map((b) => (
            <Button
              key={b.action}
              variant={b.tone === "danger" ? "ghost" : b.tone}
              size="sm"
              title={b.explains}
              aria-expanded={b.need === "time" || b.need === "notes" ? open?.action === b.action : undefined}
              disabled={busy}
              onClick={() => choose(b)}
            >
              {b.label}
            </Button>
          ))}
        </div>
      ) : null}

      {hasUnsavedChanges && buttons.length > 0 ? (
        <p className="text-xs text-ink-subtle">Your unsaved changes are saved first.</p>
      ) : null}

      {open?.need === "time" ? (
        <form
          onSubmit={submitSchedule}
          className="space-y-2 rounded-xl border border-line bg-surface p-3"
          noValidate
        >
          <label htmlFor={atId} className="block text-sm font-medium text-ink">
            Publish at <span className="font-normal text-ink-subtle">({localTimeZone()})</span>
          </label>
          <input
            id={atId}
            type="datetime-local"
            value={at}
            min={toLocalInputValue(new Date())}
            onChange={(e) => setAt(e.target.value)}
            aria-invalid={fieldError.at ? true : undefined}
            aria-describedby={`${atId}-error`}
            className={inputClass}
            required
          />
          <p id={`${atId}-error`} aria-live="polite" className="text-xs text-danger-text">
            {fieldError.at ?? ""}
          </p>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={busy}>
              {openButton?.label ?? "Schedule"}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setOpen(null)} disabled={busy}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}

      {open?.need === "notes" ? (
        <form
          onSubmit={submitNotes}
          className="space-y-2 rounded-xl border border-line bg-surface p-3"
          noValidate
        >
          <label htmlFor={notesId} className="block text-sm font-medium text-ink">
            Reviewer notes{" "}
            <span className="font-normal text-ink-subtle">(required; the writer sees them)</span>
          </label>
          <textarea
            id={notesId}
            value={notes}
            rows={4}
            onChange={(e) => setNotes(e.target.value)}
            aria-invalid={fieldError.notes ? true : undefined}
            aria-describedby={`${notesId}-error`}
            className={`${inputClass} h-auto py-2`}
            required
          />
          <p id={`${notesId}-error`} aria-live="polite" className="text-xs text-danger-text">
            {fieldError.notes ?? ""}
          </p>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={busy}>
              Request changes
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setOpen(null)} disabled={busy}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}

      <ConfirmDialog
        open={open?.need === "confirm"}
        title={openButton ? `${openButton.label}?` : ""}
        confirmLabel={openButton?.label ?? "Confirm"}
        busy={busy}
        onConfirm={() => open && void run(open.action)}
        onClose={() => !busy && setOpen(null)}
      >
        {open ? confirmText(open.action, item.title, item.state) : null}
      </ConfirmDialog>
    </section>
  );
}
