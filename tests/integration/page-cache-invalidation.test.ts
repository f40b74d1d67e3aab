/**
 * The anonymous page cache is dropped when content changes, on this server and on another server
 * sharing the database (the content revision is polled), so a publish or an edit reaches visitors
 * without waiting for the cache's 30 s lifetime.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { parseEnv } from "../../server/env.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { createRepositoriesRepo } from "../../server/modules/repositories/repositories.repo.ts";
import { type RunningServer, startServer } from "../../server/server.ts";
import { buildContent } from "../factories/index.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

describe.each(DIALECTS)("page cache invalidation (%s)", (dialect) => {
  let server: TestServer;
  let second: RunningServer | null = null;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    // A second replica on the same database (PostgreSQL URL or SQLite file).
    const database = dialect === "postgres" ? server.runtime.env.DATABASE_URL : `${server.dataDir}/app.db`;
    second = await startServer(
      parseEnv({
        NODE_ENV: "production",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: server.dataDir,
        DATABASE_URL: database,
        LOG_LEVEL: "silent",
        SEED_DEMO: "0",
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await server?.close();
  });

  const page = async (base: string, path: string) => {
    const res = await fetch(`${base}${path}`);
    return { cache: res.headers.get("x-cache"), html: await res.text() };
  };

  it("two query strings on one path are two cached pages, each answered with its own", async () => {
    const titlesIn = (html: string, type: "course" | "article") =>
      DEMO_CONTENT.filter((c) => c.section === "ai-education" && c.type === type && html.includes(c.title));
    for (const base of [server.url, second!.url]) {
      const courses = await page(base, "/ai-education?type=course");
      const articles = await page(base, "/ai-education?type=article");
      // The second query string is not answered from the first one's page.
      expect(articles.cache).not.toBe("hit");
      expect(titlesIn(courses.html, "course").length).toBeGreaterThan(0);
      expect(titlesIn(courses.html, "article")).toEqual([]);
      expect(titlesIn(articles.html, "article").length).toBeGreaterThan(0);
      expect(titlesIn(articles.html, "course")).toEqual([]);
      const againCourses = await page(base, "/ai-education?type=course");
      const againArticles = await page(base, "/ai-education?type=article");
      expect([againCourses.cache, againArticles.cache]).toEqual(["hit", "hit"]);
      expect(againCourses.html).toBe(courses.html);
      expect(againArticles.html).toBe(articles.html);
      // Without a query string: yet another page (every type).
      const all = await page(base, "/ai-education");
      expect(all.cache).not.toBe("hit");
      expect(titlesIn(all.html, "course").length).toBeGreaterThan(0);
      expect(titlesIn(all.html, "article").length).toBeGreaterThan(0);
    }
  });

  it("an edit and a new item show up for visitors on both replicas once the revision moves", async () => {
    const repo = createContentRepo(server.runtime.database.db);
    const item = (await repo.list({ section: "ai-news" }, { limit: 1 })).items[0]!;
    for (const base of [server.url, second!.url]) {
      await page(base, "/ai-news");
      expect((await page(base, "/ai-news")).cache).toBe("hit");
    }

    const newTitle = `Edited headline ${Date.now()}`;
    await repo.update(item.id, item.version, { title: newTitle });
    const added = buildContent({
      title: `Fresh news ${Date.now()}`,
      section: "ai-news",
      tier: "Free",
      publishedAt: new Date().toISOString(),
    });
    await repo.create(added.row);

    for (const runningServer of [server, second!]) {
      await runningServer.runtime.contentChanges.check();
      const after = await page(runningServer.url, "/ai-news");
      expect(after.cache, runningServer.url).toBe("miss");
      expect(after.html).toContain(newTitle);
      expect(after.html).toContain(added.row.title);
    }
  });

  it("a repository change (an admin edit or a sync) reaches /resources for visitors too", async () => {
    const repos = createRepositoriesRepo(server.runtime.database.db);
    const [repo] = await repos.listRepositories({ enabledOnly: true });
    expect(repo).toBeDefined();
    await page(server.url, "/resources");
    expect((await page(server.url, "/resources")).cache).toBe("hit");
    const displayName = `Renamed repository ${Date.now()}`;
    await repos.updateRepository(repo!.id, { displayName }, repo!.version);
    await server.runtime.contentChanges.check();
    const after = await page(server.url, "/resources");
    expect(after.cache).toBe("miss");
    expect(after.html).toContain(displayName);
  });
});
