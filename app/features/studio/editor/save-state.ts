/**
 * The editor's save rules as pure functions: when a change is saved by itself, what the status
 * line says, and when leaving the page needs a warning.
 *
 * - Unpublished items (draft, in review, changes requested, approved, scheduled, archived) save
 *   themselves AUTOSAVE_DELAY_MS after typing stops, when the form passes its checks.
 * - A published item saves only when asked: a change to it is live at once.
 * - A new item is created by an explicit first save (its address then becomes /content/<id>/edit).
 * - After a stale save (someone else saved first) nothing saves by itself until the writer chooses.
 */
import type { WorkflowState } from "../../../../core/index.ts";

export const AUTOSAVE_DELAY_MS = 3000;

export type SaveStatus =
  | { kind: "clean" }
  | { kind: "dirty" }
  | { kind: "saving" }
  | { kind: "saved"; at: number }
  | { kind: "failed"; reason: string }
  | { kind: "stale"; message: string };

export interface AutosaveInput {
  /** null for a new item (not created yet). */
  state: WorkflowState | null;
  dirty: boolean;
  /** The form passes the client checks. */
  valid: boolean;
  status: SaveStatus;
}

/** Whether a change may be saved without the writer asking. */
export function autosaves(state: WorkflowState | null): boolean {
  return state !== null && state !== "published";
}

/** Whether to start the autosave timer now. */
export function shouldAutosave({ state, dirty, valid, status }: AutosaveInput): boolean {
  if (!autosaves(state) || !dirty || !valid) return false;
  // A failed save waits for Retry or the next keystroke (which turns it back to dirty).
  return status.kind === "dirty" || status.kind === "saved" || status.kind === "clean";
}

const DIRTY: SaveStatus = { kind: "dirty" };

/**
 * The status after an edit of the form: the same object when the edit changes nothing (a status
 * already "dirty"), so the editor sets no state for most keystrokes (editor-screen.tsx).
 */
export function afterEdit(status: SaveStatus, dirty: boolean): SaveStatus {
  if (status.kind === "stale" || status.kind === "saving" || status.kind === "dirty") return status;
  return dirty || status.kind === "failed" ? DIRTY : status;
}

const time = (at: number) =>
  new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });

/** The status line's words. */
export function statusText(status: SaveStatus, state: WorkflowState | null): string {
  switch (status.kind) {
    case "saving":
      return "Saving…";
    case "saved":
      return `Saved ${time(status.at)}`;
    case "failed":
      return `Not saved: ${status.reason}`;
    case "stale":
      return "Not saved: someone else changed this item";
    case "dirty":
      if (state === null) return "Not saved yet";
      return state === "published"
        ? "Unsaved changes (published: saving makes them live)"
        : "Unsaved changes";
    case "clean":
      return state === null ? "New item" : "All changes saved";
  }
}

/** Leaving the page loses something: unsaved edits, a save under way, or a refused save. */
export function needsLeaveWarning(dirty: boolean, status: SaveStatus): boolean {
  return dirty || status.kind === "saving" || status.kind === "stale";
}
