/**
 * Freshness of content (decision 038) over real HTTP on both dialects: the effective review-by
 * date with the sections' defaults (and a changed default), the review queue's order, filter and
 * paging, "Mark reviewed" (audited, clears the stale flag, no version or updatedAt bump), the
 * item's own date set and cleared through the content write API, who may do what (visitor 401,
 * reader 403, API key 403, a writer without content:publish 403 on published items), the REST and
 * GraphQL fields, and the sitemap's lastmod following real changes only (not likes or views).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { type Content, createContentRepo } from "../../server/modules/content/content.repo.ts";
import { bumpContentRevision } from "../../server/modules/content/content-revision.ts";
import type { ReviewQueue } from "../../server/modules/content/freshness.service.ts";
import { buildContent } from "../factories/index.ts";
import { call, createReadKey } from "../helpers/auth.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { childrenNamed, childText, parseXml } from "../helpers/xml.ts";

const DAY = 86_400_000;
const FAR = "2099-01-01T00:00:00.000Z";

interface ApiItem {
  id: string;
  slug: string;
  updatedAt: string;
  lastReviewedAt: string | null;
  reviewBy: string | null;
  stale: boolean;
}

describe.each(DIALECTS)("freshness of content (%s)", (dialect) => {
  let server: TestServer;
  let repo: ReturnType<typeof createContentRepo>;
  const cookies: Record<string, string> = {};
  let apiKey: string;
  const now = Date.now();
  const ago = (days: number) => new Date(now - days * DAY).toISOString();
  const ahead = (days: number) => new Date(now + days * DAY).toISOString();
  const items: Record<string, Content> = {};

  async function make(name: string, overrides: Parameters<typeof buildContent>[0]): Promise<Content> {
    const built = buildContent({
      slug: `fresh-${name}-${dialect}`,
      title: `Freshness ${name}`,
      ...overrides,
    });
    await server.runtime.storage.put(built.row.bodyS3Key!, new TextEncoder().encode(built.body), {
      contentType: "text/markdown; charset=utf-8",
    });
    const item = await repo.create(built.row);
    items[name] = item;
    return item;
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, { ...RAISED_RATE_LIMITS, PUBLIC_URL: "http://hub.example.test" });
    const db = server.runtime.database.db;
    repo = createContentRepo(db);
    // The demo's items are due far away: the queue holds this file's items only.
    await db
      .updateTable("content")
      .set({ reviewBy: FAR, reviewByEpoch: Date.parse(FAR) })
      .execute();
    // AI News: 30 days; Documentation: 180; AI Education: 365 (the catalogue's defaults).
    await make("news-old", { section: "ai-news", publishedAt: ago(40) }); // due 10 days ago
    await make("docs-old", { section: "documentation", publishedAt: ago(200) }); // due 20 days ago
    await make("own-soon", { section: "ai-education", publishedAt: ago(3), reviewBy: ahead(5) });
    await make("news-new", { section: "ai-news", publishedAt: ago(5) }); // due in 25 days
    await make("own-later", { section: "documentation", publishedAt: ago(400), reviewBy: ahead(30) });
    await make("draft", { section: "ai-news", status: "draft", publishedAt: ago(100) });
    await make("own-past", { section: "ai-news", publishedAt: ago(2), reviewBy: ago(1) });
    await make("sitemap", {
      section: "resources",
      publishedAt: "2026-01-15T00:00:00.000Z",
      createdAt: "2026-01-15T00:00:00.000Z",
      updatedAt: "2026-02-01T00:00:00.000Z",
      reviewBy: FAR,
    });
    await make("reviewed", { section: "ai-news", publishedAt: ago(100) });
    await db
      .updateTable("content")
      .set({ lastReviewedAt: ago(5), lastReviewedEpoch: now - 5 * DAY })
      .where("id", "=", items.reviewed!.id)
      .execute();
    await bumpContentRevision(db);
    for (const who of ["manager", "free", "writer", "owner"]) {
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    }
    apiKey = await createReadKey(server.url, cookies.free, "freshness test");
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  const queue = async (query = "", who = "manager"): Promise<ReviewQueue> => {
    const res = await call(server.url, `/api/studio/review-queue${query}`, undefined, {
      cookie: cookies[who],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as ReviewQueue;
  };
  const names = (q: ReviewQueue) =>
    q.items.map((i) => Object.entries(items).find(([, it]) => it.id === i.id)?.[0] ?? i.slug);
  const readItem = async (name: string): Promise<ApiItem> => {
    const res = await fetch(`${server.url}/api/content/${items[name]!.slug}`);
    expect(res.status).toBe(200);
    return (await res.json()) as ApiItem;
  };
  const markReviewed = (name: string, who: string | null = "manager", headers: Record<string, string> = {}) =>
    call(
      server.url,
      `/api/content/${items[name]!.id}/reviewed`,
      {},
      { cookie: who ? cookies[who] : undefined, headers },
    );

  describe("effective review-by dates", () => {
    it("count from publication plus the section's default, or the item's own date", async () => {
      const newsOld = await readItem("news-old");
      expect(newsOld.reviewBy).toBe(
        new Date(Date.parse(items["news-old"]!.publishedAt!) + 30 * DAY).toISOString(),
      );
      expect(newsOld.stale).toBe(true);
      expect(newsOld.lastReviewedAt).toBeNull();
      const docs = await readItem("docs-old");
      expect(docs.reviewBy).toBe(
        new Date(Date.parse(items["docs-old"]!.publishedAt!) + 180 * DAY).toISOString(),
      );
      expect(docs.stale).toBe(true);
      // The own date wins, ahead (fresh) even though the section's default has long passed.
      const later = await readItem("own-later");
      expect(later.reviewBy).toBe(items["own-later"]!.reviewBy);
      expect(later.stale).toBe(false);
      const newsNew = await readItem("news-new");
      expect(newsNew.stale).toBe(false);
    });

    it("count from the last review when there is one", async () => {
      const reviewed = await readItem("reviewed");
      expect(reviewed.lastReviewedAt).toBe(ago(5));
      expect(reviewed.reviewBy).toBe(new Date(now - 5 * DAY + 30 * DAY).toISOString());
      expect(reviewed.stale).toBe(false);
    });

    it("are exposed in GraphQL with the item's own date apart", async () => {
      const res = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `query ($a: ID!, $b: ID!) {
            a: getContent(id: $a) { reviewBy ownReviewBy lastReviewedAt stale }
            b: getContent(id: $b) { reviewBy ownReviewBy lastReviewedAt stale }
          }`,
          variables: { a: items["news-old"]!.id, b: items["own-later"]!.id },
        }),
      });
      expect(res.status).toBe(200);
      const { data } = (await res.json()) as {
        data: Record<string, { reviewBy: string; ownReviewBy: string | null; stale: boolean }>;
      };
      expect(data.a).toMatchObject({ ownReviewBy: null, lastReviewedAt: null, stale: true });
      expect(Date.parse(data.a!.reviewBy)).toBe(Date.parse(items["news-old"]!.publishedAt!) + 30 * DAY);
      expect(data.b).toMatchObject({ stale: false });
      expect(Date.parse(data.b!.ownReviewBy!)).toBe(Date.parse(items["own-later"]!.reviewBy!));
    });
  });

  describe("the review queue", () => {
    it("lists published items due within 14 days, the one due first first", async () => {
      const q = await queue();
      expect(names(q)).toEqual(["docs-old", "news-old", "own-past", "own-soon"]);
      expect(q.total).toBe(4);
      expect(q.horizonDays).toBe(14);
      const [docs, , , soon] = q.items;
      expect(docs).toMatchObject({ stale: true, ownReviewBy: null, lastReviewedAt: null });
      expect(soon).toMatchObject({ stale: false, ownReviewBy: items["own-soon"]!.reviewBy });
    });

    it("filters by section and pages without gaps or repeats", async () => {
      expect(names(await queue("?section=ai-news"))).toEqual(["news-old", "own-past"]);
      expect(names(await queue("?section=documentation"))).toEqual(["docs-old"]);
      expect((await queue("?section=ai-news")).total).toBe(2);
      const first = await queue("?limit=3");
      expect(names(first)).toEqual(["docs-old", "news-old", "own-past"]);
      expect(first.nextCursor).not.toBeNull();
      const second = await queue(`?limit=3&cursor=${first.nextCursor}`);
      expect(names(second)).toEqual(["own-soon"]);
      expect(second.nextCursor).toBeNull();
    });

    it("answers 400 naming a bad parameter", async () => {
      for (const [query, name] of [
        ["?section=nowhere", "section"],
        ["?limit=0", "limit"],
        ["?limit=many", "limit"],
        ["?cursor=not-a-cursor", "cursor"],
        ["?section=ai-news&section=resources", "section"],
        ["?sort=title", "sort"],
      ] as const) {
        const res = await call(server.url, `/api/studio/review-queue${query}`, undefined, {
          cookie: cookies.manager,
        });
        expect(res.status, query).toBe(400);
        const body = (await res.json()) as { error: { message: string } };
        expect(body.error.message, query).toContain(name);
      }
    });

    it("is for signed-in content writers: visitor 401, reader 403, API key 403, writer 200", async () => {
      const url = `${server.url}/api/studio/review-queue`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { cookie: cookies.free! } })).status).toBe(403);
      expect((await fetch(url, { headers: { "x-api-key": apiKey } })).status).toBe(403);
      expect((await fetch(url, { headers: { cookie: cookies.writer! } })).status).toBe(200);
    });

    it("follows a changed section default (system settings)", async () => {
      const settings = await call(server.url, "/api/admin/settings", undefined, { cookie: cookies.owner });
      const { version } = (await settings.json()) as { version: number };
      const change = (days: number, v: number) =>
        call(
          server.url,
          "/api/admin/settings",
          { version: v, "freshness.reviewDays.ai-news": days },
          { cookie: cookies.owner, method: "PATCH" },
        );
      const res = await change(60, version);
      expect(res.status, await res.clone().text()).toBe(200);
      try {
        // 40 days after publication with a 60-day period: due in 20 days, out of the queue. Cached
        // reads drop at the next content revision poll (the settings write moved it).
        const expected = new Date(Date.parse(items["news-old"]!.publishedAt!) + 60 * DAY).toISOString();
        let newsOld = await readItem("news-old");
        for (let i = 0; i < 50 && newsOld.reviewBy !== expected; i += 1) {
          await new Promise((r) => setTimeout(r, 100));
          newsOld = await readItem("news-old");
        }
        expect(newsOld.reviewBy).toBe(expected);
        expect(newsOld.stale).toBe(false);
        expect(names(await queue("?section=ai-news"))).toEqual(["own-past"]);
      } finally {
        expect((await change(30, version + 1)).status).toBe(200);
      }
      expect(names(await queue("?section=ai-news"))).toEqual(["news-old", "own-past"]);
    });
  });

  describe("Mark reviewed", () => {
    it("refuses visitors, readers, API keys and writers without content:publish", async () => {
      expect((await markReviewed("news-old", null)).status).toBe(401);
      expect((await markReviewed("news-old", "free")).status).toBe(403);
      expect((await markReviewed("news-old", null, { "x-api-key": apiKey })).status).toBe(403);
      const writer = await markReviewed("news-old", "writer");
      expect(writer.status).toBe(403);
      expect(((await writer.json()) as { error: { message: string } }).error.message).toContain(
        "content:publish",
      );
      // A cookie write from another site.
      const foreign = await call(
        server.url,
        `/api/content/${items["news-old"]!.id}/reviewed`,
        {},
        {
          cookie: cookies.manager,
          origin: "https://evil.example",
        },
      );
      expect(foreign.status).toBe(403);
      expect((await readItem("news-old")).lastReviewedAt).toBeNull();
    });

    it("answers 404 for an unknown item and 400 for a malformed id", async () => {
      const missing = await call(
        server.url,
        "/api/content/no-such-item-id/reviewed",
        {},
        { cookie: cookies.manager },
      );
      expect(missing.status).toBe(404);
      const bad = await call(server.url, "/api/content/bad%20id/reviewed", {}, { cookie: cookies.manager });
      expect(bad.status).toBe(400);
    });

    it("records the review, clears the stale flag, leaves the queue; no version or updatedAt bump; audited", async () => {
      const before = await repo.getById(items["news-old"]!.id);
      const res = await markReviewed("news-old");
      expect(res.status, await res.clone().text()).toBe(200);
      const { reviewed } = (await res.json()) as {
        reviewed: { lastReviewedAt: string; reviewBy: string; stale: boolean; lastReviewedBy: string };
      };
      expect(reviewed.stale).toBe(false);
      expect(Date.parse(reviewed.reviewBy) - Date.parse(reviewed.lastReviewedAt)).toBe(30 * DAY);
      const after = await repo.getById(items["news-old"]!.id);
      expect(after!.lastReviewedAt).toBe(reviewed.lastReviewedAt);
      expect(after!.version).toBe(before!.version);
      expect(after!.updatedAt).toBe(before!.updatedAt);
      // Every reader sees it at once (the content revision moved; the read caches dropped).
      const item = await readItem("news-old");
      expect(item).toMatchObject({ stale: false, lastReviewedAt: reviewed.lastReviewedAt });
      expect(names(await queue())).not.toContain("news-old");
      const audit = await server.runtime.database.db
        .selectFrom("audit_log")
        .select(["actorId", "targetType"])
        .where("action", "=", "content_reviewed")
        .where("targetId", "=", items["news-old"]!.id)
        .execute();
      expect(audit).toEqual([{ actorId: reviewed.lastReviewedBy, targetType: "content" }]);
    });

    it("clears the item's own date once it has come (and only then)", async () => {
      expect((await markReviewed("own-past")).status).toBe(200);
      expect((await repo.getById(items["own-past"]!.id))!.reviewBy).toBeNull();
      expect((await readItem("own-past")).stale).toBe(false);
      expect((await markReviewed("own-soon")).status).toBe(200);
      expect((await repo.getById(items["own-soon"]!.id))!.reviewBy).toBe(items["own-soon"]!.reviewBy);
    });

    it("lets a writer mark a draft reviewed (no publish permission needed)", async () => {
      expect((await markReviewed("draft", "writer")).status).toBe(200);
    });
  });

  describe("the item's own review-by date through the content write API", () => {
    const patch = async (fields: Record<string, unknown>) => {
      const current = await repo.getById(items["news-new"]!.id);
      return call(
        server.url,
        `/api/content/${items["news-new"]!.id}`,
        { version: current!.version, ...fields },
        { cookie: cookies.manager, method: "PATCH" },
      );
    };

    it("takes a day, shows it as the effective date, and clears it with null", async () => {
      const set = await patch({ reviewBy: "2026-01-02" });
      expect(set.status, await set.clone().text()).toBe(200);
      expect((await repo.getById(items["news-new"]!.id))!.reviewBy).toBe("2026-01-02T00:00:00.000Z");
      const item = await readItem("news-new");
      expect(item).toMatchObject({ reviewBy: "2026-01-02T00:00:00.000Z", stale: true });
      expect(names(await queue("?section=ai-news"))).toContain("news-new");
      expect((await patch({ reviewBy: null })).status).toBe(200);
      expect((await readItem("news-new")).stale).toBe(false);
    });

    it("refuses a date that does not exist, naming the field", async () => {
      for (const value of ["2026-02-30", "soon", 12]) {
        const res = await patch({ reviewBy: value });
        expect(res.status, String(value)).toBe(400);
        expect(await res.text()).toContain("reviewBy");
      }
    });
  });

  describe("sitemap lastmod", () => {
    const lastmods = async (): Promise<Map<string, string>> => {
      const res = await fetch(`${server.url}/sitemap.xml`);
      expect(res.status).toBe(200);
      return new Map(
        childrenNamed(parseXml(await res.text()), "url").map((u) => [
          childText(u, "loc"),
          childText(u, "lastmod"),
        ]),
      );
    };
    const itemLoc = (name: string) => `http://hub.example.test/content/${items[name]!.slug}`;
    /** The sitemap once `ready` holds (the cache drops at the next revision poll). */
    async function sitemapWhen(ready: (m: Map<string, string>) => boolean): Promise<Map<string, string>> {
      for (let i = 0; i < 50; i += 1) {
        const m = await lastmods();
        if (ready(m)) return m;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error("the sitemap did not change");
    }

    it("does not move for likes or views, moves for an edit and a review; listings follow their newest item", async () => {
      const first = await lastmods();
      expect(first.get(itemLoc("sitemap"))).toBe("2026-02-01T00:00:00.000Z");
      // A like and a view (counters), then an unrelated review that drops every cache.
      const like = await call(server.url, `/api/content/${items.sitemap!.slug}/like`, undefined, {
        cookie: cookies.free,
        method: "PUT",
      });
      expect(like.status, await like.clone().text()).toBe(200);
      const view = await call(
        server.url,
        `/api/content/${items.sitemap!.slug}/view`,
        {},
        { cookie: cookies.free },
      );
      expect(view.status).toBe(200);
      const counted = await repo.getById(items.sitemap!.id);
      expect(counted!.likeCount).toBe(1);
      expect((await markReviewed("reviewed")).status).toBe(200);
      const reviewedAt = (await repo.getById(items.reviewed!.id))!.lastReviewedAt!;
      const afterCounters = await sitemapWhen((m) => m.get(itemLoc("reviewed")) === reviewedAt);
      expect(afterCounters.get(itemLoc("sitemap"))).toBe("2026-02-01T00:00:00.000Z");

      // An edit moves it, and the Resources listing with it.
      const edit = await call(
        server.url,
        `/api/content/${items.sitemap!.id}`,
        { version: counted!.version, title: "Freshness sitemap, edited" },
        { cookie: cookies.manager, method: "PATCH" },
      );
      expect(edit.status, await edit.clone().text()).toBe(200);
      const edited = (await repo.getById(items.sitemap!.id))!.updatedAt;
      const afterEdit = await sitemapWhen((m) => m.get(itemLoc("sitemap")) === edited);
      expect(Date.parse(afterEdit.get("http://hub.example.test/resources")!)).toBeGreaterThanOrEqual(
        Date.parse(edited),
      );

      // A review later than the edit moves it again.
      await new Promise((r) => setTimeout(r, 5));
      expect((await markReviewed("sitemap")).status).toBe(200);
      const review = (await repo.getById(items.sitemap!.id))!.lastReviewedAt!;
      expect(Date.parse(review)).toBeGreaterThan(Date.parse(edited));
      await sitemapWhen((m) => m.get(itemLoc("sitemap")) === review);
    });
  });
});
