import { describe, expect, it } from "vitest";
import { moved, tabOf } from "./admin-content.server.ts";

describe("moved (Move up / Move down without JavaScript)", () => {
  it("swaps with the neighbour in the direction asked", () => {
    expect(moved(["a", "b", "c"], "b", "up")).toEqual(["b", "a", "c"]);
    expect(moved(["a", "b", "c"], "b", "down")).toEqual(["a", "c", "b"]);
  });
  it("leaves the order alone at an end, for an unknown id or direction", () => {
    expect(moved(["a", "b"], "a", "up")).toEqual(["a", "b"]);
    expect(moved(["a", "b"], "b", "down")).toEqual(["a", "b"]);
    expect(moved(["a", "b"], "x", "up")).toEqual(["a", "b"]);
    expect(moved(["a", "b"], "a", "sideways")).toEqual(["a", "b"]);
  });
  it("reads the tab from the URL, All content by default", () => {
    expect(tabOf(new URL("http://x/admin/content?tab=featured"))).toBe("featured");
    expect(tabOf(new URL("http://x/admin/content?tab=nope"))).toBe("all");
    expect(tabOf(new URL("http://x/admin/content"))).toBe("all");
  });
});
