/**
 * schema.org JSON-LD for content and listing pages. The item's own `structuredData` wins when it
 * holds an object (or a list of objects); otherwise an Article, Course or VideoObject is generated
 * from the item's metadata. Neither ever carries the body: a paywalled item's stored JSON-LD loses
 * any body-like property (articleBody, text, transcript) and is marked `isAccessibleForFree: false`,
 * with Google's paywalled-content markup (`hasPart` → WebPageElement with a CSS selector).
 *
 * Escaping for the HTML page is done where the JSON is written: React Router's `script:ld+json`
 * meta descriptor escapes `<`, `>`, `&`, U+2028 and U+2029 as `\u003c` … (its `escapeHtml`).
 */
import { isFreeTier } from "../access.ts";
import type { Tier } from "../tiers.ts";
import { absoluteUrl, normaliseBaseUrl } from "./urls.ts";

export type JsonLd = Record<string, unknown>;

/** What the builders need to know about the site. */
export interface SeoSite {
  productName: string;
  /** Absolute base URL without a trailing slash, e.g. "https://hub.example.com". */
  publicUrl: string;
}

/** The class of the element that stands for a paywalled body (the paywall panel, or the body for members). */
export const PAYWALL_CSS_CLASS = "paywalled-content";

/** The metadata of a content page the builders read (the content service's `ContentPage` fits). */
export interface SeoContentInput {
  item: {
    slug: string;
    title: string;
    type: string;
    tier: Tier;
    rolesRequired: readonly string[];
    excerpt: string | null;
    tags: readonly string[];
    authorName: string | null;
    categoryLabel: string | null;
    publishedAt: string | null;
    updatedAt: string;
    featuredImage: string | null;
    featuredImageAlt: string | null;
  };
  seo: {
    title: string;
    description: string | null;
    canonicalUrl: string | null;
    ogTitle: string | null;
    ogDescription: string | null;
    ogImage: string | null;
    twitterCard: string | null;
    noindex: boolean;
    keywords: readonly string[];
    structuredData: unknown;
  };
  video: { durationS: number } | null;
}

/** Paywalled for everyone who is not entitled: any tier above Free, or any required role. */
export function isPaywalled(item: { tier: Tier; rolesRequired: readonly string[] }): boolean {
  return !isFreeTier(item.tier) || item.rolesRequired.length > 0;
}

/** Properties that hold a work's full text in schema.org; never published for a paywalled item. */
const BODY_PROPERTIES = new Set(["articleBody", "text", "transcript", "reviewBody", "backstory"]);

/** A deep copy without body-like properties at any depth. */
export function withoutBodyProperties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutBodyProperties);
  if (value && typeof value === "object") {
    const out: JsonLd = {};
    for (const [key, v] of Object.entries(value)) {
      if (!BODY_PROPERTIES.has(key)) out[key] = withoutBodyProperties(v);
    }
    return out;
  }
  return value;
}

/** Drops undefined, null, empty strings and empty lists (tidy output, and nothing "null" for crawlers). */
function compact(object: JsonLd): JsonLd {
  const out: JsonLd = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}

/** 3725 → "PT1H2M5S". */
export function isoDuration(totalSeconds: number): string | null {
  const s = Math.floor(totalSeconds);
  if (!Number.isFinite(s) || s <= 0) return null;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${sec ? `${sec}S` : ""}`;
}

/** Google truncates longer headlines; keep them within 110 characters. */
function headline(title: string): string {
  return title.length <= 110 ? title : `${title.slice(0, 109).trimEnd()}…`;
}

function paywallMarkup(paywalled: boolean): JsonLd {
  return paywalled
    ? {
        isAccessibleForFree: false,
        hasPart: {
          "@type": "WebPageElement",
          isAccessibleForFree: false,
          cssSelector: `.${PAYWALL_CSS_CLASS}`,
        },
      }
    : { isAccessibleForFree: true };
}

const isObject = (value: unknown): value is JsonLd =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The stored structured data, when it is usable JSON-LD: an object or a non-empty list of objects. */
function storedJsonLd(value: unknown): JsonLd | JsonLd[] | null {
  if (isObject(value)) return value;
  if (Array.isArray(value) && value.length > 0 && value.every(isObject)) return value;
  return null;
}

/** JSON-LD for a content page whose canonical address is `canonicalUrl`. */
export function contentJsonLd(page: SeoContentInput, site: SeoSite, canonicalUrl: string): JsonLd | JsonLd[] {
  const { item, seo } = page;
  const paywalled = isPaywalled(item);
  const stored = storedJsonLd(seo.structuredData);
  if (stored) {
    if (!paywalled) return stored;
    const mark = (o: JsonLd): JsonLd => ({
      ...(withoutBodyProperties(o) as JsonLd),
      isAccessibleForFree: false,
    });
    return Array.isArray(stored) ? stored.map(mark) : mark(stored);
  }
  const base = normaliseBaseUrl(site.publicUrl);
  const description = seo.description ?? item.excerpt;
  const image = absoluteUrl(seo.ogImage ?? item.featuredImage, base);
  const keywords = (seo.keywords.length > 0 ? seo.keywords : item.tags).join(", ");
  const organization = { "@type": "Organization", name: site.productName, url: `${base}/` };
  const head = (type: string) => ({ "@context": "https://schema.org", "@type": type, url: canonicalUrl });
  const paywall = paywallMarkup(paywalled);
  if (item.type === "course") {
    return compact({
      ...head("Course"),
      name: item.title,
      description,
      provider: organization,
      image: image ? [image] : undefined,
      keywords,
      datePublished: item.publishedAt,
      dateModified: item.updatedAt,
      ...paywall,
    });
  }
  if (item.type === "video") {
    return compact({
      ...head("VideoObject"),
      name: item.title,
      description,
      thumbnailUrl: image ? [image] : undefined,
      uploadDate: item.publishedAt ?? item.updatedAt,
      duration: page.video ? isoDuration(page.video.durationS) : null,
      keywords,
      ...paywall,
    });
  }
  return compact({
    ...head("Article"),
    headline: headline(item.title),
    description,
    mainEntityOfPage: canonicalUrl,
    datePublished: item.publishedAt,
    dateModified: item.updatedAt,
    author: item.authorName ? { "@type": "Person", name: item.authorName } : undefined,
    publisher: organization,
    image: image ? [image] : undefined,
    keywords,
    articleSection: item.categoryLabel,
    ...paywall,
  });
}

/** The home page's WebSite object with a SearchAction on /?search=. */
export function websiteJsonLd(site: SeoSite): JsonLd {
  const base = normaliseBaseUrl(site.publicUrl);
  return {
    "@context": "https://schema.org",
    "@type": "WebSite",
    name: site.productName,
    url: `${base}/`,
    potentialAction: {
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: `${base}/?search={search_term_string}` },
      "query-input": "required name=search_term_string",
    },
  };
}
