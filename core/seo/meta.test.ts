import { describe, expect, it } from "vitest";
import type { SeoContentInput } from "./json-ld.ts";
import {
  contentCanonicalUrl,
  contentMetaTags,
  documentTitle,
  listingMetaTags,
  type MetaTag,
} from "./meta.ts";

const site = { productName: "Lumen Hub", publicUrl: "https://hub.example" };

const base: SeoContentInput = {
  item: {
    slug: "evals",
    title: "Evaluating models",
    type: "article",
    tier: "Pro",
    rolesRequired: [],
    excerpt: "The excerpt.",
    tags: ["evaluation", "testing"],
    authorName: "Morgan Lee",
    categoryLabel: null,
    publishedAt: "2026-02-01T09:00:00.000Z",
    updatedAt: "2026-02-03T10:00:00.000Z",
    featuredImage: null,
    featuredImageAlt: null,
  },
  seo: {
    title: "How to evaluate models",
    description: "Meta description.",
    canonicalUrl: null,
    ogTitle: null,
    ogDescription: null,
    ogImage: null,
    twitterCard: null,
    noindex: false,
    keywords: [],
    structuredData: null,
  },
  video: null,
};

function value(tags: MetaTag[], key: string): string | undefined {
  for (const t of tags) {
    const r = t as Record<string, unknown>;
    if (r.name === key || r.property === key) return r.content as string;
    if (key === "title" && "title" in r && !("tagName" in r)) return r.title as string;
    if (key === "canonical" && r.rel === "canonical") return r.href as string;
  }
  return undefined;
}
const all = (tags: MetaTag[], key: string) =>
  tags
    .filter((t) => (t as Record<string, unknown>).property === key)
    .map((t) => (t as { content: string }).content);

describe("content meta tags", () => {
  it("builds title, description, canonical, Open Graph, Twitter and article tags", () => {
    const canonical = contentCanonicalUrl(base, site.publicUrl);
    expect(canonical).toBe("https://hub.example/content/evals");
    const tags = contentMetaTags(base, site, canonical);
    expect(value(tags, "title")).toBe("How to evaluate models · Lumen Hub");
    expect(value(tags, "description")).toBe("Meta description.");
    expect(value(tags, "canonical")).toBe(canonical);
    expect(value(tags, "og:url")).toBe(canonical);
    expect(value(tags, "og:type")).toBe("article");
    expect(value(tags, "og:site_name")).toBe("Lumen Hub");
    expect(value(tags, "og:title")).toBe("How to evaluate models");
    expect(value(tags, "twitter:card")).toBe("summary");
    expect(value(tags, "og:image")).toBeUndefined();
    expect(value(tags, "article:published_time")).toBe("2026-02-01T09:00:00.000Z");
    expect(value(tags, "article:modified_time")).toBe("2026-02-03T10:00:00.000Z");
    expect(value(tags, "article:author")).toBe("Morgan Lee");
    expect(all(tags, "article:tag")).toEqual(["evaluation", "testing"]);
    expect(value(tags, "robots")).toBeUndefined();
    expect(tags.some((t) => "script:ld+json" in t)).toBe(true);
  });

  it("uses the social overrides, an absolute image and a large card for it", () => {
    const tags = contentMetaTags(
      {
        ...base,
        item: { ...base.item, featuredImageAlt: "A chart" },
        seo: { ...base.seo, ogTitle: "Social title", ogDescription: "Social text", ogImage: "/img/x.png" },
      },
      site,
      "https://hub.example/content/evals",
    );
    expect(value(tags, "og:title")).toBe("Social title");
    expect(value(tags, "twitter:description")).toBe("Social text");
    expect(value(tags, "og:image")).toBe("https://hub.example/img/x.png");
    expect(value(tags, "twitter:image")).toBe("https://hub.example/img/x.png");
    expect(value(tags, "og:image:alt")).toBe("A chart");
    expect(value(tags, "twitter:card")).toBe("summary_large_image");
  });

  it("keeps a valid stored Twitter card and ignores an invalid one", () => {
    const withCard = (twitterCard: string) =>
      value(
        contentMetaTags({ ...base, seo: { ...base.seo, twitterCard } }, site, "https://x/"),
        "twitter:card",
      );
    expect(withCard("summary_large_image")).toBe("summary_large_image");
    expect(withCard("bogus")).toBe("summary");
  });

  it("maps types to Open Graph types and only articles get article:* tags", () => {
    const typed = (type: string) =>
      contentMetaTags({ ...base, item: { ...base.item, type } }, site, "https://x/");
    expect(value(typed("video"), "og:type")).toBe("video.other");
    expect(value(typed("markdown"), "og:type")).toBe("article");
    expect(value(typed("course"), "og:type")).toBe("website");
    expect(value(typed("course"), "article:published_time")).toBeUndefined();
  });

  it("asks robots not to index or follow a noindex item", () => {
    const tags = contentMetaTags({ ...base, seo: { ...base.seo, noindex: true } }, site, "https://x/");
    expect(value(tags, "robots")).toBe("noindex, nofollow");
  });

  it("takes the item's canonical URL when set, made absolute", () => {
    const set = (canonicalUrl: string) =>
      contentCanonicalUrl({ ...base, seo: { ...base.seo, canonicalUrl } }, site.publicUrl);
    expect(set("/content/original")).toBe("https://hub.example/content/original");
    expect(set("https://elsewhere.example/post")).toBe("https://elsewhere.example/post");
    expect(set("javascript:alert(1)")).toBe("https://hub.example/content/evals");
    expect(contentCanonicalUrl({ ...base, item: { ...base.item, type: "collection" } }, site.publicUrl)).toBe(
      "https://hub.example/collection/evals",
    );
  });

  it("does not repeat the product name in the title", () => {
    expect(documentTitle("Lumen Hub guide", "Lumen Hub")).toBe("Lumen Hub guide");
  });
});

describe("listing meta tags", () => {
  it("builds the basic tags and the optional noindex, feed link and WebSite JSON-LD", () => {
    const plain = listingMetaTags(
      { title: "AI News", description: "News.", canonicalUrl: "https://hub.example/ai-news" },
      site,
    );
    expect(value(plain, "title")).toBe("AI News · Lumen Hub");
    expect(value(plain, "canonical")).toBe("https://hub.example/ai-news");
    expect(value(plain, "og:type")).toBe("website");
    expect(value(plain, "robots")).toBeUndefined();
    expect(plain.some((t) => "script:ld+json" in t)).toBe(false);

    const home = listingMetaTags(
      {
        title: "Home",
        description: "d",
        canonicalUrl: "https://hub.example/",
        noindex: true,
        feed: true,
        website: true,
      },
      site,
    );
    expect(value(home, "robots")).toBe("noindex, follow");
    expect(home).toContainEqual({
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: "AI News · Lumen Hub",
      href: "https://hub.example/ai-news/rss.xml",
    });
    expect(home.some((t) => "script:ld+json" in t)).toBe(true);
  });
});
