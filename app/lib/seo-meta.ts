/**
 * Route `meta` helpers over core's SEO builders: they read the product name and the public base
 * URL from the root loader's config, so no route reads the environment.
 */
import type { MetaDescriptor } from "react-router";
import { getRoute } from "../../core/index.ts";
import { listingCanonicalUrl, listingMetaTags, type SeoSite } from "../../core/seo/index.ts";
import { productNameFrom } from "./meta.ts";

interface MetaArgsLike {
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
  location: { search: string };
}

/** Product name and public base URL from the root loader. */
export function seoSiteFrom(args: Pick<MetaArgsLike, "matches">): SeoSite {
  const root = args.matches.find((m) => m?.id === "root")?.loaderData as
    | { config?: { publicUrl?: string } }
    | undefined;
  return { productName: productNameFrom(args), publicUrl: root?.config?.publicUrl ?? "" };
}

export interface ListingMetaInput {
  title: string;
  description: string;
  /** The preferred path of this listing, e.g. "/ai-education" (also for /section/ai-education). */
  path: string;
  noindex?: boolean;
  feed?: boolean;
  website?: boolean;
}

/** Title, description, canonical (page cursor kept, filters dropped), Open Graph and Twitter tags. */
export function listingMeta(args: MetaArgsLike, input: ListingMetaInput): MetaDescriptor[] {
  const site = seoSiteFrom(args);
  return listingMetaTags(
    { ...input, canonicalUrl: listingCanonicalUrl(site.publicUrl, input.path, args.location.search) },
    site,
  );
}

/** `listingMeta` for a registry route: its label as the title, its description unless one is given. */
export function registryListingMeta(
  args: MetaArgsLike,
  path: string,
  options: { description?: string; feed?: boolean } = {},
): MetaDescriptor[] {
  const route = getRoute(path);
  return listingMeta(args, {
    title: route.label,
    description: options.description ?? route.description,
    path,
    feed: options.feed,
  });
}
