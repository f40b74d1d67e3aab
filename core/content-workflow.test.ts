import { describe, expect, it } from "vitest";
import { type AccessContext, buildUserContext, toAccessContext } from "./claims.ts";
import {
  actionsFrom,
  decideWorkflowTransition,
  isLive,
  STATUS_BY_WORKFLOW_STATE,
  WORKFLOW_ACTIONS,
  WORKFLOW_STATES,
  type WorkflowAction,
  type WorkflowState,
  workflowStateAt,
  workflowStateOf,
} from "./content-workflow.ts";
import * as core from "./index.ts";
import { PERSONAS } from "./test-personas.ts";

const withGroups = (groups: string[]) =>
  toAccessContext(buildUserContext({ sub: `u-${groups.join("-")}`, "cognito:groups": groups }));

const NOW = new Date("2026-03-01T12:00:00.000Z");
const LATER = "2026-03-01T12:02:00.000Z";

/** Each role of spec §6 (plus a visitor, a reader and an organisation admin), by its account. */
const ACTORS: Record<string, AccessContext> = {
  visitor: PERSONAS.visitor,
  User: PERSONAS.free,
  ContentCreator: withGroups(["ContentCreator"]),
  Editor: withGroups(["Editor"]),
  ContentManager: PERSONAS.manager,
  Admin: PERSONAS.admin,
  "organisation admin": PERSONAS.business,
  SuperAdmin: PERSONAS.owner,
};
const WRITERS = ["ContentCreator", "Editor", "ContentManager", "Admin", "SuperAdmin"];
const PUBLISHERS = ["Editor", "ContentManager", "SuperAdmin"];

/** Every allowed transition, written out: action, from, to, who (writers or publishers). */
const TRANSITIONS: [WorkflowAction, WorkflowState, WorkflowState, "write" | "publish"][] = [
  ["submit", "draft", "in_review", "write"],
  ["submit", "changes_requested", "in_review", "write"],
  ["request_changes", "in_review", "changes_requested", "publish"],
  ["approve", "in_review", "approved", "publish"],
  ["schedule", "draft", "scheduled", "publish"],
  ["schedule", "in_review", "scheduled", "publish"],
  ["schedule", "changes_requested", "scheduled", "publish"],
  ["schedule", "approved", "scheduled", "publish"],
  ["schedule", "scheduled", "scheduled", "publish"],
  ["unschedule", "scheduled", "approved", "publish"],
  ["publish", "draft", "published", "publish"],
  ["publish", "in_review", "published", "publish"],
  ["publish", "changes_requested", "published", "publish"],
  ["publish", "approved", "published", "publish"],
  ["publish", "scheduled", "published", "publish"],
  ["archive", "draft", "archived", "write"],
  ["archive", "in_review", "archived", "write"],
  ["archive", "changes_requested", "archived", "write"],
  ["archive", "approved", "archived", "publish"],
  ["archive", "scheduled", "archived", "publish"],
  ["archive", "published", "archived", "publish"],
  ["restore", "archived", "draft", "write"],
];

const GERUND: Record<WorkflowAction, string> = {
  submit: "Submitting for review",
  request_changes: "Requesting changes",
  approve: "Approving",
  schedule: "Scheduling",
  unschedule: "Unscheduling",
  publish: "Publishing",
  archive: "Archiving",
  restore: "Restoring from the archive",
};

const request = (action: WorkflowAction) => ({ action, now: NOW, at: LATER, notes: "Shorten the intro" });

describe("content workflow: permission matrix", () => {
  const cases = TRANSITIONS.flatMap(([action, from, to, need]) =>
    Object.keys(ACTORS).map((role) => [role, action, from, to, need] as const),
  );
  it.each(cases)("%s: %s from %s", (role, action, from, to, need) => {
    const decision = decideWorkflowTransition(ACTORS[role] as AccessContext, from, request(action));
    const may = (need === "write" ? WRITERS : PUBLISHERS).includes(role);
    if (may) {
      expect(decision).toMatchObject({ allowed: true, from, to, status: STATUS_BY_WORKFLOW_STATE[to] });
      return;
    }
    const what =
      need === "write" ? "the content:create or content:edit permission" : "the content:publish permission";
    const message =
      role === "visitor"
        ? `${GERUND[action]} needs a signed-in user with ${what}`
        : `${GERUND[action]} needs ${what}`;
    expect(decision).toEqual({ allowed: false, reason: "permission", message });
  });

  it("names the permission in plain words", () => {
    expect(
      decideWorkflowTransition(ACTORS.ContentCreator as AccessContext, "approved", request("publish")),
    ).toEqual({
      allowed: false,
      reason: "permission",
      message: "Publishing needs the content:publish permission",
    });
  });

  it("a writer without content:publish can only submit a draft for review (or shelve it)", () => {
    const creator = ACTORS.ContentCreator as AccessContext;
    const allowed = WORKFLOW_ACTIONS.filter(
      (a) => decideWorkflowTransition(creator, "draft", request(a)).allowed,
    );
    expect(allowed).toEqual(["submit", "archive"]);
  });

  it("a writer may not approve their own submission; a publisher may approve their own", () => {
    // Approving needs content:publish whoever wrote the item: the author's own submission included.
    expect(
      decideWorkflowTransition(ACTORS.ContentCreator as AccessContext, "in_review", request("approve")),
    ).toEqual({
      allowed: false,
      reason: "permission",
      message: "Approving needs the content:publish permission",
    });
    // An Editor could publish the draft directly, so approving it is allowed too.
    expect(
      decideWorkflowTransition(ACTORS.Editor as AccessContext, "in_review", request("approve")),
    ).toMatchObject({
      allowed: true,
      to: "approved",
    });
  });
});

describe("content workflow: transitions", () => {
  const allowedPairs = new Set(TRANSITIONS.map(([a, f]) => `${a}:${f}`));
  const invalid = WORKFLOW_ACTIONS.flatMap((a) =>
    WORKFLOW_STATES.filter((s) => !allowedPairs.has(`${a}:${s}`)).map((s) => [a, s] as const),
  );

  it("the written-out table is every transition there is", () => {
    for (const state of WORKFLOW_STATES) {
      expect(actionsFrom(state)).toEqual(WORKFLOW_ACTIONS.filter((a) => allowedPairs.has(`${a}:${state}`)));
    }
  });

  it.each(invalid)("%s from %s is refused, naming the states, even for SuperAdmin", (action, from) => {
    const decision = decideWorkflowTransition(ACTORS.SuperAdmin as AccessContext, from, request(action));
    expect(decision).toMatchObject({ allowed: false, reason: "transition" });
    if (decision.allowed) return;
    expect(decision.message).toContain(`${GERUND[action]} is not possible from `);
  });

  it("a refused transition names the current state, the states it starts from and where it leads", () => {
    expect(decideWorkflowTransition(ACTORS.Editor as AccessContext, "draft", request("approve"))).toEqual({
      allowed: false,
      reason: "transition",
      message: "Approving is not possible from Draft: it moves an item from In review to Approved",
    });
    expect(decideWorkflowTransition(ACTORS.Editor as AccessContext, "archived", request("publish"))).toEqual({
      allowed: false,
      reason: "transition",
      message:
        "Publishing is not possible from Archived: it moves an item from Draft, In review, Changes requested, Approved, Scheduled to Published",
    });
  });

  it("an invalid transition is reported before a missing permission", () => {
    expect(decideWorkflowTransition(PERSONAS.visitor, "published", request("submit"))).toMatchObject({
      allowed: false,
      reason: "transition",
    });
  });

  it("publishing now records now as the publication time", () => {
    expect(decideWorkflowTransition(ACTORS.Editor as AccessContext, "approved", request("publish"))).toEqual({
      allowed: true,
      from: "approved",
      to: "published",
      status: "published",
      publishedAt: NOW,
    });
  });

  it("requesting changes needs reviewer notes", () => {
    for (const notes of [undefined, null, "", "   "]) {
      expect(
        decideWorkflowTransition(ACTORS.Editor as AccessContext, "in_review", {
          action: "request_changes",
          now: NOW,
          notes,
        }),
      ).toEqual({
        allowed: false,
        reason: "input",
        field: "notes",
        message: "Requesting changes needs reviewer notes saying what to change",
      });
    }
  });
});

describe("content workflow: scheduling", () => {
  const editor = ACTORS.Editor as AccessContext;
  const schedule = (at: Date | string | null | undefined) =>
    decideWorkflowTransition(editor, "approved", { action: "schedule", now: NOW, at });

  it("a future time schedules the item, unpublished until then", () => {
    expect(schedule(LATER)).toEqual({
      allowed: true,
      from: "approved",
      to: "scheduled",
      status: "review",
      publishedAt: new Date(LATER),
    });
    expect(schedule(new Date(NOW.getTime() + 1))).toMatchObject({ allowed: true, to: "scheduled" });
  });

  it.each([
    ["now", NOW],
    ["a second ago", new Date(NOW.getTime() - 1000)],
  ])("a time that is not in the future (%s) is refused", (_label, at) => {
    expect(schedule(at)).toEqual({
      allowed: false,
      reason: "input",
      field: "at",
      message: "Scheduling needs a time in the future; to publish now, publish",
    });
  });

  it.each([undefined, null, "", "next tuesday"])("a missing or unreadable time (%s) is refused", (at) => {
    expect(schedule(at)).toEqual({
      allowed: false,
      reason: "input",
      field: "at",
      message: "Scheduling needs a time to publish at (an ISO-8601 date and time)",
    });
  });

  it("the permission is checked before the time", () => {
    expect(
      decideWorkflowTransition(ACTORS.ContentCreator as AccessContext, "approved", {
        action: "schedule",
        now: NOW,
      }),
    ).toMatchObject({ allowed: false, reason: "permission" });
  });
});

describe("content workflow: stored status and liveness", () => {
  it("only the published state is stored as published; a scheduled item is not", () => {
    expect(STATUS_BY_WORKFLOW_STATE).toEqual({
      draft: "draft",
      in_review: "review",
      changes_requested: "draft",
      approved: "review",
      scheduled: "review",
      published: "published",
      archived: "archived",
    });
  });

  it("a scheduled item is live exactly at its time, not a second before", () => {
    const at = "2026-03-01T12:00:00.000Z";
    expect(isLive("scheduled", at, new Date("2026-03-01T11:59:59.000Z"))).toBe(false);
    expect(isLive("scheduled", at, new Date("2026-03-01T11:59:59.999Z"))).toBe(false);
    expect(isLive("scheduled", at, new Date(at))).toBe(true);
    expect(isLive("scheduled", new Date(at), new Date("2026-03-01T12:00:01.000Z"))).toBe(true);
    expect(workflowStateAt("scheduled", at, new Date("2026-03-01T11:59:59.000Z"))).toBe("scheduled");
    expect(workflowStateAt("scheduled", at, new Date(at))).toBe("published");
  });

  it("a scheduled item without a readable time is never live", () => {
    expect(isLive("scheduled", null, NOW)).toBe(false);
    expect(isLive("scheduled", "soon", NOW)).toBe(false);
  });

  it("published items are live whatever their time; other states never are", () => {
    expect(isLive("published", "2099-01-01T00:00:00.000Z", NOW)).toBe(true);
    for (const s of ["draft", "in_review", "changes_requested", "approved", "archived"] as const) {
      expect(isLive(s, "2000-01-01T00:00:00.000Z", NOW)).toBe(false);
      expect(workflowStateAt(s, "2000-01-01T00:00:00.000Z", NOW)).toBe(s);
    }
  });

  it("reads an item's state from workflowStatus when it agrees with status, else from status", () => {
    expect(workflowStateOf({ workflowStatus: "scheduled", status: "review" })).toBe("scheduled");
    expect(workflowStateOf({ workflowStatus: "changes_requested", status: "draft" })).toBe(
      "changes_requested",
    );
    expect(workflowStateOf({ workflowStatus: "published", status: "published" })).toBe("published");
    // Rows written before the workflow: the stored status decides, which is what visitors see.
    expect(workflowStateOf({ workflowStatus: null, status: "published" })).toBe("published");
    expect(workflowStateOf({ workflowStatus: "approved", status: "published" })).toBe("published");
    expect(workflowStateOf({ workflowStatus: "published", status: "draft" })).toBe("draft");
    expect(workflowStateOf({ workflowStatus: "whatever", status: "review" })).toBe("in_review");
    expect(workflowStateOf({ workflowStatus: "", status: "archived" })).toBe("archived");
    expect(workflowStateOf({ workflowStatus: null, status: "bogus" })).toBe("draft");
    expect(workflowStateOf({})).toBe("draft");
  });

  it("is exported through core's index", () => {
    expect(core.decideWorkflowTransition).toBe(decideWorkflowTransition);
    expect(core.isLive).toBe(isLive);
  });
});
