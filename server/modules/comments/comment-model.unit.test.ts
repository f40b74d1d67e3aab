import { describe, expect, it } from "vitest";
import { BadInputError } from "../../errors.ts";
import { decodeCursor, encodeCursor } from "./comment-model.ts";

const errorOf = (fn: () => unknown): BadInputError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BadInputError);
    return error as BadInputError;
  }
  throw new Error("expected a BadInputError");
};

describe("comments cursor", () => {
  it("reads back what it wrote, with and without the like count", () => {
    const top = { l: 3, c: "2026-01-01T00:00:00.000Z", i: "c1" };
    const oldest = { c: "2026-01-01T00:00:00.000Z", i: "c2" };
    expect(decodeCursor(encodeCursor(top))).toEqual(top);
    expect(decodeCursor(encodeCursor(oldest))).toEqual(oldest);
    expect(encodeCursor(oldest)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("refuses garbage, other shapes and extra keys with a 400 naming the cursor", () => {
    const otherShape = Buffer.from(JSON.stringify({ at: "x", id: "y" })).toString("base64url");
    const extraKey = Buffer.from(JSON.stringify({ c: "x", i: "y", z: 1 })).toString("base64url");
    for (const bad of ["nope!", "", otherShape, extraKey]) {
      const error = errorOf(() => decodeCursor(bad));
      expect(error.message).toBe("Invalid cursor: start again from the first page.");
      expect(error.field).toEqual({ cursor: "is not a cursor of this list" });
    }
  });
});
