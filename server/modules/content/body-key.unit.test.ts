import { describe, expect, it } from "vitest";
import { bodyAreaAllows, contentBodyKeyOf, ownBodyKey } from "./body-key.ts";

describe("body keys belong to their item", () => {
  it("derives content/<tier>/<category>/<slug>.md, the seed's layout", () => {
    expect(contentBodyKeyOf({ tier: "Pro", categorySlug: "prompting", slug: "a-b" })).toBe(
      "content/pro/prompting/a-b.md",
    );
    expect(contentBodyKeyOf({ tier: "Free", categorySlug: null, slug: "x" })).toBe(
      "content/free/uncategorized/x.md",
    );
    expect(contentBodyKeyOf({ tier: "Free", categorySlug: "..", slug: "x" })).toBeNull();
  });

  it("reads only the item's own key: another item's body or a private object is never the body", () => {
    const item = { tier: "Free", categorySlug: null, slug: "x" };
    expect(ownBodyKey({ ...item, bodyS3Key: "content/free/uncategorized/x.md" })).toBe(
      "content/free/uncategorized/x.md",
    );
    expect(ownBodyKey({ ...item, bodyS3Key: "content/enterprise/secret/y.md" })).toBeNull();
    expect(ownBodyKey({ ...item, bodyS3Key: "content/free/uncategorized/y.md" })).toBeNull();
    expect(ownBodyKey({ ...item, bodyS3Key: "private/u1/avatar.png" })).toBeNull();
    expect(ownBodyKey({ ...item, bodyS3Key: null })).toBeNull();
  });

  it("links a body only within the content areas the reader's plan reaches", () => {
    expect(bodyAreaAllows("content/free/x/a.md", null)).toBe(true);
    expect(bodyAreaAllows("content/basic/x/a.md", null)).toBe(false);
    expect(bodyAreaAllows("content/pro/x/a.md", "Basic")).toBe(false);
    expect(bodyAreaAllows("content/pro/x/a.md", "Pro")).toBe(true);
    expect(bodyAreaAllows("content/enterprise/x/a.md", "Enterprise")).toBe(true);
    expect(bodyAreaAllows("private/u1/avatar.png", "Enterprise")).toBe(false);
    expect(bodyAreaAllows("content/legend/x/a.md", "Enterprise")).toBe(false);
  });
});
