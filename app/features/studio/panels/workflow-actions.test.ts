import { describe, expect, it } from "vitest";
import { actionButtons, actionLabel, readScheduleTime, toLocalInputValue } from "./workflow-actions.ts";

describe("workflow buttons", () => {
  it("offers a writer without content:publish only what the server allows: submit (and archive)", () => {
    const buttons = actionButtons(["submit", "archive"], "draft");
    expect(buttons.map((b) => b.label)).toEqual(["Submit for review", "Archive"]);
    expect(buttons[0]).toMatchObject({ action: "submit", need: "nothing", tone: "primary" });
    expect(buttons[1]).toMatchObject({ action: "archive", need: "confirm", tone: "danger" });
  });

  it("gives a reviewer each action with what it needs, in the workflow's order", () => {
    const buttons = actionButtons(
      ["publish", "archive", "approve", "request_changes", "schedule"],
      "in_review",
    );
    expect(buttons.map((b) => [b.action, b.need])).toEqual([
      ["request_changes", "notes"],
      ["approve", "confirm"],
      ["schedule", "time"],
      ["publish", "confirm"],
      ["archive", "confirm"],
    ]);
    expect(buttons.filter((b) => b.tone === "primary").map((b) => b.action)).toEqual(["publish"]);
    expect(buttons.find((b) => b.action === "approve")?.explains).toBe("Moves the item to Approved");
  });

  it("drops names the workflow does not know, and shows nothing for no actions", () => {
    expect(actionButtons(["delete", "submit"], "draft").map((b) => b.action)).toEqual(["submit"]);
    expect(actionButtons([], "in_review")).toEqual([]);
  });

  it("names archiving a live item as unpublishing, and scheduling again as rescheduling", () => {
    expect(actionLabel("archive", "published")).toBe("Unpublish and archive");
    expect(actionLabel("archive", "draft")).toBe("Archive");
    expect(actionLabel("schedule", "scheduled")).toBe("Reschedule");
  });
});

describe("schedule time", () => {
  const now = new Date(2026, 5, 10, 12, 0);

  it("reads a future local time as the ISO instant to send", () => {
    const read = readScheduleTime("2026-06-10T12:02", now);
    expect(read).toEqual({ ok: true, iso: new Date(2026, 5, 10, 12, 2).toISOString() });
  });

  it("refuses a time that is not in the future", () => {
    for (const value of ["2026-06-10T12:00", "2026-06-10T11:59", "2025-01-01T00:00"]) {
      const read = readScheduleTime(value, now);
      expect(read.ok, value).toBe(false);
      if (!read.ok) expect(read.error).toMatch(/future/);
    }
  });

  it("refuses an empty, unreadable or impossible date", () => {
    expect(readScheduleTime("", now)).toMatchObject({
      ok: false,
      error: "Choose a date and time to publish at.",
    });
    expect(readScheduleTime("tomorrow", now).ok).toBe(false);
    expect(readScheduleTime("2027-02-30T10:00", now)).toEqual({
      ok: false,
      error: "That date does not exist.",
    });
  });

  it("writes a Date as the input's local value and reads it back", () => {
    const at = new Date(2027, 0, 2, 3, 4);
    expect(toLocalInputValue(at)).toBe("2027-01-02T03:04");
    expect(readScheduleTime(toLocalInputValue(at), now)).toEqual({ ok: true, iso: at.toISOString() });
  });
});
