/**
 * The save rules shared by REST and GraphQL (decision 017): a `status` sent with a save is the
 * transition it stands for, a future publication time schedules instead of publishing, and the
 * workflow fields a REST save may not change are refused naming the field.
 */
import { describe, expect, it } from "vitest";
import { userActor } from "../../../tests/factories/actors.ts";
import { AppError } from "../../errors.ts";
import { refuseWorkflowFields, transitionForStatus } from "./content-saves.ts";

const now = new Date("2026-06-01T12:00:00Z");
const publisher = userActor({ userId: "m-1", groups: ["ContentManager"] });
const writer = userActor({ userId: "w-1", groups: ["ContentCreator"] });

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, field: Object.keys(error.field ?? {}) };
    throw error;
  }
  return null;
};

describe("transitionForStatus", () => {
  it("publishes now when no time or a past time is given, keeping a past time", () => {
    expect(transitionForStatus(publisher, "draft", "draft", "published", undefined, now)).toMatchObject({
      action: "publish",
      to: "published",
      status: "published",
      publishedAt: now,
    });
    const past = "2026-05-01T00:00:00.000Z";
    expect(
      transitionForStatus(publisher, "draft", "draft", "published", past, now)?.publishedAt?.toISOString(),
    ).toBe(past);
  });

  it("schedules, never publishes, when the time is in the future", () => {
    const later = "2026-06-01T12:00:00.001Z";
    expect(transitionForStatus(publisher, "approved", "review", "published", later, now)).toMatchObject({
      action: "schedule",
      to: "scheduled",
      status: "review",
    });
  });

  it("maps the other statuses to submit, archive and restore, and an unchanged status to nothing", () => {
    expect(transitionForStatus(writer, "draft", "draft", "review", null, now)?.action).toBe("submit");
    expect(transitionForStatus(writer, "draft", "draft", "archived", null, now)?.action).toBe("archive");
    expect(transitionForStatus(writer, "archived", "archived", "draft", null, now)?.action).toBe("restore");
    expect(transitionForStatus(writer, "in_review", "review", "review", null, now)).toBeNull();
    expect(transitionForStatus(writer, "draft", "draft", undefined, null, now)).toBeNull();
  });

  it("refuses what the workflow refuses, naming status", () => {
    expect(refusal(() => transitionForStatus(writer, "draft", "draft", "published", null, now))).toEqual({
      code: "FORBIDDEN",
      field: [],
    });
    expect(refusal(() => transitionForStatus(publisher, "in_review", "review", "draft", null, now))).toEqual({
      code: "INVALID_TRANSITION",
      field: ["status"],
    });
  });
});

describe("refuseWorkflowFields", () => {
  const draft: { status: string; publishedAt: string | null } = { status: "draft", publishedAt: null };
  const live = { status: "published", publishedAt: "2026-05-01T00:00:00.000Z" };

  it("always refuses workflowStatus", () => {
    expect(
      refusal(() => refuseWorkflowFields({ workflowStatus: "published" }, { transitionsOnly: false })),
    ).toEqual({
      code: "BAD_USER_INPUT",
      field: ["workflowStatus"],
    });
  });

  it("over REST refuses a status change and an unpublished item's time, and allows the current values", () => {
    const rest = (input: object, current: typeof draft | null) =>
      refusal(() => refuseWorkflowFields(input, { transitionsOnly: true, current }));
    expect(rest({ status: "published" }, draft)).toEqual({ code: "BAD_USER_INPUT", field: ["status"] });
    expect(rest({ status: "review" }, null)).toEqual({ code: "BAD_USER_INPUT", field: ["status"] });
    expect(rest({ publishedAt: "2026-07-01T00:00:00Z" }, draft)).toEqual({
      code: "BAD_USER_INPUT",
      field: ["publishedAt"],
    });
    expect(rest({ status: "draft", publishedAt: null }, draft)).toBeNull();
    expect(rest({ status: "draft" }, null)).toBeNull();
    expect(rest({ publishedAt: "2026-04-01T00:00:00Z" }, live)).toBeNull();
  });
});
