/**
 * A moderation queue (reported, pending, hidden, all recent): one card per comment with a
 * checkbox, select all, a bulk action bar (Approve, Hide, Remove with a confirmation, Dismiss
 * reports) with an optional reason, per-row actions and a Mute/Ban menu for the author. Cards
 * read the same at 1280 and 390 px. Bodies are shown as plain text.
 */
import { Ban, Check, EyeOff, MessageSquareOff, Trash2, UserX } from "lucide-react";
import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import type {
  ModerationAction,
  ModerationComment,
  ModerationQueuePage,
  RestrictionDuration,
  RestrictionKind,
} from "../../../server/modules/moderation/moderation.schemas.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { cx } from "../../components/ui/cx.ts";
import { inputClass } from "../../components/ui/fields.tsx";
import {
  ACTION_LABELS,
  DURATION_LABELS,
  formatTime,
  moderateComments,
  restrictCommenter,
} from "./moderation-client.ts";

const STATUS_TONE: Record<string, string> = {
  published: "bg-ok-soft text-ok-text border-ok-line",
  pending: "bg-warn-soft text-warn-text border-warn-line",
  hidden: "bg-sunken text-ink-muted border-line",
  removed: "bg-danger-soft text-danger-text border-danger-line",
};

function Badge({ className, children }: { className: string; children: React.ReactNode }) {
  return (
    <span
      className={cx(
        "inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium",
        className,
      )}
    >
      {children}
    </span>
  );
}

/** Which bulk actions make sense on a tab. */
const ACTIONS_BY_QUEUE: Record<string, ModerationAction[]> = {
  reported: ["hide", "remove", "dismiss"],
  pending: ["approve", "hide", "remove"],
  hidden: ["approve", "remove"],
  all: ["approve", "hide", "remove"],
};

const ICONS: Record<ModerationAction, typeof Check> = {
  approve: Check,
  hide: EyeOff,
  remove: Trash2,
  dismiss: MessageSquareOff,
};

export function CommentQueue({ page, emptyText }: { page: ModerationQueuePage; emptyText: string }) {
  const revalidator = useRevalidator();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState<string[] | null>(null);
  const actions = ACTIONS_BY_QUEUE[page.queue] ?? ACTIONS_BY_QUEUE.all!;
  const selectable = page.items.filter((c) => c.status !== "removed");
  const allSelected = selectable.length > 0 && selectable.every((c) => selected.has(c.id));

  function toggle(id: string) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function run(action: ModerationAction, ids: string[]) {
    if (ids.length === 0) return;
    setBusy(true);
    try {
      const out = await moderateComments(action, ids, reason);
      const failed = out.results.filter((r) => !r.ok);
      const n = out.done;
      showToast(`${n} comment${n === 1 ? "" : "s"} ${ACTION_LABELS[action].done}`, {
        description: failed.length
          ? `${failed.length} could not be changed: ${failed.map((f) => (f.ok ? "" : f.message)).join(" ")}`
          : undefined,
      });
      setSelected(new Set());
      setReason("");
      revalidator.revalidate();
    } catch (error) {
      showToast("Nothing was changed", { description: (error as Error).message });
    } finally {
      setBusy(false);
    }
  }

  const request = (action: ModerationAction, ids: string[]) =>
    action === "remove" ? setConfirmRemove(ids) : void run(action, ids);

  if (page.items.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-line px-4 py-10 text-center">
        <p className="font-medium text-ink">Nothing to review</p>
        <p className="mt-1 text-sm text-ink-muted">{emptyText}</p>
      </div>
    );
  }

  return (
    <div className="space-y-3">
      <div
        className={cx(
          "sticky top-2 z-10 flex flex-wrap items-center gap-2 rounded-lg border border-line bg-elevated p-2 shadow-sm",
          selected.size === 0 && "bg-sunken",
        )}
      >
        <label className="flex items-center gap-2 px-1 text-sm text-ink">
          <input
            type="checkbox"
            className="size-4 accent-[var(--color-accent)]"
            checked={allSelected}
            onChange={() => setSelected(allSelected ? new Set() : new Set(selectable.map((c) => c.id)))}
            aria-label="Select all comments on this page"
          />
          {selected.size ? `${selected.size} selected` : "Select all"}
        </label>
        {selected.size > 0 ? (
          <>
            <input
              className={cx(inputClass, "h-8 min-w-0 flex-1 basis-40 text-sm")}
              placeholder="Reason (optional)"
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              aria-label="Reason for the selected comments (optional)"
            />
            <div className="flex flex-wrap gap-2">
              {actions.map((action) => {
                const Icon = ICONS[action];
                return (
                  <Button
                    key={action}
                    size="sm"
                    variant={action === "remove" ? "danger" : "secondary"}
                    disabled={busy}
                    onClick={() => request(action, [...selected])}
                  >
                    <Icon className="size-4" aria-hidden />
                    {ACTION_LABELS[action].verb}
                  </Button>
                );
              })}
            </div>
          </>
        ) : null}
      </div>

      <ul className="space-y-3" aria-busy={busy || revalidator.state === "loading"}>
        {page.items.map((c) => (
          <CommentCard
            key={c.id}
            comment={c}
            queue={page.queue}
            actions={actions}
            selected={selected.has(c.id)}
            busy={busy}
            onToggle={() => toggle(c.id)}
            onAction={(action) => request(action, [c.id])}
            onRestricted={() => revalidator.revalidate()}
          />
        ))}
      </ul>

      <ConfirmDialog
        open={confirmRemove !== null}
        title={`Remove ${confirmRemove?.length ?? 0} comment${confirmRemove?.length === 1 ? "" : "s"}?`}
        confirmLabel="Remove"
        busy={busy}
        onClose={() => setConfirmRemove(null)}
        onConfirm={() => {
          const ids = confirmRemove ?? [];
          setConfirmRemove(null);
          void run("remove", ids);
        }}
      >
        Removed comments disappear for everyone and cannot be restored. The text is kept for the audit log
        only.
      </ConfirmDialog>
    </div>
  );
}

function CommentCard({
  comment: c,
  queue,
  actions,
  selected,
  busy,
  onToggle,
  onAction,
  onRestricted,
}: {
  comment: ModerationComment;
  queue: string;
  actions: ModerationAction[];
  selected: boolean;
  busy: boolean;
  onToggle: () => void;
  onAction: (action: ModerationAction) => void;
  onRestricted: () => void;
}) {
  const removed = c.status === "removed";
  return (
    <li
      className={cx(
        "rounded-lg border bg-elevated p-4",
        selected ? "border-accent-line ring-1 ring-accent-line" : "border-line",
      )}
      data-testid="moderation-comment"
      data-comment-id={c.id}
      data-content-id={c.item.id}
    >
      <div className="flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 size-4 shrink-0 accent-[var(--color-accent)]"
          checked={selected}
          disabled={removed}
          onChange={onToggle}
          aria-label={`Select the comment by ${c.author?.name ?? "a deleted account"}`}
        />
        <div className="min-w-0 flex-1 space-y-2">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            <span className="font-medium text-ink">{c.author?.name ?? "Deleted account"}</span>
            {c.author?.email ? <span className="break-all text-ink-muted">{c.author.email}</span> : null}
            {c.author?.restriction ? (
              <Badge className="border-danger-line bg-danger-soft text-danger-text">
                {c.author.restriction.kind === "banned" ? "Banned" : "Muted"}
                {c.author.restriction.until ? ` until ${formatTime(c.author.restriction.until)}` : ""}
              </Badge>
            ) : null}
            <Badge className={STATUS_TONE[c.status] ?? STATUS_TONE.hidden!}>{c.status}</Badge>
            {c.author ? (
              <Link
                to={`?tab=${queue}&authorId=${encodeURIComponent(c.author.id)}`}
                className="text-xs text-ink-subtle underline-offset-2 hover:text-ink hover:underline"
              >
                Only this author
              </Link>
            ) : null}
          </div>
          <p className="text-xs text-ink-subtle">
            On{" "}
            <Link to={c.item.url} className="font-medium text-accent-text hover:underline">
              {c.item.title}
            </Link>{" "}
            ·{" "}
            <Link
              to={`?tab=${queue}&contentId=${encodeURIComponent(c.item.id)}`}
              className="underline-offset-2 hover:text-ink hover:underline"
            >
              only this item
            </Link>{" "}
            · {formatTime(c.createdAt)}
            {c.parentCommentId ? " · reply" : ""}
            {c.moderatedAt
              ? ` · moderated ${formatTime(c.moderatedAt)}${c.moderatedByName ? ` by ${c.moderatedByName}` : ""}`
              : ""}
          </p>
          {removed ? (
            <p className="text-sm italic text-ink-muted">Removed: the text is kept for the audit log only.</p>
          ) : (
            <p className="line-clamp-6 whitespace-pre-wrap break-words text-sm text-ink">{c.body}</p>
          )}
          {c.moderationReason ? <p className="text-xs text-ink-muted">Reason: {c.moderationReason}</p> : null}
          {c.reports.reasons.length > 0 ? (
            <div className="flex flex-wrap items-center gap-1.5 text-xs">
              <span className="text-ink-muted">
                {c.reportCount} open report{c.reportCount === 1 ? "" : "s"}
                {c.reports.latestAt ? `, latest ${formatTime(c.reports.latestAt)}` : ""}:
              </span>
              {c.reports.reasons.map((r) => (
                <Badge key={r.reason} className="border-warn-line bg-warn-soft text-warn-text">
                  {r.reason} × {r.count}
                </Badge>
              ))}
              {c.reports.notes.map((note) => (
                <q key={note} className="text-ink-muted">
                  {note}
                </q>
              ))}
            </div>
          ) : null}
          {!removed ? (
            <div className="flex flex-wrap items-center gap-2 pt-1">
              {actions.map((action) => {
                const Icon = ICONS[action];
                return (
                  <Button
                    key={action}
                    size="sm"
                    variant={action === "remove" ? "danger" : "secondary"}
                    disabled={busy}
                    onClick={() => onAction(action)}
                  >
                    <Icon className="size-4" aria-hidden />
                    {ACTION_LABELS[action].verb}
                  </Button>
                );
              })}
              {c.author && !c.author.staff ? (
                <RestrictMenu userId={c.author.id} name={c.author.name} onDone={onRestricted} />
              ) : null}
            </div>
          ) : null}
        </div>
      </div>
    </li>
  );
}

const DURATIONS: RestrictionDuration[] = ["1d", "7d", "30d", "permanent"];

/** Mute or ban the author: a disclosure with the kind, the duration, a reason and "hide all". */
export function RestrictMenu({ userId, name, onDone }: { userId: string; name: string; onDone: () => void }) {
  const [kind, setKind] = useState<RestrictionKind>("muted");
  const [duration, setDuration] = useState<RestrictionDuration>("7d");
  const [reason, setReason] = useState("");
  const [hideAll, setHideAll] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const details = event.currentTarget.closest("details");
    setBusy(true);
    try {
      const out = await restrictCommenter({
        userId,
        kind,
        duration,
        reason,
        hideComments: kind === "banned" && hideAll,
      });
      showToast(
        `${name} ${kind === "banned" ? "banned" : "muted"} (${DURATION_LABELS[duration].toLowerCase()})`,
        {
          description: out.hidden
            ? `${out.hidden} published comment${out.hidden === 1 ? "" : "s"} hidden.`
            : undefined,
        },
      );
      details?.removeAttribute("open");
      onDone();
    } catch (error) {
      showToast("The author was not restricted", { description: (error as Error).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className="group relative w-full sm:w-auto">
      <summary
        className={buttonClass("ghost", "sm", "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}
      >
        <UserX className="size-4" aria-hidden />
        Mute/Ban author
      </summary>
      <form
        onSubmit={submit}
        className="z-20 mt-2 w-full space-y-3 rounded-lg border border-line bg-elevated p-3 text-sm shadow-lg sm:absolute sm:left-0 sm:w-72"
      >
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1 text-xs text-ink-muted">Restriction</legend>
          {(["muted", "banned"] as const).map((k) => (
            <label key={k} className="flex items-center gap-1.5 text-ink">
              <input type="radio" name="kind" checked={kind === k} onChange={() => setKind(k)} />
              {k === "muted" ? "Mute (hold new comments)" : "Ban (no comments)"}
            </label>
          ))}
        </fieldset>
        <label className="block text-xs text-ink-muted">
          For
          <select
            className={cx(inputClass, "mt-1 h-9")}
            value={duration}
            onChange={(e) => setDuration(e.target.value as RestrictionDuration)}
          >
            {DURATIONS.map((d) => (
              <option key={d} value={d}>
                {DURATION_LABELS[d]}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-xs text-ink-muted">
          Reason (optional)
          <input
            className={cx(inputClass, "mt-1 h-9")}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </label>
        {kind === "banned" ? (
          <label className="flex items-center gap-2 text-ink">
            <input type="checkbox" checked={hideAll} onChange={(e) => setHideAll(e.target.checked)} />
            Also hide all their published comments
          </label>
        ) : null}
        <Button type="submit" size="sm" variant={kind === "banned" ? "danger" : "primary"} disabled={busy}>
          <Ban className="size-4" aria-hidden />
          {kind === "banned" ? "Ban" : "Mute"} {name}
        </Button>
      </form>
    </details>
  );
}
