/**
 * Page metadata (React Router `meta` descriptors) from the SEO fields: title, description,
 * canonical link, Open Graph, Twitter card, robots and JSON-LD. Plain objects, so core stays free
 * of React Router; they fit its `MetaDescriptor`.
 */
import { contentJsonLd, type JsonLd, type SeoContentInput, type SeoSite, websiteJsonLd } from "./json-ld.ts";
import { absoluteUrl, contentPathFor, normaliseBaseUrl } from "./urls.ts";

export type MetaTag =
  | { title: string }
  | { name: string; content: string }
  | { property: string; content: string }
  | { tagName: "link"; rel: string; href: string; type?: string; title?: string }
  | { "script:ld+json": JsonLd | JsonLd[] };

/** The feed of the AI News section (RSS 2.0). */
export const AI_NEWS_FEED_PATH = "/ai-news/rss.xml";

const TWITTER_CARDS = new Set(["summary", "summary_large_image", "app", "player"]);

/** "Title · Product", unless the title already names the product. */
export function documentTitle(title: string, productName: string): string {
  return title.includes(productName) ? title : `${title} · ${productName}`;
}

/** The canonical URL of an item: its own canonicalUrl (made absolute), else its one address on this site. */
export function contentCanonicalUrl(
  page: { item: { type: string; slug: string }; seo: { canonicalUrl: string | null } },
  publicUrl: string,
): string {
  return (
    absoluteUrl(page.seo.canonicalUrl, publicUrl) ??
    `${normaliseBaseUrl(publicUrl)}${contentPathFor(page.item)}`
  );
}

/** `<link rel="alternate" type="application/rss+xml">` for the AI News feed. */
export function aiNewsFeedLink(site: SeoSite): MetaTag {
  return {
    tagName: "link",
    rel: "alternate",
    type: "application/rss+xml",
    title: `AI News · ${site.productName}`,
    href: `${normaliseBaseUrl(site.publicUrl)}${AI_NEWS_FEED_PATH}`,
  };
}

function ogType(type: string): string {
  if (type === "video") return "video.other";
  if (type === "article" || type === "markdown") return "article";
  return "website";
}

/** Every tag of a content page (item, course, video, collection). */
export function contentMetaTags(page: SeoContentInput, site: SeoSite, canonicalUrl: string): MetaTag[] {
  const { item, seo } = page;
  const product = site.productName;
  const description = seo.description ?? item.excerpt ?? "";
  const socialTitle = seo.ogTitle ?? seo.title;
  const socialDescription = seo.ogDescription ?? description;
  const image = absoluteUrl(seo.ogImage ?? item.featuredImage, site.publicUrl);
  const type = ogType(item.type);
  const card = seo.twitterCard && TWITTER_CARDS.has(seo.twitterCard) ? seo.twitterCard : null;
  const tags: MetaTag[] = [
    { title: documentTitle(seo.title, product) },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: canonicalUrl },
    { property: "og:type", content: type },
    { property: "og:site_name", content: product },
    { property: "og:title", content: socialTitle },
    { property: "og:description", content: socialDescription },
    { property: "og:url", content: canonicalUrl },
    { name: "twitter:card", content: card ?? (image ? "summary_large_image" : "summary") },
    { name: "twitter:title", content: socialTitle },
    { name: "twitter:description", content: socialDescription },
  ];
  if (image) {
    tags.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
    if (item.featuredImageAlt) {
      tags.push(
        { property: "og:image:alt", content: item.featuredImageAlt },
        { name: "twitter:image:alt", content: item.featuredImageAlt },
      );
    }
  }
  if (type === "article") {
    if (item.publishedAt) tags.push({ property: "article:published_time", content: item.publishedAt });
    tags.push({ property: "article:modified_time", content: item.updatedAt });
    if (item.authorName) tags.push({ property: "article:author", content: item.authorName });
    if (item.categoryLabel) tags.push({ property: "article:section", content: item.categoryLabel });
    for (const tag of item.tags) tags.push({ property: "article:tag", content: tag });
  }
  if (seo.keywords.length > 0) tags.push({ name: "keywords", content: seo.keywords.join(", ") });
  if (item.authorName) tags.push({ name: "author", content: item.authorName });
  if (seo.noindex) tags.push({ name: "robots", content: "noindex, nofollow" });
  tags.push({ "script:ld+json": contentJsonLd(page, site, canonicalUrl) });
  return tags;
}

export interface ListingSeoInput {
  /** The screen's title, without the product name. */
  title: string;
  description: string;
  canonicalUrl: string;
  noindex?: boolean;
  /** Home: the WebSite JSON-LD. */
  website?: boolean;
  /** Home and AI News: the RSS alternate link. */
  feed?: boolean;
}

/** Tags of a listing page (home, sections, categories, pricing). */
export function listingMetaTags(input: ListingSeoInput, site: SeoSite): MetaTag[] {
  const tags: MetaTag[] = [
    { title: documentTitle(input.title, site.productName) },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: input.canonicalUrl },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: site.productName },
    { property: "og:title", content: input.title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: input.canonicalUrl },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: input.description },
  ];
  if (input.noindex) tags.push({ name: "robots", content: "noindex, follow" });
  if (input.feed) tags.push(aiNewsFeedLink(site));
  if (input.website) tags.push({ "script:ld+json": websiteJsonLd(site) });
  return tags;
}
