import { describe, expect, it } from "vitest";
import { BadInputError } from "../../errors.ts";
import {
  encodeQueueCursor,
  parseActionInput,
  parseQueueQuery,
  parseRestrictInput,
} from "./moderation.schemas.ts";

const fieldOf = (fn: () => unknown): Record<string, string> => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BadInputError);
    return (error as BadInputError).field ?? {};
  }
  throw new Error("expected a BadInputError");
};

describe("parseQueueQuery", () => {
  it("defaults to the reported queue, 25 rows", () => {
    expect(parseQueueQuery({})).toEqual({
      queue: "reported",
      cursor: null,
      limit: 25,
      contentId: null,
      authorId: null,
    });
  });

  it("names the bad parameter", () => {
    expect(Object.keys(fieldOf(() => parseQueueQuery({ queue: "spam" })))).toEqual(["queue"]);
    expect(Object.keys(fieldOf(() => parseQueueQuery({ limit: "101" })))).toEqual(["limit"]);
    expect(Object.keys(fieldOf(() => parseQueueQuery({ limit: "1.5" })))).toEqual(["limit"]);
    expect(fieldOf(() => parseQueueQuery({ sort: "x" }))).toEqual({ sort: "not a known parameter" });
  });

  it("accepts its own cursor and refuses one from another queue or a forged one", () => {
    const cursor = encodeQueueCursor({ q: "pending", at: "2026-01-01T00:00:00.000Z", id: "c1" });
    expect(parseQueueQuery({ queue: "pending", cursor }).cursor).toEqual({
      q: "pending",
      at: "2026-01-01T00:00:00.000Z",
      id: "c1",
    });
    expect(fieldOf(() => parseQueueQuery({ queue: "hidden", cursor }))).toEqual({
      cursor: "belongs to another queue",
    });
    expect(() => parseQueueQuery({ cursor: "not-base64-json" })).toThrow(BadInputError);
  });
});

describe("parseActionInput", () => {
  it("dedupes ids and drops a blank reason", () => {
    expect(parseActionInput({ action: "hide", ids: ["a", "a", "b"], reason: "  " })).toEqual({
      action: "hide",
      ids: ["a", "b"],
      reason: undefined,
    });
  });

  it("refuses an unknown action, no ids, more than 100 ids and a long reason", () => {
    expect(Object.keys(fieldOf(() => parseActionInput({ action: "delete", ids: ["a"] })))).toEqual([
      "action",
    ]);
    expect(Object.keys(fieldOf(() => parseActionInput({ action: "hide", ids: [] })))).toEqual(["ids"]);
    const many = Array.from({ length: 101 }, (_, i) => `c${i}`);
    expect(Object.keys(fieldOf(() => parseActionInput({ action: "hide", ids: many })))).toEqual(["ids"]);
    expect(
      Object.keys(fieldOf(() => parseActionInput({ action: "hide", ids: ["a"], reason: "x".repeat(501) }))),
    ).toEqual(["reason"]);
  });
});

describe("parseRestrictInput", () => {
  it("takes a kind, a duration and a reason", () => {
    expect(
      parseRestrictInput({ userId: "u1", kind: "muted", duration: "7d", reason: "Heated" }),
    ).toMatchObject({
      userId: "u1",
      kind: "muted",
      duration: "7d",
      reason: "Heated",
    });
  });

  it("hides comments only with a ban, and refuses unknown durations", () => {
    expect(
      Object.keys(fieldOf(() => parseRestrictInput({ userId: "u1", kind: "muted", hideComments: true }))),
    ).toEqual(["hideComments"]);
    expect(
      Object.keys(fieldOf(() => parseRestrictInput({ userId: "u1", kind: "banned", duration: "1y" }))),
    ).toEqual(["duration"]);
  });
});
