import { describe, expect, it } from "vitest";
import {
  contentJsonLd,
  isoDuration,
  isPaywalled,
  PAYWALL_CSS_CLASS,
  type SeoContentInput,
  websiteJsonLd,
  withoutBodyProperties,
} from "./json-ld.ts";

const site = { productName: "Lumen Hub", publicUrl: "https://hub.example" };
const CANONICAL = "https://hub.example/content/evals";

function page(overrides: {
  item?: Partial<SeoContentInput["item"]>;
  seo?: Partial<SeoContentInput["seo"]>;
  video?: SeoContentInput["video"];
}): SeoContentInput {
  return {
    item: {
      slug: "evals",
      title: "Evaluating models",
      type: "article",
      tier: "Pro",
      rolesRequired: [],
      excerpt: "How to evaluate a model before you trust it.",
      tags: ["evaluation", "testing"],
      authorName: "Morgan Lee",
      categoryLabel: "Machine Learning",
      publishedAt: "2026-02-01T09:00:00.000Z",
      updatedAt: "2026-02-03T10:00:00.000Z",
      featuredImage: "/images/evals.png",
      featuredImageAlt: null,
      ...overrides.item,
    },
    seo: {
      title: "Evaluating models",
      description: null,
      canonicalUrl: null,
      ogTitle: null,
      ogDescription: null,
      ogImage: null,
      twitterCard: null,
      noindex: false,
      keywords: [],
      structuredData: null,
      ...overrides.seo,
    },
    video: overrides.video ?? null,
  };
}

describe("content JSON-LD", () => {
  it("generates an Article with Google's paywalled-content markup for a gated item", () => {
    expect(contentJsonLd(page({}), site, CANONICAL)).toEqual({
      "@context": "https://schema.org",
      "@type": "Article",
      url: CANONICAL,
      mainEntityOfPage: CANONICAL,
      headline: "Evaluating models",
      description: "How to evaluate a model before you trust it.",
      datePublished: "2026-02-01T09:00:00.000Z",
      dateModified: "2026-02-03T10:00:00.000Z",
      author: { "@type": "Person", name: "Morgan Lee" },
      publisher: { "@type": "Organization", name: "Lumen Hub", url: "https://hub.example/" },
      image: ["https://hub.example/images/evals.png"],
      keywords: "evaluation, testing",
      articleSection: "Machine Learning",
      isAccessibleForFree: false,
      hasPart: {
        "@type": "WebPageElement",
        isAccessibleForFree: false,
        cssSelector: `.${PAYWALL_CSS_CLASS}`,
      },
    });
  });

  it("marks a Free item as free, without paywall parts, and prefers the meta description", () => {
    const ld = contentJsonLd(
      page({ item: { tier: "Free" }, seo: { description: "Meta description", keywords: ["evals"] } }),
      site,
      CANONICAL,
    ) as Record<string, unknown>;
    expect(ld.isAccessibleForFree).toBe(true);
    expect(ld.hasPart).toBeUndefined();
    expect(ld.description).toBe("Meta description");
    expect(ld.keywords).toBe("evals");
  });

  it("treats a Free item that needs a role as paywalled", () => {
    expect(isPaywalled({ tier: "Free", rolesRequired: ["ContentManager"] })).toBe(true);
    expect(isPaywalled({ tier: "Free", rolesRequired: [] })).toBe(false);
    expect(isPaywalled({ tier: "Basic", rolesRequired: [] })).toBe(true);
  });

  it("generates a Course with the product as provider", () => {
    const ld = contentJsonLd(page({ item: { type: "course", title: "Prompting 101" } }), site, CANONICAL);
    expect(ld).toMatchObject({
      "@type": "Course",
      name: "Prompting 101",
      description: "How to evaluate a model before you trust it.",
      provider: { "@type": "Organization", name: "Lumen Hub" },
      isAccessibleForFree: false,
    });
  });

  it("generates a VideoObject with thumbnail, upload date and duration", () => {
    const ld = contentJsonLd(
      page({
        item: { type: "video", featuredImage: null },
        seo: { ogImage: "https://cdn.example/t.jpg" },
        video: { durationS: 754 },
      }),
      site,
      CANONICAL,
    );
    expect(ld).toMatchObject({
      "@type": "VideoObject",
      name: "Evaluating models",
      thumbnailUrl: ["https://cdn.example/t.jpg"],
      uploadDate: "2026-02-01T09:00:00.000Z",
      duration: "PT12M34S",
    });
    const unknown = contentJsonLd(
      page({ item: { type: "video" }, video: { durationS: 0 } }),
      site,
      CANONICAL,
    );
    expect(unknown).not.toHaveProperty("duration");
  });

  it("uses the item's own structured data, but strips body text from a paywalled item", () => {
    const stored = {
      "@context": "https://schema.org",
      "@type": "NewsArticle",
      headline: "Stored",
      articleBody: "SECRET BODY",
      hasPart: [{ "@type": "Clip", name: "Intro", text: "SECRET CLIP TEXT" }],
    };
    const gated = contentJsonLd(page({ seo: { structuredData: stored } }), site, CANONICAL);
    expect(JSON.stringify(gated)).not.toContain("SECRET");
    expect(gated).toMatchObject({ "@type": "NewsArticle", headline: "Stored", isAccessibleForFree: false });
    const free = contentJsonLd(
      page({ item: { tier: "Free" }, seo: { structuredData: stored } }),
      site,
      CANONICAL,
    );
    expect(free).toEqual(stored);
    const list = contentJsonLd(
      page({ seo: { structuredData: [stored, { "@type": "Thing" }] } }),
      site,
      CANONICAL,
    );
    expect(Array.isArray(list) && list.length).toBe(2);
    expect(JSON.stringify(list)).not.toContain("SECRET");
  });

  it("ignores stored structured data that is not JSON-LD objects", () => {
    for (const structuredData of ["a string", 42, [], ["x"]]) {
      expect(contentJsonLd(page({ seo: { structuredData } }), site, CANONICAL)).toMatchObject({
        "@type": "Article",
      });
    }
  });

  it("removes body properties at any depth", () => {
    expect(withoutBodyProperties({ a: { text: "x", b: [{ articleBody: "y", c: 1 }] } })).toEqual({
      a: { b: [{ c: 1 }] },
    });
  });

  it("formats durations", () => {
    expect(isoDuration(3725)).toBe("PT1H2M5S");
    expect(isoDuration(60)).toBe("PT1M");
    expect(isoDuration(0)).toBeNull();
  });

  it("describes the site with a search action on /?search=", () => {
    expect(websiteJsonLd(site)).toEqual({
      "@context": "https://schema.org",
      "@type": "WebSite",
      name: "Lumen Hub",
      url: "https://hub.example/",
      potentialAction: {
        "@type": "SearchAction",
        target: { "@type": "EntryPoint", urlTemplate: "https://hub.example/?search={search_term_string}" },
        "query-input": "required name=search_term_string",
      },
    });
  });
});
