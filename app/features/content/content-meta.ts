import type { MetaDescriptor } from "react-router";
import { contentMetaTags } from "../../../core/seo/index.ts";
import { seoSiteFrom } from "../../lib/seo-meta.ts";
import type { ContentMissingData, ContentPageData } from "./content-data.ts";

interface MetaArgsLike {
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
}

/**
 * Page metadata from the content's SEO fields (core/seo): title, description, canonical, Open Graph,
 * Twitter, article times and tags, robots and JSON-LD. The JSON-LD goes out through React Router's
 * `script:ld+json` descriptor, which escapes `<`, `>`, `&`, U+2028 and U+2029, so no stored text can
 * close the script element; it is a data block, so the page's script CSP does not apply to it.
 */
export function contentMeta(
  args: MetaArgsLike,
  data: ContentPageData | ContentMissingData | undefined,
): MetaDescriptor[] {
  const site = seoSiteFrom(args);
  if (!data?.page) {
    return [
      { title: `Content Not Found · ${site.productName}` },
      { name: "description", content: "The requested content could not be loaded." },
      { name: "robots", content: "noindex" },
    ];
  }
  const tags = contentMetaTags(data.page, site, data.canonicalUrl);
  if (!data.preview) return tags;
  // A preview is one writer's view: never indexed, whatever the item says.
  return [
    ...tags.filter((t) => !("name" in t && t.name === "robots")),
    { name: "robots", content: "noindex, nofollow" },
  ];
}
