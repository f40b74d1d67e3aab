import { describe, expect, it } from "vitest";
import {
  afterEdit,
  autosaves,
  needsLeaveWarning,
  type SaveStatus,
  shouldAutosave,
  statusText,
} from "./save-state.ts";

const dirty: SaveStatus = { kind: "dirty" };

describe("autosave", () => {
  it("saves unpublished items by itself, never new or published ones", () => {
    expect(autosaves("draft")).toBe(true);
    expect(autosaves("scheduled")).toBe(true);
    expect(autosaves("published")).toBe(false);
    expect(autosaves(null)).toBe(false);
  });

  it("waits for a valid, changed form and no save under way", () => {
    const base = { state: "draft" as const, dirty: true, valid: true, status: dirty };
    expect(shouldAutosave(base)).toBe(true);
    expect(shouldAutosave({ ...base, dirty: false })).toBe(false);
    expect(shouldAutosave({ ...base, valid: false })).toBe(false);
    expect(shouldAutosave({ ...base, status: { kind: "saving" } })).toBe(false);
    expect(shouldAutosave({ ...base, status: { kind: "failed", reason: "offline" } })).toBe(false);
    expect(shouldAutosave({ ...base, status: { kind: "stale", message: "x" } })).toBe(false);
    expect(shouldAutosave({ ...base, state: "published" })).toBe(false);
  });

  it("an edit after a failed save tries again; a stale save waits for the writer", () => {
    expect(afterEdit({ kind: "failed", reason: "offline" }, true)).toEqual(dirty);
    expect(afterEdit({ kind: "saved", at: 1 }, true)).toEqual(dirty);
    expect(afterEdit({ kind: "stale", message: "m" }, true)).toEqual({ kind: "stale", message: "m" });
    expect(afterEdit({ kind: "saved", at: 1 }, false)).toEqual({ kind: "saved", at: 1 });
  });

  it("an edit of a form with unsaved changes keeps the very same status (no state to set)", () => {
    const status: SaveStatus = { kind: "dirty" };
    expect(afterEdit(status, true)).toBe(status);
    expect(afterEdit(status, false)).toBe(status);
    const saving: SaveStatus = { kind: "saving" };
    expect(afterEdit(saving, true)).toBe(saving);
    const saved: SaveStatus = { kind: "saved", at: 1 };
    expect(afterEdit(saved, false)).toBe(saved);
  });
});

describe("status line", () => {
  it("says what happened", () => {
    expect(statusText({ kind: "saving" }, "draft")).toBe("Saving…");
    expect(statusText({ kind: "saved", at: new Date(2026, 0, 1, 14, 3).getTime() }, "draft")).toBe(
      "Saved 14:03",
    );
    expect(statusText({ kind: "failed", reason: "the server is unreachable" }, "draft")).toBe(
      "Not saved: the server is unreachable",
    );
    expect(statusText(dirty, "published")).toMatch(/live/);
    expect(statusText(dirty, null)).toBe("Not saved yet");
  });
});

describe("leave warning", () => {
  it("warns while something would be lost", () => {
    expect(needsLeaveWarning(true, { kind: "saved", at: 1 })).toBe(true);
    expect(needsLeaveWarning(false, { kind: "saving" })).toBe(true);
    expect(needsLeaveWarning(false, { kind: "stale", message: "m" })).toBe(true);
    expect(needsLeaveWarning(false, { kind: "saved", at: 1 })).toBe(false);
  });
});
