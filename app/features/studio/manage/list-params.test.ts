import { describe, expect, it } from "vitest";
import { listHref, listParams, readListUrl, relativeTime } from "./list-params.ts";

const read = (query: string) => readListUrl(new URL(`http://x/content${query}`));

describe("the /content URL", () => {
  it("reads filters, the order and the cursor; ?search= is the sidebar's name for q", () => {
    const { filters, cursor } = read("?search=+prompt+&state=draft&tier=Pro&order=title-asc&cursor=abc");
    expect(filters).toMatchObject({ q: "prompt", state: "draft", tier: "Pro", sort: "title", dir: "asc" });
    expect(cursor).toBe("abc");
    expect(read("?q=a&search=b").filters.q).toBe("a");
    expect(read("?sort=published&dir=asc").filters).toMatchObject({ sort: "published", dir: "asc" });
    expect(read("?sort=views&order=nonsense").filters).toMatchObject({ sort: "updated", dir: "desc" });
  });

  it("passes only the filters that are set to the list operation", () => {
    const { filters } = read("?q=&section=ai-news&author=me");
    expect(listParams(filters, "c1")).toEqual({
      section: "ai-news",
      author: "me",
      sort: "updated",
      dir: "desc",
      cursor: "c1",
    });
  });

  it("builds links that keep the filters, drop defaults and start again at page one", () => {
    const { filters } = read("?q=a b&state=draft&order=title-desc&cursor=old");
    expect(listHref(filters)).toBe("/content?q=a+b&state=draft&sort=title&dir=desc");
    expect(listHref(filters, { state: "" })).toBe("/content?q=a+b&sort=title&dir=desc");
    expect(listHref(filters, { cursor: "next" })).toBe(
      "/content?q=a+b&state=draft&sort=title&dir=desc&cursor=next",
    );
    expect(listHref(read("").filters)).toBe("/content");
  });
});

describe("relativeTime", () => {
  const now = Date.parse("2026-06-10T12:00:00Z");
  it.each([
    ["2026-06-10T11:59:30Z", "just now"],
    ["2026-06-10T11:55:00Z", "5 minutes ago"],
    ["2026-06-10T09:00:00Z", "3 hours ago"],
    ["2026-06-09T12:00:00Z", "yesterday"],
    ["2026-05-20T12:00:00Z", "3 weeks ago"],
    ["2025-06-10T12:00:00Z", "last year"],
    ["2026-06-12T12:00:00Z", "in 2 days"],
  ])("%s → %s", (iso, text) => {
    expect(relativeTime(iso, now)).toBe(text);
  });
});
