import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUserContext, visitorContext } from "../../../core/index.ts";
import { PERSONA_CLAIMS } from "../../../core/test-personas.ts";
import { actorOf } from "../../../tests/factories/actors.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { LocalObjectStore } from "../../storage/local-store.ts";
import type { Actor } from "../actor.ts";
import { contentBodyKeyOf } from "../content/body-key.ts";
import { type Content, createContentRepo, type NewContent } from "../content/content.repo.ts";
import { createContentService } from "../content/content.service.ts";
import { createSearchRepo, SEARCH_MAX_CANDIDATES } from "./search.repo.ts";
import { createSearchService, type SearchResultItem } from "./search.service.ts";
import { createSearchIndexer, type SearchIndexer } from "./search-indexer.ts";

const logger = pino({ level: "silent" });
const actor = (name: keyof typeof PERSONA_CLAIMS): Actor => actorOf(buildUserContext(PERSONA_CLAIMS[name]));
const visitor = actorOf(visitorContext());
const free = actor("free");
const pro = actor("pro");
const manager = actor("manager");

const text = (parts: Array<{ text: string }>) => parts.map((p) => p.text).join("");
const hits = (parts: Array<{ text: string; hit: boolean }>) =>
  parts.filter((p) => p.hit).map((p) => p.text.toLowerCase());

describe.each(testDialects())("search on %s", (dialect) => {
  let t: TestDatabase;
  let dir: string;
  let storage: LocalObjectStore;
  let indexer: SearchIndexer;
  let repo: ReturnType<typeof createContentRepo>;
  let search: ReturnType<typeof createSearchService>;
  let counter = 0;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    dir = mkdtempSync(path.join(tmpdir(), "lumen-search-"));
    storage = new LocalObjectStore(dir);
    indexer = createSearchIndexer({ db: t.db, storage, logger });
    repo = createContentRepo(t.db, indexer.contentHooks);
    const content = createContentService({ db: t.db, storage, logger, hooks: indexer.contentHooks });
    search = createSearchService({ db: t.db, indexer, summarize: content.summarize });
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A published item; `body` (markdown) goes to object storage first, as the seed does. */
  async function make(fields: Partial<NewContent> & { body?: string } = {}): Promise<Content> {
    counter += 1;
    const { body, ...rest } = fields;
    const slug = rest.slug ?? `item-${counter}-${Date.now().toString(36)}`;
    let bodyS3Key: string | null = null;
    if (body !== undefined) {
      // The item's own key: the indexer reads no other (decision 011).
      bodyS3Key = contentBodyKeyOf({ tier: rest.tier ?? "Free", categorySlug: rest.categorySlug, slug })!;
      await storage.put(bodyS3Key, body, { contentType: "text/markdown; charset=utf-8" });
    }
    return repo.create({
      title: `Untitled ${counter}`,
      status: "published",
      publishedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString(),
      tier: "Free",
      section: "ai-education",
      excerpt: `Plain excerpt number ${counter}.`,
      ...rest,
      slug,
      bodyS3Key,
    });
  }

  const ids = (items: SearchResultItem[]) => items.map((i) => i.id);

  it("ranks a title hit above a body-only hit, and highlights the body snippet", async () => {
    const bodyOnly = await make({
      title: "Garden notes",
      body: "# Notes\n\nA long passage. The zephyrine wind, zephyrine again, and once more zephyrine.",
    });
    const inTitle = await make({ title: "Zephyrine basics", body: "Nothing related here." });
    const result = await search.search(free, { q: "zephyrine" });
    expect(ids(result.items)).toEqual([inTitle.id, bodyOnly.id]);
    expect(result.total).toBe(2);
    const [first, second] = result.items;
    expect(first!.matchedIn).toEqual(["title"]);
    expect(hits(first!.titleParts)).toEqual(["zephyrine"]);
    expect(second!.matchedIn).toEqual(["body"]);
    expect(second!.locked).toBe(false);
    expect(hits(second!.snippet)).toContain("zephyrine");
    expect(text(second!.snippet)).toContain("wind");
    expect(text(second!.snippet)).not.toContain("#"); // markdown stripped
  });

  it("ranks on one scale: an open title hit above a locked excerpt-only hit, metadata above body-only", async () => {
    const lockedExcerpt = await make({
      title: "Field guide",
      tier: "Pro",
      excerpt: "How the marrowvine spreads.",
    });
    // A long body must not push an open title hit below a locked item scored on short metadata.
    const openTitle = await make({
      title: "Marrowvine in practice",
      body: "Unrelated notes on soil, water and light. ".repeat(300),
    });
    const openBodyOnly = await make({
      title: "Allotment diary",
      body: "marrowvine marrowvine marrowvine marrowvine everywhere",
    });
    const result = await search.search(free, { q: "marrowvine" });
    expect(ids(result.items)).toEqual([openTitle.id, lockedExcerpt.id, openBodyOnly.id]);
  });

  it("matches tags and excerpts, and prefixes of the last word", async () => {
    const tagged = await make({ title: "Wetland plants", tags: ["quillwort", "ferns"] });
    const excerpted = await make({ title: "Bog guide", excerpt: "All about the quillwort family." });
    const byTag = await search.search(visitor, { q: "quillwort" });
    expect(new Set(ids(byTag.items))).toEqual(new Set([tagged.id, excerpted.id]));
    expect(byTag.items.find((i) => i.id === tagged.id)!.matchedIn).toEqual(["tags"]);
    const fromExcerpt = byTag.items.find((i) => i.id === excerpted.id)!;
    expect(fromExcerpt.matchedIn).toEqual(["excerpt"]);
    expect(hits(fromExcerpt.snippet)).toEqual(["quillwort"]);

    expect(ids((await search.search(visitor, { q: "quillw" })).items)).toContain(tagged.id);
    expect(ids((await search.search(visitor, { q: "zephyr" })).items).length).toBe(2);
    // Only the last word is a prefix: "quillw plants" needs the whole word "quillw".
    expect((await search.search(visitor, { q: "quillw plants" })).items).toEqual([]);
    expect(ids((await search.search(visitor, { q: "wetland quillw" })).items)).toEqual([tagged.id]);
  });

  it("finds published items only, in the requested section", async () => {
    const draft = await make({ title: "Marblewood draft", status: "draft" });
    const news = await make({ title: "Marblewood news", section: "ai-news" });
    expect(ids((await search.search(pro, { q: "marblewood" })).items)).toEqual([news.id]);
    expect(ids((await search.search(pro, { q: "marblewood", section: "ai-news" })).items)).toEqual([news.id]);
    expect((await search.search(pro, { q: "marblewood", section: "resources" })).items).toEqual([]);
    await repo.update(draft.id, draft.version, { status: "published", publishedAt: new Date() });
    expect(new Set(ids((await search.search(pro, { q: "marblewood" })).items))).toEqual(
      new Set([draft.id, news.id]),
    );
  });

  it("re-indexes on update and forgets a deleted item", async () => {
    const item = await make({ title: "Oldtitleword guide", body: "Oldbodyword inside." });
    expect(ids((await search.search(free, { q: "oldbodyword" })).items)).toEqual([item.id]);

    await storage.put(item.bodyS3Key!, "Newbodyword inside.");
    const updated = await repo.update(item.id, item.version, { title: "Newtitleword guide" });
    expect((await search.search(free, { q: "oldtitleword" })).items).toEqual([]);
    expect((await search.search(free, { q: "oldbodyword" })).items).toEqual([]);
    expect(ids((await search.search(free, { q: "newtitleword" })).items)).toEqual([item.id]);
    expect(ids((await search.search(free, { q: "newbodyword" })).items)).toEqual([item.id]);

    const before = await indexer.count();
    expect(await repo.delete(updated.id)).toBe(true);
    expect((await search.search(free, { q: "newtitleword" })).items).toEqual([]);
    expect(await indexer.count()).toBe(before - 1);
  });

  it("pages through results with the cursor, each result once", async () => {
    const made = new Set<string>();
    for (let i = 0; i < 5; i++) made.add((await make({ title: `Paginex part ${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await search.search(free, { q: "paginex", limit: 2, cursor });
      expect(page.items.length).toBeLessThanOrEqual(2);
      if (pages === 0) expect(page.total).toBe(5);
      seen.push(...ids(page.items));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen)).toEqual(made);
    expect(seen.length).toBe(5);
    await expect(search.search(free, { q: "paginex", cursor: "not-a-cursor!" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
    });
    await expect(search.search(free, { q: "paginex", limit: 51 })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
    });
  });

  describe("access: a gated body never decides, ranks or shows a result", () => {
    let proItem: Content;
    let roleItem: Content;
    const PRO_BODY =
      "Deep dive. The cryptoflora method is explained step by step, with the gardening ledger and seasonal notes.";

    beforeAll(async () => {
      proItem = await make({
        title: "Quantum gardening",
        tier: "Pro",
        excerpt: "A public teaser about gardens.",
        tags: ["horticulture"],
        body: PRO_BODY,
      });
      roleItem = await make({
        title: "Staff handbook",
        rolesRequired: ["ContentManager"],
        excerpt: "For the editorial team.",
        body: "The velvetleaf procedure for editors.",
      });
    });

    for (const [name, reader] of [
      ["visitor", visitor],
      ["free", free],
    ] as const) {
      it(`${name}: a body-only word finds nothing, a title word finds it locked with the excerpt only`, async () => {
        const bodyOnly = await search.search(reader, { q: "cryptoflora" });
        expect(ids(bodyOnly.items)).not.toContain(proItem.id);
        expect(bodyOnly.total).toBe(0);
        // Title word + body word: the body may not complete the match either.
        expect(ids((await search.search(reader, { q: "quantum cryptoflora" })).items)).toEqual([]);
        // "gardening" is in the title and in the body.
        const byTitle = await search.search(reader, { q: "gardening" });
        const found = byTitle.items.find((i) => i.id === proItem.id)!;
        expect(found.locked).toBe(true);
        expect(text(found.snippet)).toBe("A public teaser about gardens.");
        expect(found.matchedIn).toEqual(["title", "excerpt"]); // "gardens" stems like "gardening"
        const shown = JSON.stringify(found);
        for (const word of ["cryptoflora", "ledger", "Deep dive", "seasonal"])
          expect(shown).not.toContain(word);
        expect(ids((await search.search(reader, { q: "horticulture" })).items)).toEqual([proItem.id]);
        expect(ids((await search.search(reader, { q: "velvetleaf" })).items)).toEqual([]);
        const byRoleTitle = await search.search(reader, { q: "staff handbook" });
        expect(byRoleTitle.items[0]).toMatchObject({ id: roleItem.id, locked: true });
        expect(JSON.stringify(byRoleTitle.items[0])).not.toContain("velvetleaf");
      });
    }

    it("pro: body words find the Pro item, with a body snippet", async () => {
      const result = await search.search(pro, { q: "cryptoflora" });
      expect(ids(result.items)).toEqual([proItem.id]);
      const item = result.items[0]!;
      expect(item.locked).toBe(false);
      expect(item.matchedIn).toEqual(["body"]);
      expect(hits(item.snippet)).toEqual(["cryptoflora"]);
      expect(text(item.snippet)).toContain("method is explained");
      expect(ids((await search.search(pro, { q: "quantum cryptoflora" })).items)).toEqual([proItem.id]);
      // Pro has no ContentManager role: the role-gated body stays closed.
      expect(ids((await search.search(pro, { q: "velvetleaf" })).items)).toEqual([]);
    });

    it("manager: the role opens the role-gated body", async () => {
      const result = await search.search(manager, { q: "velvetleaf" });
      expect(ids(result.items)).toEqual([roleItem.id]);
      expect(result.items[0]!.locked).toBe(false);
      // The manager is on the Free plan: the Pro body is closed to them.
      expect(ids((await search.search(manager, { q: "cryptoflora" })).items)).toEqual([]);
    });

    it("a locked item's rank does not depend on its body", async () => {
      const bare = await make({ title: "Lanternfish survey", tier: "Pro", excerpt: "Same teaser." });
      const heavy = await make({
        title: "Lanternfish survey",
        tier: "Pro",
        excerpt: "Same teaser.",
        body: "lanternfish ".repeat(50),
      });
      const forFree = await search.search(free, { q: "lanternfish" });
      // Equal metadata → equal score → ordered by id only, whatever the bodies hold.
      expect(ids(forFree.items)).toEqual([bare.id, heavy.id].sort());
      const forPro = await search.search(pro, { q: "lanternfish" });
      expect(forPro.items.find((i) => i.id === heavy.id)!.matchedIn).toContain("body");
    });
  });

  describe("total and ranking count only what the reader may read", () => {
    it("a role-gated body adds nothing to the total of a reader without the role", async () => {
      const gated = await make({
        title: "Tidepool guide",
        rolesRequired: ["ContentManager"],
        excerpt: "Shore notes.",
        body: "The marramgrass survey method.",
      });
      for (const reader of [visitor, free, pro]) {
        const result = await search.search(reader, { q: "marramgrass" });
        expect(result.items).toEqual([]);
        expect(result.total).toBe(0);
        expect(result.totalCapped).toBe(false);
      }
      const forManager = await search.search(manager, { q: "marramgrass" });
      expect(ids(forManager.items)).toEqual([gated.id]);
      expect(forManager.total).toBe(1);
    });

    it("a role-gated body does not move its item for a reader without the role", async () => {
      const bare = await make({
        title: "Saltmarsh atlas",
        rolesRequired: ["ContentManager"],
        excerpt: "Same.",
      });
      const heavy = await make({
        title: "Saltmarsh atlas",
        rolesRequired: ["ContentManager"],
        excerpt: "Same.",
        body: "saltmarsh ".repeat(50),
      });
      const forPro = await search.search(pro, { q: "saltmarsh" });
      // Equal metadata → equal score → ordered by id only, whatever the bodies hold.
      expect(ids(forPro.items)).toEqual([bare.id, heavy.id].sort());
      expect(forPro.total).toBe(2);
      const forManager = await search.search(manager, { q: "saltmarsh" });
      expect(ids(forManager.items)[0]).toBe(heavy.id);
    });
  });

  it("returns markup in content as inert text parts", async () => {
    const item = await make({
      title: "<script>alert(1)</script> Xylograph",
      excerpt: "<img src=x onerror=alert(2)> xylograph excerpt",
      body: 'Intro.\n\nRun `<script>alert(3)</script>` near the xylograph.\n\n<div onclick="x()">raw html xylograph</div>',
    });
    const result = await search.search(free, { q: "xylograph" });
    const found = result.items.find((i) => i.id === item.id)!;
    expect(text(found.titleParts)).toBe("<script>alert(1)</script> Xylograph");
    expect(found.titleParts.every((p) => typeof p.text === "string" && typeof p.hit === "boolean")).toBe(
      true,
    );
    // SQLite keeps the code span's text as written; PostgreSQL's headline drops tag-like tokens.
    expect(text(found.snippet)).toContain(dialect === "sqlite" ? "<script>alert(3)</script>" : "alert(3)");
    expect(text(found.snippet)).not.toContain("onclick");
  });

  it("a word in more than the cap ranks the newest 500 matching documents only, on every dialect", async () => {
    // The oldest match has the best title; the 500 newer ones fill the candidates before it.
    const oldest = await make({ title: "Sphagnum sphagnum sphagnum", excerpt: "Sphagnum." });
    const newer: Content[] = [];
    for (let i = 0; i < SEARCH_MAX_CANDIDATES; i++) {
      newer.push(await make({ title: `Bog notes ${i}`, excerpt: `A sphagnum mat, number ${i}.` }));
    }
    const result = await search.search(visitor, { q: "sphagnum", limit: 50 });
    expect(result.total).toBe(SEARCH_MAX_CANDIDATES);
    expect(result.totalCapped).toBe(true);
    expect(ids(result.items)).not.toContain(oldest.id);
    expect(newer.map((c) => c.id)).toEqual(expect.arrayContaining(ids(result.items)));
  });

  it.runIf(dialect === "postgres")(
    "the GIN plan (after a cancelled newest-first walk) finds and ranks the same as the walk",
    async () => {
      const walk = createSearchRepo(t.db);
      const gin = createSearchRepo(t.db, { walkTimeoutMs: 0 });
      const pro = { tier: "Pro" as const, roles: [] };
      // Past the cap, several words, one rare word, nothing: the same hits, totals and caps.
      for (const words of [["sphagnum"], ["sphagnum", "mat"], ["sphagnum", "number", "7"], ["nowhere"]]) {
        for (const access of [{ tier: null, roles: [] }, pro]) {
          const query = { words, access, limit: 20, offset: 0 };
          const [a, b] = [await walk.search(query), await gin.search(query)];
          expect(b, words.join(" ")).toEqual(a);
        }
      }
      const capped = await gin.search({ words: ["sphagnum"], access: pro, limit: 5, offset: 0 });
      expect(capped.totalCapped).toBe(true);
      expect(capped.hits).toHaveLength(5);
    },
  );

  it("never fails on hostile input", async () => {
    await make({ title: "Hostile guard", body: "near or and not" });
    const inputs = [
      '"',
      '""',
      "'",
      "*",
      "* OR *",
      "NEAR(a b)",
      "a NEAR b",
      "a OR b",
      "NOT a",
      "a AND NOT b",
      "(((",
      ")",
      "-a",
      "a -b",
      "title:hostile",
      "{title}: hostile",
      "^hostile",
      "hostile*",
      "hostile\\",
      "'; drop table content; --",
      "\u0000\u0001",
      "\uE000hostile\uE001",
      "a & b | !c <-> d",
      "a:* & b",
      "café naïve 東京 🙂",
      "\u0301",
      "x".repeat(1000),
      "word ".repeat(200),
      "   ",
      "",
    ];
    for (const q of inputs) {
      for (const reader of [visitor, pro]) {
        const result = await search.search(reader, { q });
        expect(Array.isArray(result.items), JSON.stringify(q)).toBe(true);
      }
    }
    expect((await search.search(free, { q: '"hostile" OR' })).items.length).toBe(1);
    expect((await search.search(free, { q: "   " })).items).toEqual([]);
    expect((await search.search(free, { q: "x".repeat(1000) })).query.length).toBe(200);
  });

  it("builds a missing index on start-up and leaves a complete one alone", async () => {
    const contentCount = Number(
      (
        await t.db
          .selectFrom("content")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(await indexer.count()).toBe(contentCount);
    expect(await indexer.ensureIndexed()).toBeNull();
    await t.db.deleteFrom("content_search").execute();
    expect((await search.search(free, { q: "zephyrine" })).items).toEqual([]);
    expect(await indexer.ensureIndexed()).toEqual({ indexed: contentCount, failed: 0 });
    expect(await indexer.count()).toBe(contentCount);
    expect((await search.search(free, { q: "zephyrine" })).items.length).toBe(2);
    expect(await indexer.indexMissing()).toEqual({ indexed: 0, failed: 0 });
  });
});
