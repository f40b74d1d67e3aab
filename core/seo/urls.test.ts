import { describe, expect, it } from "vitest";
import { absoluteUrl, contentPathFor, listingCanonicalUrl, normaliseBaseUrl } from "./urls.ts";

describe("SEO URLs", () => {
  it("makes paths absolute against the base URL and refuses non-http schemes", () => {
    expect(absoluteUrl("/images/a.png", "https://hub.example/")).toBe("https://hub.example/images/a.png");
    expect(absoluteUrl("https://cdn.example/x.png", "https://hub.example")).toBe("https://cdn.example/x.png");
    expect(absoluteUrl("javascript:alert(1)", "https://hub.example")).toBeNull();
    expect(absoluteUrl("data:image/png;base64,AAAA", "https://hub.example")).toBeNull();
    expect(absoluteUrl("  ", "https://hub.example")).toBeNull();
    expect(absoluteUrl(null, "https://hub.example")).toBeNull();
    expect(normaliseBaseUrl("https://hub.example//")).toBe("https://hub.example");
  });

  it("gives collections their own address and encodes slugs", () => {
    expect(contentPathFor({ type: "article", slug: "a b" })).toBe("/content/a%20b");
    expect(contentPathFor({ type: "collection", slug: "starter-kit" })).toBe("/collection/starter-kit");
  });

  it("canonicalises listings: pages keep their cursor, filtered views point at the plain page", () => {
    const base = "https://hub.example";
    expect(listingCanonicalUrl(base, "/ai-news", "")).toBe("https://hub.example/ai-news");
    expect(listingCanonicalUrl(base, "/ai-news", "?cursor=abc_-1")).toBe(
      "https://hub.example/ai-news?cursor=abc_-1",
    );
    expect(listingCanonicalUrl(base, "/ai-news", "?tier=pro")).toBe("https://hub.example/ai-news");
    expect(listingCanonicalUrl(base, "/ai-news", "?tier=pro&cursor=abc")).toBe("https://hub.example/ai-news");
    expect(listingCanonicalUrl(base, "/ai-news", "?category=x")).toBe("https://hub.example/ai-news");
    expect(listingCanonicalUrl(base, "/", "?search=llm")).toBe("https://hub.example/");
    expect(listingCanonicalUrl(base, "/ai-news", "?cursor=")).toBe("https://hub.example/ai-news");
  });
});
