import { describe, expect, it } from "vitest";
import { addSlug, candidatesFrom, moveSlug, removeSlug } from "./parts.ts";

describe("ordered parts", () => {
  const list = ["intro", "setup", "deploy"];

  it("moves an entry one place up or down, and not past either end", () => {
    expect(moveSlug(list, 1, -1)).toEqual(["setup", "intro", "deploy"]);
    expect(moveSlug(list, 1, 1)).toEqual(["intro", "deploy", "setup"]);
    expect(moveSlug(list, 0, -1)).toEqual(list);
    expect(moveSlug(list, 2, 1)).toEqual(list);
    expect(moveSlug(list, 7, 1)).toEqual(list);
  });

  it("removes by slug and adds at the end, never twice and never the item itself", () => {
    expect(removeSlug(list, "setup")).toEqual(["intro", "deploy"]);
    expect(addSlug(list, "extra", "course")).toEqual([...list, "extra"]);
    expect(addSlug(list, "setup", "course")).toEqual(list);
    expect(addSlug(list, "course", "course")).toEqual(list);
  });

  it("reads candidates from the studio list and from the public search", () => {
    expect(
      candidatesFrom({ items: [{ slug: "a", title: "A", type: "video", state: "draft" }, { slug: 3 }] }),
    ).toEqual([{ slug: "a", title: "A", type: "video", state: "draft" }]);
    expect(candidatesFrom({ items: [{ slug: "b", title: "B" }] })).toEqual([
      { slug: "b", title: "B", type: "article", state: null },
    ]);
    expect(candidatesFrom(null)).toEqual([]);
  });
});
