/**
 * The content workflow (decision 017): the states an item goes through, the actions that move it,
 * who may take each action, and what each state means for the stored `status` (the column the
 * public visibility rule reads: published items only).
 *
 *   draft → in_review → changes_requested → in_review → approved → scheduled → published → archived
 *
 * - Writers (core `canWriteContent`) submit drafts for review, archive work that is not yet
 *   approved, and restore archived items to a draft.
 * - Reviewers and publishers are the same people: holders of content:publish (core
 *   `canPublishContent`). They request changes, approve, schedule, publish now, unschedule and
 *   archive approved, scheduled or published items. A publisher may publish or schedule from any
 *   unpublished state: review is for those who cannot publish themselves.
 * - Approving needs content:publish, so a writer without it can never approve anything, their own
 *   submission included. A publisher may approve their own submission: they could publish it
 *   directly anyway, so a second-person rule would only add a step.
 * - A scheduled item is stored unpublished (status "review") until its time; `isLive` and
 *   `workflowStateAt` say when it is due, and whoever releases it sets the published state.
 *
 * Pure, no I/O: the content service enforces these answers, the UI uses them to explain.
 */
import type { AccessContext } from "./claims.ts";
import { canPublishContent, canWriteContent } from "./data-rules.ts";

export const WORKFLOW_STATES = [
  "draft",
  "in_review",
  "changes_requested",
  "approved",
  "scheduled",
  "published",
  "archived",
] as const;
export type WorkflowState = (typeof WORKFLOW_STATES)[number];

export function isWorkflowState(value: unknown): value is WorkflowState {
  return typeof value === "string" && (WORKFLOW_STATES as readonly string[]).includes(value);
}

/** How each state is shown to people. */
export const WORKFLOW_STATE_LABELS: Readonly<Record<WorkflowState, string>> = Object.freeze({
  draft: "Draft",
  in_review: "In review",
  changes_requested: "Changes requested",
  approved: "Approved",
  scheduled: "Scheduled",
  published: "Published",
  archived: "Archived",
});

/** The stored content `status` values (the API's `CONTENT_STATUSES`). */
export type StoredContentStatus = "draft" | "review" | "published" | "archived";

/**
 * The stored `status` of each state. Only "published" is public. The states with the writer
 * (draft, changes requested) are "draft"; those waiting on a reviewer or on their time (in review,
 * approved, scheduled) are "review".
 */
export const STATUS_BY_WORKFLOW_STATE: Readonly<Record<WorkflowState, StoredContentStatus>> = Object.freeze({
  draft: "draft",
  in_review: "review",
  changes_requested: "draft",
  approved: "review",
  scheduled: "review",
  published: "published",
  archived: "archived",
});

export function storedStatusOf(state: WorkflowState): StoredContentStatus {
  return STATUS_BY_WORKFLOW_STATE[state];
}

/** The state an item without a readable `workflowStatus` is in, read from its stored `status`. */
const STATE_BY_STATUS: Readonly<Record<StoredContentStatus, WorkflowState>> = Object.freeze({
  draft: "draft",
  review: "in_review",
  published: "published",
  archived: "archived",
});

/**
 * The workflow state of a stored item. `workflowStatus` is used when it is a known state whose
 * stored status matches `status`; otherwise (empty, unknown, or disagreeing with `status`, as on
 * rows written before the workflow) the state is read from `status`, which is what visitors see.
 * An unreadable `status` reads as draft (not public).
 */
export function workflowStateOf(item: {
  workflowStatus?: string | null;
  status?: string | null;
}): WorkflowState {
  const status = item.status ?? "";
  const ws = item.workflowStatus;
  if (isWorkflowState(ws) && STATUS_BY_WORKFLOW_STATE[ws] === status) return ws;
  return (STATE_BY_STATUS as Record<string, WorkflowState | undefined>)[status] ?? "draft";
}

export const WORKFLOW_ACTIONS = [
  "submit",
  "request_changes",
  "approve",
  "schedule",
  "unschedule",
  "publish",
  "archive",
  "restore",
] as const;
export type WorkflowAction = (typeof WORKFLOW_ACTIONS)[number];

export function isWorkflowAction(value: unknown): value is WorkflowAction {
  return typeof value === "string" && (WORKFLOW_ACTIONS as readonly string[]).includes(value);
}

/** Who may take an action: writers (`canWriteContent`) or publishers (`canPublishContent`). */
export type WorkflowRequirement = "write" | "publish";

interface ActionRule {
  /** The action as a sentence subject, for messages ("Approving needs …"). */
  gerund: string;
  /** The states it may start from, each with who may take it from there. */
  from: Partial<Record<WorkflowState, WorkflowRequirement>>;
  /** The state it leads to. */
  to: WorkflowState;
}

/** Every state a publisher may publish or schedule from (anything not live or archived). */
const UNPUBLISHED_STATES = ["draft", "in_review", "changes_requested", "approved", "scheduled"] as const;
const byPublisher = (states: readonly WorkflowState[]) =>
  Object.fromEntries(states.map((s) => [s, "publish"])) as Partial<
    Record<WorkflowState, WorkflowRequirement>
  >;

export const WORKFLOW_RULES: Readonly<Record<WorkflowAction, Readonly<ActionRule>>> = Object.freeze({
  submit: {
    gerund: "Submitting for review",
    from: { draft: "write", changes_requested: "write" },
    to: "in_review",
  },
  request_changes: { gerund: "Requesting changes", from: { in_review: "publish" }, to: "changes_requested" },
  approve: { gerund: "Approving", from: { in_review: "publish" }, to: "approved" },
  schedule: { gerund: "Scheduling", from: byPublisher(UNPUBLISHED_STATES), to: "scheduled" },
  unschedule: { gerund: "Unscheduling", from: { scheduled: "publish" }, to: "approved" },
  publish: { gerund: "Publishing", from: byPublisher(UNPUBLISHED_STATES), to: "published" },
  archive: {
    gerund: "Archiving",
    from: {
      draft: "write",
      in_review: "write",
      changes_requested: "write",
      approved: "publish",
      scheduled: "publish",
      published: "publish",
    },
    to: "archived",
  },
  restore: { gerund: "Restoring from the archive", from: { archived: "write" }, to: "draft" },
});

/** The actions that may start from `state`, in `WORKFLOW_ACTIONS` order (whoever the actor is). */
export function actionsFrom(state: WorkflowState): WorkflowAction[] {
  return WORKFLOW_ACTIONS.filter((a) => WORKFLOW_RULES[a].from[state] !== undefined);
}

const REQUIREMENT_TEXT: Readonly<Record<WorkflowRequirement, string>> = Object.freeze({
  write: "the content:create or content:edit permission",
  publish: "the content:publish permission",
});

export interface WorkflowRequest {
  action: WorkflowAction;
  /** When to go live; required by "schedule", and must be later than `now`. Ignored otherwise. */
  at?: Date | string | null;
  /** The reviewer's notes; required by "request_changes", kept as reviewerNotes otherwise. */
  notes?: string | null;
  now: Date;
}

/**
 * - allowed: the item moves to `to`, stored with `status`; `publishedAt` is the time to go live
 *   (schedule: the requested time; publish: now) and absent for the other actions.
 * - refused: `reason` "permission" (the actor lacks what the action needs: HTTP 403),
 *   "transition" (the action cannot start from the item's state: 409) or "input" (a missing or
 *   invalid value, named by `field`: 400). `message` is for people and names what is needed.
 */
export type WorkflowDecision =
  | { allowed: true; from: WorkflowState; to: WorkflowState; status: StoredContentStatus; publishedAt?: Date }
  | { allowed: false; reason: "permission" | "transition"; message: string }
  | { allowed: false; reason: "input"; field: "at" | "notes"; message: string };

type WorkflowActor = Pick<AccessContext, "isAuthenticated" | "permissions" | "groups">;

function meets(actor: WorkflowActor, need: WorkflowRequirement): boolean {
  return need === "publish" ? canPublishContent(actor) : canWriteContent(actor);
}

function readTime(value: Date | string | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const d = value instanceof Date ? new Date(value.getTime()) : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * May `actor` take `request.action` on an item in state `from`? Checked in this order: the action
 * starts from this state (else "transition", naming both states), the actor holds what it needs
 * from there (else "permission", naming the permission), then its inputs (else "input").
 */
export function decideWorkflowTransition(
  actor: WorkflowActor,
  from: WorkflowState,
  request: WorkflowRequest,
): WorkflowDecision {
  const rule = WORKFLOW_RULES[request.action];
  const need = rule.from[from];
  if (need === undefined) {
    const starts = Object.keys(rule.from).map((s) => WORKFLOW_STATE_LABELS[s as WorkflowState]);
    return {
      allowed: false,
      reason: "transition",
      message: `${rule.gerund} is not possible from ${WORKFLOW_STATE_LABELS[from]}: it moves an item from ${starts.join(", ")} to ${WORKFLOW_STATE_LABELS[rule.to]}`,
    };
  }
  if (!meets(actor, need)) {
    const message = actor.isAuthenticated
      ? `${rule.gerund} needs ${REQUIREMENT_TEXT[need]}`
      : `${rule.gerund} needs a signed-in user with ${REQUIREMENT_TEXT[need]}`;
    return { allowed: false, reason: "permission", message };
  }
  const to = rule.to;
  const status = STATUS_BY_WORKFLOW_STATE[to];
  if (request.action === "request_changes" && (request.notes ?? "").trim() === "") {
    return {
      allowed: false,
      reason: "input",
      field: "notes",
      message: "Requesting changes needs reviewer notes saying what to change",
    };
  }
  if (request.action === "schedule") {
    const at = readTime(request.at);
    if (at === null) {
      return {
        allowed: false,
        reason: "input",
        field: "at",
        message: "Scheduling needs a time to publish at (an ISO-8601 date and time)",
      };
    }
    if (at.getTime() <= request.now.getTime()) {
      return {
        allowed: false,
        reason: "input",
        field: "at",
        message: "Scheduling needs a time in the future; to publish now, publish",
      };
    }
    return { allowed: true, from, to, status, publishedAt: at };
  }
  if (request.action === "publish")
    return { allowed: true, from, to, status, publishedAt: new Date(request.now) };
  return { allowed: true, from, to, status };
}

/**
 * Is the item live for visitors at `now`? Published items are; scheduled items are once their
 * `publishedAt` has come (at that exact millisecond or later), even before anything has released
 * them; every other state is not. A scheduled item without a readable time is not live.
 */
export function isLive(
  state: WorkflowState,
  publishedAt: Date | string | null | undefined,
  now: Date,
): boolean {
  if (state === "published") return true;
  if (state !== "scheduled") return false;
  const at = readTime(publishedAt);
  return at !== null && at.getTime() <= now.getTime();
}

/** The state at `now`: a scheduled item that is due reads as published; others are unchanged. */
export function workflowStateAt(
  state: WorkflowState,
  publishedAt: Date | string | null | undefined,
  now: Date,
): WorkflowState {
  return state === "scheduled" && isLive(state, publishedAt, now) ? "published" : state;
}
