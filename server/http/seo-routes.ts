/**
 * Crawler-facing documents, served by Hono before the React Router catch-all:
 * - /robots.txt        from core's route registry (signed-in routes disallowed) plus the sitemap line;
 * - /sitemap.xml       home, section pages, /pricing, category pages, collections and every published,
 *                      indexable item; a sitemap index over /sitemaps/{n}.xml past 50,000 URLs;
 *                      lastmod is each item's last real change (`lastChangeOf`), a listing's its
 *                      newest item's;
 * - /ai-news/rss.xml   RSS 2.0 of the latest 20 AI News items (title, link, date, excerpt, category).
 *
 * Everything is read through the content service as a visitor, so nothing appears here that a
 * visitor could not see on the site: titles, excerpts and addresses, never bodies. Gated items are
 * listed (their pages are public: title, excerpt, paywall); unpublished and noindex items are not.
 * `isPublic` is not consulted: the seed and the editors set it to "readable without a plan", which
 * says nothing about whether the page may be indexed.
 */
import type { Hono } from "hono";
import {
  AI_NEWS_FEED_PATH,
  contentPathFor,
  newest,
  normaliseBaseUrl,
  type RssItem,
  renderRobots,
  renderRss,
  renderSitemapIndex,
  renderUrlset,
  robotsRules,
  SITEMAP_URL_LIMIT,
  type SitemapUrl,
  sitemapPage,
  sitemapPageCount,
} from "../../core/seo/index.ts";
import { type Actor, visitorActor } from "../modules/actor.ts";
import type { ContentService } from "../modules/content/content.service.ts";
import type { ContentSummary, ListContentQuery } from "../modules/content/content.types.ts";
import type { Runtime } from "../runtime.ts";

export interface SeoRoutesOptions {
  /** URLs per sitemap file before /sitemap.xml becomes an index (tests inject a small one). */
  maxUrlsPerSitemap?: number;
  /** How long the collected sitemap and feed are reused (ms). */
  cacheTtlMs?: number;
  now?: () => number;
}

const XML_TYPE = "application/xml; charset=utf-8";
const RSS_TYPE = "application/rss+xml; charset=utf-8";
const PUBLIC_CACHE = "public, max-age=300";
const FEED_SIZE = 20;
const PAGE_SIZE = 100;
const AI_NEWS = "ai-news";

/** Every indexable item matching `query`, newest first, read page by page as `actor`. */
async function listAllIndexable(
  content: ContentService,
  actor: Actor,
  query: ListContentQuery = {},
): Promise<ContentSummary[]> {
  const items: ContentSummary[] = [];
  let cursor: string | null = null;
  do {
    const page = await content.list(actor, {
      ...query,
      indexable: true,
      publishedOnly: true,
      limit: PAGE_SIZE,
      cursor,
    });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/**
 * The last real change of an item (decision 038): its last edit, publication or workflow move
 * (`updatedAt`; counters such as views, likes, shares and comments never touch it) or its last
 * review, whichever is later.
 */
export function lastChangeOf(item: Pick<ContentSummary, "updatedAt" | "lastReviewedAt">): string {
  return newest([item.updatedAt, item.lastReviewedAt]) ?? item.updatedAt;
}

/** The sitemap's URLs: listing pages first (lastmod = their newest item), then the items. */
export async function collectSitemapUrls(
  content: ContentService,
  actor: Actor,
  publicUrl: string,
): Promise<SitemapUrl[]> {
  const base = normaliseBaseUrl(publicUrl);
  const [items, categories] = await Promise.all([listAllIndexable(content, actor), content.categories()]);
  const urls: SitemapUrl[] = [{ loc: `${base}/`, lastmod: newest(items.map(lastChangeOf)) }];
  for (const section of content.sections()) {
    const inSection = items.filter((i) => i.section === section.slug);
    urls.push({ loc: `${base}${section.path}`, lastmod: newest(inSection.map(lastChangeOf)) });
  }
  urls.push({ loc: `${base}/pricing` });
  for (const category of categories) {
    const inCategory = items.filter((i) => i.categorySlug === category.slug);
    if (inCategory.length === 0) continue;
    urls.push({
      loc: `${base}/category/${encodeURIComponent(category.slug)}`,
      lastmod: newest(inCategory.map(lastChangeOf)),
    });
  }
  const seen = new Set(urls.map((u) => u.loc));
  for (const item of items) {
    const loc = `${base}${contentPathFor(item)}`;
    if (seen.has(loc)) continue;
    seen.add(loc);
    urls.push({ loc, lastmod: lastChangeOf(item) });
  }
  return urls;
}

/** The AI News feed's items: the latest published, indexable ones, excerpt only. */
export async function collectAiNewsFeed(
  content: ContentService,
  actor: Actor,
  publicUrl: string,
): Promise<RssItem[]> {
  const base = normaliseBaseUrl(publicUrl);
  const page = await content.list(actor, {
    section: AI_NEWS,
    indexable: true,
    publishedOnly: true,
    limit: FEED_SIZE,
  });
  return page.items.map((item) => ({
    title: item.title,
    link: `${base}${contentPathFor(item)}`,
    description: item.excerpt,
    publishedAt: item.publishedAt,
    categories: item.categoryLabel ? [item.categoryLabel] : [],
  }));
}

/**
 * A value loaded at most once per `ttlMs`; concurrent callers share one load. `clear` drops it
 * (a content change on any process: titles, category labels and author names follow at once).
 */
function cached<T>(
  ttlMs: number,
  now: () => number,
  load: () => Promise<T>,
): (() => Promise<T>) & { clear(): void } {
  let entry: { at: number; value: Promise<T> } | null = null;
  const read = () => {
    if (!entry || now() - entry.at >= ttlMs) {
      const value = load();
      entry = { at: now(), value };
      value.catch(() => {
        if (entry?.value === value) entry = null;
      });
    }
    return entry.value;
  };
  return Object.assign(read, {
    clear: () => {
      entry = null;
    },
  });
}

export function registerSeoRoutes(
  app: Hono<{ Variables: { nonce: string; clientIp: string } }>,
  runtime: {
    services: Pick<Runtime["services"], "content" | "config">;
    contentChanges?: Pick<Runtime["contentChanges"], "subscribe">;
  },
  options: SeoRoutesOptions = {},
): void {
  const { content, config } = runtime.services;
  const base = normaliseBaseUrl(config.publicUrl);
  const limit = Math.max(1, options.maxUrlsPerSitemap ?? SITEMAP_URL_LIMIT);
  const ttl = options.cacheTtlMs ?? 60_000;
  const now = options.now ?? Date.now;
  // A visitor: the sitemap and the feed show only what anyone may see.
  const visitor = visitorActor(config.environment);
  const sitemapUrls = cached(ttl, now, () => collectSitemapUrls(content, visitor, base));
  const aiNews = cached(ttl, now, () => collectAiNewsFeed(content, visitor, base));
  runtime.contentChanges?.subscribe(() => {
    sitemapUrls.clear();
    aiNews.clear();
  });
  const robots = renderRobots(robotsRules(), `${base}/sitemap.xml`);

  app.get("/robots.txt", (c) => {
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(robots, 200, { "Content-Type": "text/plain; charset=utf-8" });
  });

  app.get("/sitemap.xml", async (c) => {
    const urls = await sitemapUrls();
    c.header("Cache-Control", PUBLIC_CACHE);
    if (urls.length <= limit) return c.body(renderUrlset(urls), 200, { "Content-Type": XML_TYPE });
    const pages = sitemapPageCount(urls.length, limit);
    const index = Array.from({ length: pages }, (_, i) => ({
      loc: `${base}/sitemaps/${i + 1}.xml`,
      lastmod: newest((sitemapPage(urls, i + 1, limit) ?? []).map((u) => u.lastmod)),
    }));
    return c.body(renderSitemapIndex(index), 200, { "Content-Type": XML_TYPE });
  });

  app.get("/sitemaps/:file", async (c) => {
    const match = /^([1-9][0-9]{0,5})\.xml$/.exec(c.req.param("file"));
    const urls = match ? sitemapPage(await sitemapUrls(), Number(match[1]), limit) : null;
    if (!urls) return c.text("No such sitemap", 404, { "Cache-Control": "no-store" });
    c.header("Cache-Control", PUBLIC_CACHE);
    return c.body(renderUrlset(urls), 200, { "Content-Type": XML_TYPE });
  });

  app.get(AI_NEWS_FEED_PATH, async (c) => {
    const section = content.sections().find((s) => s.slug === AI_NEWS);
    const xml = renderRss({
      title: `${section?.label ?? "AI News"} · ${config.productName}`,
      link: `${base}${section?.path ?? "/ai-news"}`,
      description: section?.description ?? "The latest developments in AI, explained.",
      selfUrl: `${base}${AI_NEWS_FEED_PATH}`,
      items: await aiNews(),
    });
    c.header("Cache-Control", PUBLIC_CACHE);
    return c.body(xml, 200, { "Content-Type": RSS_TYPE });
  });
}
