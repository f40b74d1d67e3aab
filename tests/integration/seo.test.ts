/**
 * SEO over real HTTP on both dialects: robots.txt, the sitemap (and its index form), the AI News
 * feed, and the metadata of content and listing pages as a visitor receives them. Nothing a
 * visitor cannot read (bodies of gated items, drafts, noindex items) may leak into any of them.
 */
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { registerSeoRoutes } from "../../server/http/seo-routes.ts";
import { type Content, createContentRepo } from "../../server/modules/content/content.repo.ts";
import { buildContent } from "../factories/index.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { childrenNamed, childText, parseXml } from "../helpers/xml.ts";

const BASE = "http://hub.example.test";
const FREE = DEMO_CONTENT.find((c) => c.tier === "Free" && c.type === "article")!;
const PRO = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article")!;
const HOSTILE_TITLE = `Pro </script><script>alert("x")</script> & ]]> <b>bold</b> \u2028 end`;
const HOSTILE_BODY = "HOSTILE-BODY-MARKER: this sentence is only in the body of the hostile item.";

function decodeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Attributes of every <meta> and <link> tag in the document's head. */
function headTags(html: string): Array<Record<string, string>> {
  const head = html.slice(0, html.indexOf("</head>"));
  return [...head.matchAll(/<(?:meta|link)\b([^>]*?)\/?>/g)].map((m) => {
    const attrs: Record<string, string> = {};
    for (const a of m[1]!.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = decodeHtml(a[2]!);
    return attrs;
  });
}

const metaContent = (html: string, key: string) =>
  headTags(html).find((t) => t.name === key || t.property === key)?.content;
const linkHref = (html: string, rel: string, type?: string) =>
  headTags(html).find((t) => t.rel === rel && (type === undefined || t.type === type))?.href;

/** The parsed JSON-LD blocks of a page. */
function jsonLd(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1]!),
  );
}

/** Lines of a body long enough to identify it (prose, list items, headings). */
function bodyLines(body: string): string[] {
  return body
    .split("\n")
    .map((l) => l.replace(/^[#>*\-\d.\s]+/, "").trim())
    .filter((l) => l.length >= 40);
}

describe.each(DIALECTS)("SEO (%s)", (dialect) => {
  let server: TestServer;
  let repo: ReturnType<typeof createContentRepo>;
  let noindexItem: Content;
  let draftItem: Content;
  let hostileItem: Content;

  async function createItem(overrides: Parameters<typeof buildContent>[0], body?: string): Promise<Content> {
    const built = buildContent(overrides, body);
    await server.runtime.storage.put(built.row.bodyS3Key!, new TextEncoder().encode(built.body), {
      contentType: "text/markdown; charset=utf-8",
    });
    return repo.create(built.row);
  }

  async function bodyOf(item: Content): Promise<string> {
    const object = await server.runtime.storage.get(item.bodyS3Key!);
    if (!object) throw new Error(`no body for ${item.slug}`);
    return new TextDecoder().decode(object.body);
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, { PUBLIC_URL: BASE });
    repo = createContentRepo(server.runtime.database.db);
    // Created before anything is fetched, so no cache can hide them.
    const recent = new Date(Date.now() - 60_000).toISOString();
    noindexItem = await createItem({
      slug: "seo-noindex-news",
      title: "A news item kept out of search",
      section: "ai-news",
      tier: "Free",
      noindex: true,
      publishedAt: recent,
    });
    draftItem = await createItem({
      slug: "seo-draft-news",
      title: "A draft news item",
      section: "ai-news",
      status: "draft",
      publishedAt: recent,
    });
    hostileItem = await createItem(
      {
        slug: "seo-hostile-title",
        title: HOSTILE_TITLE,
        excerpt: "An excerpt with <tags> & ampersands ]]>",
        section: "ai-news",
        tier: "Pro",
        ogImage: "/images/cover.png",
        publishedAt: recent,
      },
      `## Body\n\n${HOSTILE_BODY}\n`,
    );
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const get = (path: string) => fetch(`${server.url}${path}`);

  it("robots.txt disallows private routes and names the sitemap", async () => {
    const res = await get("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    const lines = text.split("\n");
    for (const rule of [
      "Disallow: /admin",
      "Disallow: /super-admin",
      "Disallow: /api/",
      "Disallow: /auth/",
    ]) {
      expect(lines).toContain(rule);
    }
    expect(lines).toContain("Disallow: /dashboard");
    expect(lines).toContain("Allow: /content/");
    expect(lines).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("the sitemap lists every published, indexable item and the listing pages, and nothing else", async () => {
    const res = await get("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const doc = parseXml(await res.text());
    expect(doc.name).toBe("urlset");
    const urls = childrenNamed(doc, "url").map((u) => ({
      loc: childText(u, "loc"),
      lastmod: childText(u, "lastmod"),
    }));
    const locs = urls.map((u) => u.loc);
    expect(new Set(locs).size).toBe(locs.length);
    for (const loc of locs) expect(loc.startsWith(`${BASE}/`), loc).toBe(true);
    for (const path of ["/", "/ai-education", "/ai-news", "/documentation", "/pricing"]) {
      expect(locs).toContain(`${BASE}${path}`);
    }
    expect(locs).toContain(`${BASE}/category/${FREE.categorySlug}`);
    expect(locs).toContain(`${BASE}/content/${FREE.slug}`);
    expect(locs).toContain(`${BASE}/content/${PRO.slug}`);
    expect(locs).toContain(`${BASE}/content/${hostileItem.slug}`);
    expect(locs).not.toContain(`${BASE}/content/${noindexItem.slug}`);
    expect(locs).not.toContain(`${BASE}/content/${draftItem.slug}`);

    // Exactly the published, indexable items of the database, each at its one address.
    const all: Content[] = [];
    let cursor: string | null = null;
    do {
      const page = await repo.list({}, { limit: 100, cursor });
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    const expected = all
      .filter((c) => !c.noindex)
      .map(
        (c) => `${BASE}/${c.type === "collection" ? "collection" : "content"}/${encodeURIComponent(c.slug)}`,
      );
    const itemLocs = locs.filter((l) => /\/(content|collection)\//.test(l));
    expect(itemLocs.sort()).toEqual(expected.sort());
    expect(all.some((c) => c.type === "collection")).toBe(true);

    const free = (await repo.getBySlug(FREE.slug))!;
    expect(urls.find((u) => u.loc === `${BASE}/content/${FREE.slug}`)?.lastmod).toBe(
      new Date(free.updatedAt).toISOString(),
    );
  });

  it("past the URL limit, the sitemap becomes an index whose pages hold every URL once", async () => {
    const full = childrenNamed(parseXml(await (await get("/sitemap.xml")).text()), "url").map((u) =>
      childText(u, "loc"),
    );
    const app = new Hono<{ Variables: { nonce: string; clientIp: string } }>();
    registerSeoRoutes(app, server.runtime, { maxUrlsPerSitemap: 10 });
    const index = await app.request("/sitemap.xml");
    expect(index.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const doc = parseXml(await index.text());
    expect(doc.name).toBe("sitemapindex");
    const pages = childrenNamed(doc, "sitemap").map((s) => childText(s, "loc"));
    expect(pages).toHaveLength(Math.ceil(full.length / 10));
    const seen: string[] = [];
    for (const page of pages) {
      expect(page.startsWith(`${BASE}/sitemaps/`)).toBe(true);
      const res = await app.request(new URL(page).pathname);
      expect(res.status).toBe(200);
      const urls = childrenNamed(parseXml(await res.text()), "url").map((u) => childText(u, "loc"));
      expect(urls.length).toBeLessThanOrEqual(10);
      seen.push(...urls);
    }
    expect(seen).toEqual(full);
    for (const bad of [
      "/sitemaps/0.xml",
      `/sitemaps/${pages.length + 1}.xml`,
      "/sitemaps/abc.xml",
      "/sitemaps/1",
    ]) {
      expect((await app.request(bad)).status, bad).toBe(404);
    }
  });

  it("the AI News feed holds the latest AI News items with excerpts only", async () => {
    const res = await get("/ai-news/rss.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await res.text();
    const channel = childrenNamed(parseXml(xml), "channel")[0]!;
    expect(childText(channel, "link")).toBe(`${BASE}/ai-news`);
    expect(childrenNamed(channel, "atom:link")[0]?.attributes.href).toBe(`${BASE}/ai-news/rss.xml`);
    const items = childrenNamed(channel, "item");
    expect(items.length).toBeGreaterThan(1);
    expect(items.length).toBeLessThanOrEqual(20);
    const slugs: string[] = [];
    for (const node of items) {
      const link = childText(node, "link");
      expect(link.startsWith(`${BASE}/content/`)).toBe(true);
      expect(childText(node, "guid")).toBe(link);
      expect(childText(node, "pubDate")).toMatch(
        /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
      );
      const slug = decodeURIComponent(link.slice(`${BASE}/content/`.length));
      slugs.push(slug);
      const item = (await repo.getBySlug(slug))!;
      expect(item.section, slug).toBe("ai-news");
      expect(item.status).toBe("published");
      expect(childText(node, "title")).toBe(item.title);
      expect(childText(node, "description")).toBe(item.excerpt ?? "");
      const text = `${childText(node, "title")}\n${childText(node, "description")}`;
      for (const line of bodyLines(await bodyOf(item))) {
        if ((item.excerpt ?? "").includes(line)) continue;
        expect(text.includes(line), `${slug}: body line in the feed`).toBe(false);
        expect(xml.includes(line), `${slug}: body line in the feed`).toBe(false);
      }
    }
    expect(slugs[0]).toBe(hostileItem.slug);
    expect(childText(items[0]!, "title")).toBe(HOSTILE_TITLE);
    expect(slugs).not.toContain(noindexItem.slug);
    expect(slugs).not.toContain(draftItem.slug);
    expect(xml).not.toContain(HOSTILE_BODY);
  });

  it("a Pro page seen by a visitor carries canonical, social tags and paywalled JSON-LD without the body", async () => {
    const res = await get(`/content/${PRO.slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const canonical = `${BASE}/content/${PRO.slug}`;
    expect(linkHref(html, "canonical")).toBe(canonical);
    expect(metaContent(html, "og:url")).toBe(canonical);
    expect(metaContent(html, "og:title")).toBe(PRO.seoTitle ?? PRO.title);
    expect(metaContent(html, "og:type")).toBe("article");
    expect(metaContent(html, "twitter:card")).toBe("summary");
    expect(metaContent(html, "description")).toBe(PRO.metaDescription);
    expect(metaContent(html, "robots")).toBeUndefined();
    const [ld, ...rest] = jsonLd(html) as Array<Record<string, unknown>>;
    expect(rest).toHaveLength(0);
    expect(ld).toMatchObject({
      "@type": "Article",
      headline: PRO.title,
      isAccessibleForFree: false,
      hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: ".paywalled-content" },
    });
    expect(html).toContain('class="paywalled-content"');
    const item = (await repo.getBySlug(PRO.slug))!;
    const ldText = JSON.stringify(ld);
    const lines = bodyLines(await bodyOf(item)).filter((l) => !(item.excerpt ?? "").includes(l));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(ldText.includes(line), line).toBe(false);
  });

  it("a hostile title cannot break out of the JSON-LD, also when the page comes from the visitors' cache", async () => {
    for (const expectedCache of ["miss", "hit"]) {
      const res = await get(`/content/${hostileItem.slug}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-cache")).toBe(expectedCache);
      const html = await res.text();
      expect(html).not.toContain('<script>alert("x")</script>');
      expect(html).not.toContain(HOSTILE_BODY);
      const blocks = jsonLd(html) as Array<Record<string, unknown>>;
      expect(blocks).toHaveLength(1);
      expect(blocks[0]).toMatchObject({ headline: HOSTILE_TITLE, isAccessibleForFree: false });
      expect(metaContent(html, "og:image")).toBe(`${BASE}/images/cover.png`);
      expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
      if (expectedCache === "hit") {
        // The cached page's CSP lists script hashes instead of the stale nonce, and still allows the app's scripts.
        const csp = res.headers.get("content-security-policy") ?? "";
        expect(csp).toMatch(/script-src 'self' 'sha256-/);
        expect(csp).not.toContain("'nonce-");
      }
    }
  });

  it("a noindex item's page asks robots not to index it", async () => {
    const html = await (await get(`/content/${noindexItem.slug}`)).text();
    expect(metaContent(html, "robots")).toBe("noindex, nofollow");
    expect(linkHref(html, "canonical")).toBe(`${BASE}/content/${noindexItem.slug}`);
  });

  it("listing pages carry canonical links, the feed link and the WebSite JSON-LD; search results are noindex", async () => {
    const aiNews = await (await get("/ai-news")).text();
    expect(linkHref(aiNews, "canonical")).toBe(`${BASE}/ai-news`);
    expect(linkHref(aiNews, "alternate", "application/rss+xml")).toBe(`${BASE}/ai-news/rss.xml`);
    expect(metaContent(aiNews, "og:type")).toBe("website");
    expect(metaContent(aiNews, "og:url")).toBe(`${BASE}/ai-news`);

    expect(linkHref(await (await get("/ai-news?tier=pro")).text(), "canonical")).toBe(`${BASE}/ai-news`);
    const { nextCursor } = (await (await get("/api/content?section=ai-news&limit=1")).json()) as {
      nextCursor: string;
    };
    const second = await get(`/ai-news?cursor=${nextCursor}`);
    expect(second.status).toBe(200);
    expect(linkHref(await second.text(), "canonical")).toBe(`${BASE}/ai-news?cursor=${nextCursor}`);
    expect(linkHref(await (await get("/section/ai-news")).text(), "canonical")).toBe(`${BASE}/ai-news`);
    const category = await (await get(`/category/${FREE.categorySlug}`)).text();
    expect(linkHref(category, "canonical")).toBe(`${BASE}/category/${FREE.categorySlug}`);
    expect(linkHref(await (await get("/pricing")).text(), "canonical")).toBe(`${BASE}/pricing`);

    const home = await (await get("/")).text();
    expect(linkHref(home, "canonical")).toBe(`${BASE}/`);
    expect(linkHref(home, "alternate", "application/rss+xml")).toBe(`${BASE}/ai-news/rss.xml`);
    expect(metaContent(home, "robots")).toBeUndefined();
    expect(jsonLd(home)).toEqual([
      expect.objectContaining({
        "@type": "WebSite",
        url: `${BASE}/`,
        potentialAction: expect.objectContaining({
          target: expect.objectContaining({ urlTemplate: `${BASE}/?search={search_term_string}` }),
        }),
      }),
    ]);
    const search = await (await get("/?search=prompt")).text();
    expect(metaContent(search, "robots")).toBe("noindex, follow");
    expect(linkHref(search, "canonical")).toBe(`${BASE}/`);
  });
});
