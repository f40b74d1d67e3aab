import type { MetaDescriptor } from "react-router";
import { productNameFrom } from "../../lib/meta.ts";
import type { ContentMissingData, ContentPageData } from "./content-data.ts";

interface MetaArgsLike {
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
}

function absolute(url: string | null, origin: string): string | null {
  if (!url) return null;
  try {
    return new URL(url, origin).toString();
  } catch {
    return null;
  }
}

/** Page metadata from the content's SEO fields: title, description, Open Graph, Twitter, canonical, robots. */
export function contentMeta(
  args: MetaArgsLike,
  data: ContentPageData | ContentMissingData | undefined,
): MetaDescriptor[] {
  const product = productNameFrom(args);
  if (!data?.page) {
    return [
      { title: `Content Not Found · ${product}` },
      { name: "description", content: "The requested content could not be loaded." },
      { name: "robots", content: "noindex" },
    ];
  }
  const { page, canonicalUrl, origin } = data as ContentPageData;
  const { seo, item } = page;
  const description = seo.description ?? item.excerpt ?? "";
  const ogTitle = seo.ogTitle ?? seo.title;
  const ogDescription = seo.ogDescription ?? description;
  const image = absolute(seo.ogImage ?? item.featuredImage, origin);
  const tags: MetaDescriptor[] = [
    { title: seo.title.includes(product) ? seo.title : `${seo.title} · ${product}` },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: canonicalUrl },
    { property: "og:type", content: "article" },
    { property: "og:site_name", content: product },
    { property: "og:title", content: ogTitle },
    { property: "og:description", content: ogDescription },
    { property: "og:url", content: canonicalUrl },
    { name: "twitter:card", content: seo.twitterCard ?? (image ? "summary_large_image" : "summary") },
    { name: "twitter:title", content: ogTitle },
    { name: "twitter:description", content: ogDescription },
  ];
  if (image) {
    tags.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
    if (item.featuredImageAlt) tags.push({ property: "og:image:alt", content: item.featuredImageAlt });
  }
  if (seo.keywords.length > 0) tags.push({ name: "keywords", content: seo.keywords.join(", ") });
  if (item.authorName) tags.push({ name: "author", content: item.authorName });
  if (item.publishedAt) tags.push({ property: "article:published_time", content: item.publishedAt });
  if (seo.noindex) tags.push({ name: "robots", content: "noindex" });
  if (seo.structuredData && typeof seo.structuredData === "object") {
    tags.push({ "script:ld+json": seo.structuredData as Record<string, unknown> });
  }
  return tags;
}
