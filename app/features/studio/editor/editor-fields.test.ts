import { describe, expect, it } from "vitest";
import {
  emptyFields,
  parseList,
  sameFields,
  serverFieldErrors,
  toPayload,
  validateFields,
} from "./editor-fields.ts";

const valid = () => ({ ...emptyFields(), title: "Hello", slug: "hello" });

describe("the review-by date (decision 038)", () => {
  it("accepts a real day or nothing, and refuses anything else", () => {
    expect(validateFields({ ...valid(), reviewBy: "2027-03-31" })).toEqual({});
    expect(validateFields({ ...valid(), reviewBy: "2027-02-29" }).reviewBy).toMatch(/date/);
    expect(validateFields({ ...valid(), reviewBy: "31/03/2027" }).reviewBy).toMatch(/date/);
  });

  it("sends a change, and null when cleared", () => {
    const saved = { ...valid(), reviewBy: "2027-03-31" };
    expect(toPayload({ ...saved, reviewBy: "2027-06-30" }, saved)).toEqual({ reviewBy: "2027-06-30" });
    expect(toPayload({ ...saved, reviewBy: "" }, saved)).toEqual({ reviewBy: null });
    expect(toPayload(saved, saved)).toEqual({});
  });
});

describe("validateFields (mirrors the server's write schema)", () => {
  it("accepts a minimal item", () => {
    expect(validateFields(valid())).toEqual({});
  });

  it("needs a title and a well-formed slug", () => {
    expect(validateFields(emptyFields())).toMatchObject({
      title: expect.any(String),
      slug: expect.any(String),
    });
    expect(validateFields({ ...valid(), slug: "Hello World" }).slug).toMatch(/Lowercase/);
    expect(validateFields({ ...valid(), slug: "a--b" }).slug).toMatch(/single hyphens/);
    expect(validateFields({ ...valid(), slug: "a".repeat(201) }).slug).toMatch(/200/);
  });

  it("holds texts to the server's limits", () => {
    expect(validateFields({ ...valid(), title: "x".repeat(301) }).title).toMatch(/300/);
    expect(validateFields({ ...valid(), metaDescription: "x".repeat(501) }).metaDescription).toMatch(/500/);
    expect(validateFields({ ...valid(), twitterCard: "x".repeat(51) }).twitterCard).toMatch(/50/);
  });

  it("takes https addresses or paths only", () => {
    expect(validateFields({ ...valid(), canonicalUrl: "http://x.test" }).canonicalUrl).toMatch(/https/);
    expect(validateFields({ ...valid(), ogImage: "javascript:alert(1)" }).ogImage).toMatch(/https/);
    expect(validateFields({ ...valid(), canonicalUrl: "https://x.test/a", ogImage: "/img.png" })).toEqual({});
  });

  it("needs alt text for a featured image, and a whole featured order", () => {
    expect(validateFields({ ...valid(), featuredImage: "/a.png" }).featuredImageAlt).toMatch(/Describe/);
    expect(validateFields({ ...valid(), featuredImage: "/a.png", featuredImageAlt: "A chart" })).toEqual({});
    expect(validateFields({ ...valid(), featuredOrder: "1.5" }).featuredOrder).toMatch(/whole/);
    expect(validateFields({ ...valid(), featuredOrder: "-1" }).featuredOrder).toMatch(/whole/);
  });

  it("checks the structured data and the body's size", () => {
    expect(validateFields({ ...valid(), structuredData: "{" }).structuredData).toMatch(/Line 1/);
    expect(validateFields({ ...valid(), body: "é".repeat(600_000) }).body).toMatch(/1 MiB/);
  });
});

describe("toPayload", () => {
  it("sends the filled fields of a new item", () => {
    const fields = { ...valid(), body: "# Hi", tags: ["a"], structuredData: '{"@type":"Article"}' };
    expect(toPayload(fields, null)).toEqual({
      title: "Hello",
      slug: "hello",
      type: "article",
      tier: "Free",
      noindex: false,
      featured: false,
      tags: ["a"],
      structuredData: { "@type": "Article" },
      body: "# Hi",
    });
  });

  it("sends only what changed since the last save, clearing with null", () => {
    const saved = { ...valid(), excerpt: "Old", body: "text" };
    expect(toPayload({ ...saved, excerpt: "", featuredOrder: "3" }, saved)).toEqual({
      excerpt: null,
      featuredOrder: 3,
    });
    expect(toPayload(saved, saved)).toEqual({});
  });
});

describe("helpers", () => {
  it("parses comma lists", () => {
    expect(parseList(" a, b ,,a, c ")).toEqual(["a", "b", "c"]);
  });

  it("compares forms by value", () => {
    expect(sameFields({ ...valid(), tags: ["a"] }, { ...valid(), tags: ["a"] })).toBe(true);
    expect(sameFields({ ...valid(), tags: ["a"] }, { ...valid(), tags: ["b"] })).toBe(false);
  });

  it("maps the server's field names onto the form", () => {
    expect(
      serverFieldErrors({ "input.slug": "taken", category: "no such category", version: "stale" }),
    ).toEqual({
      slug: "taken",
      categorySlug: "no such category",
    });
  });
});
