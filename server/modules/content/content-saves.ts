/**
 * What the content writes (create, update, restore, transitions) share beyond the repository:
 * the one rule by which a stored `status` sent with a save becomes a workflow transition (so no
 * path publishes early: a future `publishedAt` schedules), the refusal of workflow fields where
 * only transitions may change them, the check that a category still exists, and the stale-version
 * answer naming who saved in between and when.
 */
import type { Kysely } from "kysely";
import {
  decideWorkflowTransition,
  type WorkflowAction,
  type WorkflowDecision,
  type WorkflowState,
} from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import {
  BadInputError,
  ConflictError,
  ForbiddenError,
  InvalidTransitionError,
  StaleVersionError,
} from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { accountNamesByIds } from "../users/display-names.ts";

/** An allowed transition, with the action that made it (recorded as a workflow event). */
export type AllowedTransition = Extract<WorkflowDecision, { allowed: true }> & { action: WorkflowAction };

/** A refused decision as the error its reason maps to (decision 017: 409, 403, 400 with the field). */
export function refusalError(decision: Extract<WorkflowDecision, { allowed: false }>, field = "action") {
  if (decision.reason === "transition")
    return new InvalidTransitionError(decision.message, { field: { [field]: decision.message } });
  if (decision.reason === "input")
    return new BadInputError(decision.message, { field: { [decision.field]: decision.message } });
  return new ForbiddenError(decision.message);
}

/** Decides `request` for `actor` on an item in `from`; a refusal is thrown. */
export function decideOrThrow(
  actor: Actor,
  from: WorkflowState,
  request: { action: WorkflowAction; at?: string | Date | null; notes?: string | null; now: Date },
  field = "action",
): AllowedTransition {
  const decision = decideWorkflowTransition(actor.access, from, request);
  if (!decision.allowed) throw refusalError(decision, field);
  return { ...decision, action: request.action };
}

/**
 * The transition a stored `status` sent with a create or update stands for (the data API's
 * `status` field): "review" submits, "archived" archives, "draft" restores from the archive, and
 * "published" publishes — or schedules, when the item's publication time is in the future, so
 * a future date never publishes at once. Null when the status does not change. Refusals are
 * thrown (naming the field `status`), like those of an explicit transition.
 */
export function transitionForStatus(
  actor: Actor,
  from: WorkflowState,
  currentStatus: string | null,
  status: string | undefined,
  publishedAt: string | null | undefined,
  now: Date,
): AllowedTransition | null {
  if (status === undefined || status === currentStatus) {
    // Re-sending "published" with a future time on an unpublished (e.g. scheduled) item is handled
    // above by the status comparison: scheduled items are stored as "review".
    return null;
  }
  if (status === "published") {
    const at = publishedAt ? new Date(publishedAt) : null;
    if (at && at.getTime() > now.getTime()) {
      return decideOrThrow(actor, from, { action: "schedule", at, now }, "status");
    }
    const published = decideOrThrow(actor, from, { action: "publish", now }, "status");
    return at ? { ...published, publishedAt: at } : published;
  }
  const action: WorkflowAction | null =
    status === "review"
      ? "submit"
      : status === "archived"
        ? "archive"
        : status === "draft"
          ? "restore"
          : null;
  if (action === null)
    throw new BadInputError(`input.status: unknown status ${status}`, { field: { status } });
  return decideOrThrow(actor, from, { action, now }, "status");
}

const USE_A_TRANSITION =
  "cannot be changed by a save: use a transition (submit, approve, schedule, publish…)";

/**
 * Refuses fields only transitions change: `workflowStatus` always; over REST also `status`
 * (other than its current value) and, for unpublished items, `publishedAt` (the schedule).
 */
export function refuseWorkflowFields(
  input: unknown,
  options: { transitionsOnly: boolean; current?: { status: string; publishedAt: string | null } | null },
): void {
  if (typeof input !== "object" || input === null) return;
  const record = input as Record<string, unknown>;
  const refuse = (field: string) => {
    throw new BadInputError(`input.${field}: ${USE_A_TRANSITION}`, { field: { [field]: USE_A_TRANSITION } });
  };
  if (Object.hasOwn(record, "workflowStatus")) refuse("workflowStatus");
  if (!options.transitionsOnly) return;
  const current = options.current ?? null;
  if (Object.hasOwn(record, "status") && record.status !== (current?.status ?? "draft")) refuse("status");
  if (
    Object.hasOwn(record, "publishedAt") &&
    current?.status !== "published" &&
    !sameTime(record.publishedAt, current?.publishedAt ?? null)
  ) {
    refuse("publishedAt");
  }
}

function sameTime(a: unknown, b: string | null): boolean {
  if (a === null || a === undefined) return b === null;
  if (typeof a !== "string" || b === null) return false;
  return new Date(a).getTime() === new Date(b).getTime();
}

/** Refuses a category reference (id or slug) to a category that does not exist (any more). */
export async function checkCategoryExists(
  db: Kysely<DB>,
  fields: { categoryId?: string | null; categorySlug?: string | null },
): Promise<void> {
  if (fields.categoryId) {
    const row = await db
      .selectFrom("content_category")
      .select("id")
      .where("id", "=", fields.categoryId)
      .executeTakeFirst();
    if (!row) {
      const problem = "no such category (it may have been deleted): choose another";
      throw new BadInputError(`input.categoryId: ${problem}`, { field: { categoryId: problem } });
    }
  }
  if (fields.categorySlug) {
    const row = await db
      .selectFrom("content_category")
      .select("id")
      .where("slug", "=", fields.categorySlug)
      .executeTakeFirst();
    if (!row) {
      const problem = "no such category (it may have been deleted): choose another";
      throw new BadInputError(`input.categorySlug: ${problem}`, { field: { categorySlug: problem } });
    }
  }
}

/**
 * A repository conflict as the client should see it: a stale version becomes STALE_VERSION naming
 * who saved last, when, and the version now stored; a taken slug names the field. Anything else
 * is returned unchanged.
 */
export async function explainConflict(db: Kysely<DB>, id: string, error: unknown): Promise<unknown> {
  if (!(error instanceof ConflictError)) return error;
  const details = error.details as { currentVersion?: number; expectedVersion?: number } | undefined;
  if (details?.currentVersion === undefined) {
    if (/unique field/.test(error.message)) {
      const problem = "this slug is taken by another item";
      return new ConflictError(`input.slug: ${problem}`, { field: { slug: problem }, cause: error });
    }
    return error;
  }
  const row = await db
    .selectFrom("content")
    .select(["lastEditedBy", "updatedAt", "version"])
    .where("id", "=", id)
    .executeTakeFirst();
  const names = await accountNamesByIds(db, [row?.lastEditedBy ?? null]);
  const who = (row?.lastEditedBy && names.get(row.lastEditedBy)) || "someone else";
  const version = row?.version ?? details.currentVersion;
  const message = `This item was changed by ${who} at ${row?.updatedAt ?? "an unknown time"} (now version ${version}); your changes were not saved.`;
  return new StaleVersionError(message, {
    field: { version: `expected ${details.expectedVersion}, the stored version is ${version}` },
    details: { currentVersion: version },
  });
}
