import { describe, expect, it } from "vitest";
import { BadInputError } from "../../errors.ts";
import { encodeStudioCursor, parseStudioListQuery } from "./studio-list-query.ts";

/** The field map of the 400 a query is refused with. */
function refusal(raw: Record<string, unknown>): Record<string, string> {
  try {
    parseStudioListQuery(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(BadInputError);
    return (error as BadInputError).field ?? {};
  }
  throw new Error("the query was accepted");
}

describe("parseStudioListQuery", () => {
  it("defaults: every item, newest update first, 25 a page", () => {
    expect(parseStudioListQuery({})).toEqual({
      q: null,
      state: null,
      section: null,
      category: null,
      tier: null,
      type: null,
      author: null,
      sort: "updated",
      dir: "desc",
      limit: 25,
      cursor: null,
    });
  });

  it("reads every filter, trims the search and treats empty values as not given", () => {
    const query = parseStudioListQuery({
      q: "  prompt  ",
      state: "changes_requested",
      section: "ai-news",
      category: "ai-basics",
      tier: "pro",
      type: "video",
      author: "me",
      sort: "title",
      dir: "asc",
      limit: "100",
    });
    expect(query).toMatchObject({
      q: "prompt",
      state: "changes_requested",
      section: "ai-news",
      category: "ai-basics",
      tier: "Pro",
      type: "video",
      author: "me",
      sort: "title",
      dir: "asc",
      limit: 100,
    });
    expect(parseStudioListQuery({ q: "   ", state: "", tier: "" })).toMatchObject({
      q: null,
      state: null,
      tier: null,
    });
  });

  it.each([
    [{ state: "live" }, "state"],
    [{ section: "elsewhere" }, "section"],
    [{ category: "Not A Slug" }, "category"],
    [{ tier: "gold" }, "tier"],
    [{ type: "podcast" }, "type"],
    [{ author: "drop table" }, "author"],
    [{ sort: "views" }, "sort"],
    [{ dir: "up" }, "dir"],
    [{ limit: "0" }, "limit"],
    [{ limit: "101" }, "limit"],
    [{ limit: "2.5" }, "limit"],
    [{ limit: "many" }, "limit"],
    [{ q: "x".repeat(201) }, "q"],
    [{ state: ["draft", "archived"] }, "state"],
    [{ cursor: "not a cursor!" }, "cursor"],
    [{ cursor: "e30" }, "cursor"],
    [{ colour: "red" }, "colour"],
  ])("refuses %j naming %s", (raw, field) => {
    expect(Object.keys(refusal(raw))).toEqual([field]);
  });

  it("accepts its own cursor for the same sort and direction only", () => {
    const cursor = encodeStudioCursor({ sort: "title", dir: "asc", key: "b", id: "x1" });
    expect(parseStudioListQuery({ sort: "title", dir: "asc", cursor }).cursor).toEqual({
      sort: "title",
      dir: "asc",
      key: "b",
      id: "x1",
    });
    expect(Object.keys(refusal({ sort: "title", dir: "desc", cursor }))).toEqual(["cursor"]);
    expect(Object.keys(refusal({ sort: "updated", dir: "asc", cursor }))).toEqual(["cursor"]);
    // A time sort's key is a number: a text key is not one of its cursors.
    const forged = encodeStudioCursor({ sort: "updated", dir: "desc", key: "1", id: "x1" });
    expect(Object.keys(refusal({ cursor: forged }))).toEqual(["cursor"]);
  });
});
