/**
 * What the workflow panel offers for each action the server allows (`item.actions`): its button
 * label, what it needs before it is sent (a time, reviewer notes, a confirmation), and the checks
 * the browser can make first. The server decides again (core `decideWorkflowTransition`).
 */
import {
  WORKFLOW_ACTIONS,
  WORKFLOW_RULES,
  WORKFLOW_STATE_LABELS,
  type WorkflowAction,
  type WorkflowState,
} from "../../../../core/index.ts";

/** What an action asks for before it is sent. */
export type ActionNeed = "time" | "notes" | "confirm" | "nothing";

export interface ActionButton {
  action: WorkflowAction;
  label: string;
  need: ActionNeed;
  /** The main action is drawn as the primary button; archive as a quiet one. */
  tone: "primary" | "secondary" | "danger";
  /** One line saying where it leads ("Moves the item to In review"). */
  explains: string;
}

const LABELS: Readonly<Record<WorkflowAction, string>> = Object.freeze({
  submit: "Submit for review",
  request_changes: "Request changes",
  approve: "Approve",
  schedule: "Schedule",
  unschedule: "Unschedule",
  publish: "Publish now",
  archive: "Archive",
  restore: "Restore to draft",
});

const NEEDS: Readonly<Record<WorkflowAction, ActionNeed>> = Object.freeze({
  submit: "nothing",
  request_changes: "notes",
  approve: "confirm",
  schedule: "time",
  unschedule: "nothing",
  publish: "confirm",
  archive: "confirm",
  restore: "nothing",
});

/** The label of an action on an item in `state` (archiving a live item is unpublishing it). */
export function actionLabel(action: WorkflowAction, state: WorkflowState): string {
  if (action === "archive" && state === "published") return "Unpublish and archive";
  if (action === "schedule" && state === "scheduled") return "Reschedule";
  return LABELS[action];
}

/**
 * The buttons for the actions the server allows, in core's order; the first of submit, publish,
 * approve is the primary one. Unknown action names are dropped.
 */
export function actionButtons(actions: readonly string[], state: WorkflowState): ActionButton[] {
  const allowed = WORKFLOW_ACTIONS.filter((a) => actions.includes(a));
  const primary = (["publish", "submit", "approve", "restore"] as const).find((a) => allowed.includes(a));
  return allowed.map((action) => ({
    action,
    label: actionLabel(action, state),
    need: NEEDS[action],
    tone: action === primary ? "primary" : action === "archive" ? "danger" : "secondary",
    explains: `Moves the item to ${WORKFLOW_STATE_LABELS[WORKFLOW_RULES[action].to]}`,
  }));
}

/** The text of the confirmation asked before approve, publish and archive. */
export function confirmText(action: WorkflowAction, title: string, state: WorkflowState): string {
  switch (action) {
    case "publish":
      return `"${title}" goes live for readers now, and visitors' pages refresh.`;
    case "approve":
      return `"${title}" is approved: a publisher can then schedule or publish it.`;
    case "archive":
      return state === "published"
        ? `"${title}" is taken off the site and archived. Restoring it later makes it a draft again.`
        : `"${title}" is archived. Restoring it later makes it a draft again.`;
    default:
      return `${actionLabel(action, state)} "${title}"?`;
  }
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A Date as a `datetime-local` value in the browser's time zone ("2026-03-04T09:05"). */
export function toLocalInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const LOCAL_VALUE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Reads a `datetime-local` value (the reader's own time zone) for scheduling: the ISO instant to
 * send, or the problem to show next to the input. It must be later than `now`.
 */
export function readScheduleTime(
  value: string,
  now: Date,
): { ok: true; iso: string } | { ok: false; error: string } {
  const m = LOCAL_VALUE.exec(value.trim());
  if (!m) return { ok: false, error: "Choose a date and time to publish at." };
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const at = new Date(y!, mo! - 1, d!, h!, mi!, s || 0);
  // new Date() rolls an impossible date over (Feb 30 → Mar 2): refuse it instead.
  if (Number.isNaN(at.getTime()) || at.getMonth() !== mo! - 1 || at.getDate() !== d!) {
    return { ok: false, error: "That date does not exist." };
  }
  if (at.getTime() <= now.getTime()) {
    return { ok: false, error: "Choose a time in the future; to publish now, use Publish now." };
  }
  return { ok: true, iso: at.toISOString() };
}

/** The reader's time zone name, for the label next to the time input ("Europe/Paris"). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "your time zone";
}

const EVENT_VERBS: Readonly<Record<WorkflowAction | "auto_publish", string>> = Object.freeze({
  submit: "Submitted for review",
  request_changes: "Requested changes",
  approve: "Approved",
  schedule: "Scheduled",
  unschedule: "Unscheduled",
  publish: "Published",
  archive: "Archived",
  restore: "Restored to draft",
  auto_publish: "Published at its scheduled time",
});

/** What a workflow event did, in the past tense ("Submitted for review"). */
export function eventVerb(action: WorkflowAction | "auto_publish"): string {
  return EVENT_VERBS[action] ?? action;
}

/** What was done, for the message after a transition succeeds. */
export function doneMessage(action: WorkflowAction, to: WorkflowState): string {
  return `${eventVerb(action)}: the item is now ${WORKFLOW_STATE_LABELS[to]}.`;
}
