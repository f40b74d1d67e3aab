/**
 * XML sitemaps (sitemaps.org 0.9). One `<urlset>` holds at most 50,000 URLs; a larger site is
 * served as a `<sitemapindex>` at /sitemap.xml pointing at numbered pages (/sitemaps/1.xml …).
 */
import { escapeXml, XML_DECLARATION, xmlElement } from "./xml.ts";

/** The protocol's limit of URLs per sitemap file. */
export const SITEMAP_URL_LIMIT = 50_000;

const NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";

export interface SitemapUrl {
  /** Absolute URL. */
  loc: string;
  /** Last modification (ISO 8601); omitted when unknown or not a date. */
  lastmod?: string | null;
}

function w3cDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function entry(tag: "url" | "sitemap", url: SitemapUrl): string {
  return `<${tag}>${xmlElement("loc", url.loc)}${xmlElement("lastmod", w3cDate(url.lastmod))}</${tag}>`;
}

export function renderUrlset(urls: readonly SitemapUrl[]): string {
  return `${XML_DECLARATION}\n<urlset xmlns="${escapeXml(NAMESPACE)}">\n${urls
    .map((u) => entry("url", u))
    .join("\n")}\n</urlset>\n`;
}

export function renderSitemapIndex(sitemaps: readonly SitemapUrl[]): string {
  return `${XML_DECLARATION}\n<sitemapindex xmlns="${escapeXml(NAMESPACE)}">\n${sitemaps
    .map((s) => entry("sitemap", s))
    .join("\n")}\n</sitemapindex>\n`;
}

/** How many sitemap files `total` URLs need (at least one). */
export function sitemapPageCount(total: number, limit: number = SITEMAP_URL_LIMIT): number {
  return Math.max(1, Math.ceil(total / Math.max(1, limit)));
}

/** The URLs of page `page` (1-based), or null when there is no such page. */
export function sitemapPage<T>(
  urls: readonly T[],
  page: number,
  limit: number = SITEMAP_URL_LIMIT,
): T[] | null {
  if (!Number.isInteger(page) || page < 1 || page > sitemapPageCount(urls.length, limit)) return null;
  return urls.slice((page - 1) * limit, page * limit);
}

/** The newest of some ISO dates (null for none). */
export function newest(dates: Iterable<string | null | undefined>): string | null {
  let best: string | null = null;
  let bestTime = Number.NEGATIVE_INFINITY;
  for (const d of dates) {
    const time = d ? Date.parse(d) : Number.NaN;
    if (!Number.isNaN(time) && time > bestTime) {
      bestTime = time;
      best = d!;
    }
  }
  return best;
}
