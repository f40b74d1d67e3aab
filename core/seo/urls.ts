/**
 * Absolute URLs for canonical links, Open Graph, the sitemap and the feed. The origin is the
 * app's public base URL (PUBLIC_URL, else the address derived from HOST and PORT), never the
 * request's Host header: pages are cached for visitors, and a forged Host must not end up in them.
 */

/** "https://hub.example.com/" → "https://hub.example.com" (no trailing slash). */
export function normaliseBaseUrl(base: string): string {
  return base.replace(/\/+$/, "");
}

/**
 * A path or URL made absolute against the base URL; null when empty or when it is not http(s)
 * (a stored `javascript:` or `data:` value never reaches a link or a meta tag).
 */
export function absoluteUrl(value: string | null | undefined, base: string): string | null {
  if (!value?.trim()) return null;
  try {
    const url = new URL(value.trim(), `${normaliseBaseUrl(base)}/`);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The one address of an item: collections live at /collection/{slug}, everything else at /content/{slug}. */
export function contentPathFor(item: { type: string; slug: string }): string {
  const prefix = item.type === "collection" ? "/collection/" : "/content/";
  return `${prefix}${encodeURIComponent(item.slug)}`;
}

/**
 * The canonical address of a listing page at `path` (already the preferred path, e.g. "/ai-education"
 * for "/section/ai-education"):
 * - a filtered listing (?tier=, ?category=, ?type=, ?search= or any other parameter) → the unfiltered page;
 * - a page of results (only ?cursor=) → itself, with the cursor;
 * - otherwise the plain path.
 */
export function listingCanonicalUrl(base: string, path: string, search: string): string {
  const params = new URLSearchParams(search);
  const keys = [...new Set(params.keys())];
  const cursor = params.get("cursor");
  const own = `${normaliseBaseUrl(base)}${path}`;
  if (keys.length === 1 && keys[0] === "cursor" && cursor) {
    return `${own}?${new URLSearchParams({ cursor }).toString()}`;
  }
  return own;
}
