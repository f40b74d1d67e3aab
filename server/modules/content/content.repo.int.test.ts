import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "../../db/pagination.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError, ConflictError, DataIntegrityError, NotFoundError } from "../../errors.ts";
import { createUsersRepo } from "../users/users.repo.ts";
import { type Content, createContentRepo, type NewContent } from "./content.repo.ts";
import { createContentCategoryRepo } from "./content-category.repo.ts";
import { createContentItemRepo } from "./content-item.repo.ts";

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe.each(testDialects())("content repositories on %s", (dialect) => {
  let t: TestDatabase;
  let repo: ReturnType<typeof createContentRepo>;
  let authorId: string;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    repo = createContentRepo(t.db);
    const author = await createUsersRepo(t.db).create({ name: "Ada", email: `${unique("ada")}@demo.local` });
    authorId = author.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const make = (overrides: Partial<NewContent> = {}) =>
    repo.create({ title: "A title", slug: unique("slug"), ...overrides });

  describe("content", () => {
    it("round-trips every kind of field (JSON lists, JSON object, booleans, datetimes, epochs)", async () => {
      const categories = createContentCategoryRepo(t.db);
      const category = await categories.create({
        slug: unique("cat"),
        label: "Prompting",
        defaultTier: "Basic",
      });
      const slug = unique("prompting-101");
      const created = await repo.create({
        title: "Prompting 101",
        slug,
        type: "course",
        status: "published",
        tenant: "tenant-1",
        gid: "g-1",
        category: "Prompting",
        categoryId: category.id,
        categorySlug: category.slug,
        categoryTier: "Basic",
        section: "ai-education",
        taxon: "education/prompting",
        tier: "Pro",
        classification: "internal",
        pii: true,
        retention: "P1Y",
        isPublic: true,
        publishedAt: "2026-02-03T04:05:06+01:00",
        eventTime: new Date("2026-05-01T10:00:00.000Z"),
        bodyS3Key: "content/pro/prompting-101.md",
        bodySize: 1234,
        bodyChecksum: "sha256-abc",
        bodyFormat: "markdown",
        excerpt: "Learn to prompt.",
        tags: ["prompting", "llm"],
        aliases: ["/old/prompting"],
        audience: ["developers"],
        related: ["slug-a", "slug-b"],
        seoKeywords: ["prompt engineering"],
        seoTitle: "Prompting 101 | Lumen",
        metaDescription: "A course",
        ogTitle: "OG title",
        ogDescription: "OG description",
        ogImage: "https://example.test/og.png",
        twitterCard: "summary_large_image",
        schemaType: "Course",
        canonicalUrl: "https://example.test/prompting-101",
        noindex: true,
        structuredData: {
          "@context": "https://schema.org",
          "@type": "Course",
          hasPart: [{ name: "x", n: 1 }],
        },
        authorId,
        lastEditedBy: authorId,
        featured: true,
        featuredOrder: 2,
        featuredImage: "/img.png",
        featuredImageAlt: "An image",
        workflowStatus: "approved",
        reviewerNotes: "ok",
        templateId: "tpl-course",
        rolesRequired: ["Editor"],
        createdAt: "2026-01-01T00:00:00.000Z",
      });

      expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/); // UUID v7
      expect(created.version).toBe(1);
      expect(created.viewCount + created.likeCount + created.shareCount + created.commentCount).toBe(0);
      expect(created.publishedAt).toBe("2026-02-03T03:05:06.000Z");
      expect(created.publishedEpoch).toBe(Date.parse("2026-02-03T03:05:06.000Z"));
      expect(created.eventTime).toBe("2026-05-01T10:00:00.000Z");
      expect(created.eventEpoch).toBe(Date.parse("2026-05-01T10:00:00.000Z"));
      expect(created.createdAt).toBe("2026-01-01T00:00:00.000Z");
      expect(created.updatedAt).toBe("2026-01-01T00:00:00.000Z");
      expect(created.createdEpoch).toBe(Date.parse("2026-01-01T00:00:00.000Z"));

      const loaded = await repo.getById(created.id);
      expect(loaded).toEqual(created);
      expect(loaded).toMatchObject({
        pii: true,
        isPublic: true,
        noindex: true,
        featured: true,
        tags: ["prompting", "llm"],
        aliases: ["/old/prompting"],
        audience: ["developers"],
        related: ["slug-a", "slug-b"],
        seoKeywords: ["prompt engineering"],
        rolesRequired: ["Editor"],
        structuredData: {
          "@context": "https://schema.org",
          "@type": "Course",
          hasPart: [{ name: "x", n: 1 }],
        },
        bodySize: 1234,
        tier: "Pro",
        type: "course",
      });
      expect(await repo.getBySlug(slug)).toEqual(created);
      expect(await repo.getByIdOrSlug(slug)).toEqual(created);
      expect(await repo.getByIdOrSlug(created.id)).toEqual(created);
      expect(await repo.getManyByIds([created.id, "missing"])).toEqual([created]);
    });

    it("applies defaults: draft, Free, markdown, empty lists, false flags", async () => {
      const c = await make();
      expect(c).toMatchObject({
        status: "draft",
        tier: "Free",
        type: "article",
        bodyFormat: "markdown",
        tags: [],
        aliases: [],
        audience: [],
        related: [],
        seoKeywords: [],
        rolesRequired: [],
        pii: false,
        isPublic: false,
        noindex: false,
        featured: false,
        structuredData: null,
        publishedAt: null,
        publishedEpoch: null,
        version: 1,
      });
      expect(await repo.getById("nope")).toBeNull();
      expect(await repo.getBySlug("nope")).toBeNull();
    });

    it("rejects a malformed JSON field on write with BadInputError and stores nothing", async () => {
      const slug = unique("bad-json");
      await expect(repo.create({ title: "x", slug, tags: [1, 2] as unknown as string[] })).rejects.toThrow(
        BadInputError,
      );
      await expect(
        repo.create({
          title: "x",
          slug,
          structuredData: "not an object" as unknown as Record<string, never>,
        }),
      ).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
      await expect(repo.create({ title: "x", slug, publishedAt: "yesterday" })).rejects.toThrow(
        BadInputError,
      );
      expect(await repo.getBySlug(slug)).toBeNull();

      const c = await make();
      await expect(repo.update(c.id, 1, { audience: [""] })).rejects.toThrow(BadInputError);
      expect((await repo.getById(c.id))?.version).toBe(1);
    });

    it("refuses a malformed stored JSON field on read with DataIntegrityError", async () => {
      const c = await make();
      await t.db.updateTable("content").set({ tags: '{"not":"a list"}' }).where("id", "=", c.id).execute();
      await expect(repo.getById(c.id)).rejects.toThrow(DataIntegrityError);
      await t.db.updateTable("content").set({ tags: "[" }).where("id", "=", c.id).execute();
      await expect(repo.getById(c.id)).rejects.toThrow(DataIntegrityError);
      await repo.delete(c.id);
    });

    it("refuses a duplicate slug with ConflictError and an unknown category with BadInputError", async () => {
      const c = await make();
      await expect(make({ slug: c.slug })).rejects.toThrow(ConflictError);
      await expect(make({ categoryId: "no-such-category" })).rejects.toThrow(BadInputError);
      const other = await make();
      await expect(repo.update(other.id, 1, { slug: c.slug })).rejects.toThrow(ConflictError);
    });

    it("updates with optimistic concurrency: a stale version throws ConflictError and the winner's write stays", async () => {
      const c = await make({ title: "Original", tags: ["a"] });
      const [first, second] = await Promise.allSettled([
        repo.update(c.id, 1, { title: "Winner", tags: ["w"] }),
        repo.update(c.id, 1, { title: "Loser", tags: ["l"] }),
      ]);
      const outcomes = [first, second];
      const fulfilled = outcomes.filter((o) => o.status === "fulfilled");
      const rejected = outcomes.filter((o) => o.status === "rejected");
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toHaveLength(1);
      const reason = (rejected[0] as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(ConflictError);
      expect(reason.code).toBe("CONFLICT");
      expect(reason.details).toMatchObject({ expectedVersion: 1, currentVersion: 2 });

      const winner = (fulfilled[0] as PromiseFulfilledResult<Content>).value;
      const stored = await repo.getById(c.id);
      expect(stored).toEqual(winner);
      expect(stored?.version).toBe(2);
      expect(["Winner", "Loser"]).toContain(stored?.title);
      expect(stored?.tags).toEqual(stored?.title === "Winner" ? ["w"] : ["l"]);

      // sequential: stale again after a later write
      const third = await repo.update(c.id, 2, { title: "Third", publishedAt: "2026-06-01T00:00:00.000Z" });
      expect(third.version).toBe(3);
      expect(third.publishedEpoch).toBe(Date.parse("2026-06-01T00:00:00.000Z"));
      expect(third.updatedAt >= c.updatedAt).toBe(true);
      await expect(repo.update(c.id, 2, { title: "Late" })).rejects.toThrow(ConflictError);
      expect((await repo.getById(c.id))?.title).toBe("Third");

      await expect(repo.update("missing", 1, { title: "x" })).rejects.toThrow(NotFoundError);
    });

    it("lists by section newest first (publishedAt desc, then id desc), published only", async () => {
      const section = unique("section");
      const a = await make({ section, status: "published", publishedAt: "2026-01-01T00:00:00.000Z" });
      const b = await make({ section, status: "published", publishedAt: "2026-03-01T00:00:00.000Z" });
      const c1 = await make({ section, status: "published", publishedAt: "2026-02-01T00:00:00.000Z" });
      const c2 = await make({ section, status: "published", publishedAt: "2026-02-01T00:00:00.000Z" });
      await make({ section, status: "draft", publishedAt: "2026-04-01T00:00:00.000Z" });
      await make({ section, status: "published" }); // no publishedAt: not listed
      await make({ section: unique("other"), status: "published", publishedAt: "2026-05-01T00:00:00.000Z" });

      const page = await repo.listBySection(section);
      const tie = [c1, c2].sort((x, y) => (x.id < y.id ? 1 : -1)).map((x) => x.id);
      expect(page.items.map((i) => i.id)).toEqual([b.id, ...tie, a.id]);
      expect(page.nextCursor).toBeNull();

      const all = await repo.list({ section, status: null });
      expect(all.items).toHaveLength(5);
      const drafts = await repo.list({ section, status: ["draft"] });
      expect(drafts.items).toHaveLength(1);
      expect((await repo.list({ section, status: [] })).items).toEqual([]);
    });

    it("lists by category, category tier, tier and featured", async () => {
      const categorySlug = unique("cat");
      const categoryTier = unique("tier");
      const base = { status: "published", categorySlug, categoryTier } as const;
      const free = await make({ ...base, tier: "Free", publishedAt: "2026-01-01T00:00:00.000Z" });
      const pro = await make({
        ...base,
        tier: "Pro",
        featured: true,
        publishedAt: "2026-01-02T00:00:00.000Z",
      });
      const basic = await make({
        ...base,
        tier: "Basic",
        featured: true,
        publishedAt: "2026-01-03T00:00:00.000Z",
      });

      const ids = (p: { items: Content[] }) => p.items.map((i) => i.id);
      expect(ids(await repo.list({ categorySlug }))).toEqual([basic.id, pro.id, free.id]);
      expect(ids(await repo.listByCategoryTier(categoryTier))).toEqual([basic.id, pro.id, free.id]);
      expect(ids(await repo.list({ categorySlug, featured: true }))).toEqual([basic.id, pro.id]);
      expect(ids(await repo.list({ categorySlug, featured: false }))).toEqual([free.id]);
      expect(ids(await repo.listByTier("Pro", {}, { categorySlug }))).toEqual([pro.id]);
      expect(ids(await repo.list({ categorySlug, tier: ["Free", "Basic"] }))).toEqual([basic.id, free.id]);
      expect(ids(await repo.list({ categorySlug, tier: [] }))).toEqual([]);
    });

    it("lists by status and by author, updatedAt desc then id desc", async () => {
      const status = unique("review");
      const u1 = await make({ status, authorId, createdAt: "2026-01-01T00:00:00.000Z" });
      const u3 = await make({ status, authorId, createdAt: "2026-01-03T00:00:00.000Z" });
      const u2 = await make({ status, createdAt: "2026-01-02T00:00:00.000Z" });
      expect((await repo.listByStatus(status)).items.map((i) => i.id)).toEqual([u3.id, u2.id, u1.id]);

      const mine = await repo.listByAuthor(authorId, { limit: 100 });
      const positions = [u3.id, u1.id].map((id) => mine.items.findIndex((i) => i.id === id));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect(positions[0]).toBeLessThan(positions[1] as number);
      const updatedAts = mine.items.map((i) => i.updatedAt);
      expect([...updatedAts].sort().reverse()).toEqual(updatedAts);
    });

    it("pages through a list with the cursor, returning every item exactly once", async () => {
      const section = unique("paged");
      const created: Content[] = [];
      for (let i = 0; i < 23; i++) {
        // many equal publishedAt values, so the id tie-breaker matters
        const day = String(1 + (i % 4)).padStart(2, "0");
        created.push(
          await make({ section, status: "published", publishedAt: `2026-01-${day}T00:00:00.000Z` }),
        );
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { items: Content[]; nextCursor: string | null } = await repo.listBySection(section, {
          limit: 5,
          cursor,
        });
        expect(page.items.length).toBeLessThanOrEqual(5);
        seen.push(...page.items.map((i) => i.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 20);
      expect(pages).toBe(5);
      expect(seen).toHaveLength(23);
      expect(new Set(seen).size).toBe(23);
      const expected = [...created]
        .sort((x, y) =>
          x.publishedAt === y.publishedAt
            ? y.id.localeCompare(x.id)
            : (y.publishedAt ?? "").localeCompare(x.publishedAt ?? ""),
        )
        .map((c) => c.id);
      expect(seen).toEqual(expected);
    });

    it("clamps the limit to 1..100", async () => {
      const section = unique("many");
      for (let i = 0; i < 102; i++) {
        await make({ section, status: "published", publishedAt: "2026-01-01T00:00:00.000Z" });
      }
      const big = await repo.listBySection(section, { limit: 10_000 });
      expect(big.items).toHaveLength(100);
      expect(big.nextCursor).not.toBeNull();
      const rest = await repo.listBySection(section, { limit: 10_000, cursor: big.nextCursor });
      expect(rest.items).toHaveLength(2);
      expect(rest.nextCursor).toBeNull();
      expect((await repo.listBySection(section, { limit: 0 })).items).toHaveLength(1);
      expect((await repo.listBySection(section, { limit: -3 })).items).toHaveLength(1);
      expect((await repo.listBySection(section)).items).toHaveLength(20);
    });

    it("refuses a malformed cursor with BadInputError (code BAD_USER_INPUT)", async () => {
      for (const cursor of [
        "%%%",
        "eyJub3QiOiJjbG9zZWQ",
        encodeCursor({ publishedAt: "not a date", id: "x" }),
        encodeCursor({ updatedAt: "2026-01-01T00:00:00.000Z", id: "x" }),
      ]) {
        await expect(repo.listBySection("s", { cursor })).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
      }
      await expect(repo.listByStatus("draft", { cursor: "@@" })).rejects.toThrow(BadInputError);
    });

    it("increments counters atomically, never below zero, without touching the version", async () => {
      const c = await make();
      await Promise.all([
        repo.incrementCounters(c.id, { viewCount: 1 }),
        repo.incrementCounters(c.id, { viewCount: 1, likeCount: 2 }),
        repo.incrementCounters(c.id, { viewCount: 1, shareCount: 1, commentCount: 3 }),
      ]);
      await repo.incrementCounters(c.id, { likeCount: -5 });
      const after = await repo.getById(c.id);
      expect(after).toMatchObject({ viewCount: 3, likeCount: 0, shareCount: 1, commentCount: 3, version: 1 });
      expect(after?.updatedAt).toBe(c.updatedAt);
      await repo.incrementCounters(c.id, {});
      await expect(repo.incrementCounters("missing", { viewCount: 1 })).rejects.toThrow(NotFoundError);
      await expect(repo.incrementCounters(c.id, { viewCount: 1.5 })).rejects.toThrow(BadInputError);
      await expect(
        repo.incrementCounters(c.id, { version: 1 } as unknown as Record<"viewCount", number>),
      ).rejects.toThrow(BadInputError);
    });

    it("deletes, and counts", async () => {
      const status = unique("count");
      const c = await make({ status });
      await make({ status });
      expect(await repo.count({ status })).toBe(2);
      expect(await repo.count()).toBeGreaterThanOrEqual(2);
      expect(await repo.delete(c.id)).toBe(true);
      expect(await repo.delete(c.id)).toBe(false);
      expect(await repo.getById(c.id)).toBeNull();
      expect(await repo.count({ status })).toBe(1);
    });
  });

  describe("content categories", () => {
    it("round-trips, lists active ones by label, updates, deletes (content keeps its row)", async () => {
      const categories = createContentCategoryRepo(t.db);
      const slug = unique("zeta");
      const zeta = await categories.create({
        slug,
        label: "Zzz last",
        description: "d",
        defaultTier: "Pro",
        icon: "Brain",
        s3Prefix: "content/pro/",
      });
      expect(zeta).toMatchObject({ slug, isActive: true, icon: "Brain", s3Prefix: "content/pro/" });
      expect(await categories.getBySlug(slug)).toEqual(zeta);
      expect(await categories.getById(zeta.id)).toEqual(zeta);
      const hidden = await categories.create({
        slug: unique("hidden"),
        label: "Aaa hidden",
        isActive: false,
      });
      expect(hidden.isActive).toBe(false);

      const active = await categories.list();
      expect(active.map((c) => c.id)).toContain(zeta.id);
      expect(active.map((c) => c.id)).not.toContain(hidden.id);
      const labels = active.map((c) => c.label);
      expect([...labels].sort()).toEqual(labels);
      expect((await categories.list({ includeInactive: true })).map((c) => c.id)).toContain(hidden.id);

      await expect(categories.create({ slug, label: "dup" })).rejects.toThrow(ConflictError);
      const updated = await categories.update(zeta.id, { label: "Renamed", isActive: false });
      expect(updated).toMatchObject({ label: "Renamed", isActive: false, slug });
      await expect(categories.update("missing", { label: "x" })).rejects.toThrow(NotFoundError);

      const content = await make({ categoryId: zeta.id });
      expect(await categories.delete(zeta.id)).toBe(true);
      const after = await repo.getById(content.id);
      expect(after?.categoryId).toBeNull(); // ON DELETE SET NULL
    });
  });

  describe("content items", () => {
    it("round-trips, lists by content and category, cascades with the content", async () => {
      const items = createContentItemRepo(t.db);
      const content = await make();
      const categorySlug = unique("items");
      const one = await items.create({
        contentId: content.id,
        title: "Item one",
        slug: unique("item"),
        tier: "Basic",
        categorySlug,
        isPublic: true,
        publishedAt: "2026-01-01T00:00:00.000Z",
        tags: ["t1"],
        structuredData: [{ "@type": "Article" }],
      });
      expect(one).toMatchObject({ isPublic: true, tags: ["t1"], structuredData: [{ "@type": "Article" }] });
      expect(await items.getById(one.id)).toEqual(one);
      expect(await items.getBySlug(one.slug ?? "")).toEqual(one);
      const two = await items.create({
        contentId: content.id,
        tier: "Free",
        categorySlug,
        publishedAt: "2026-01-02T00:00:00.000Z",
      });
      expect(two).toMatchObject({ isPublic: false, tags: [], structuredData: null });
      expect((await items.listByContentId(content.id)).map((i) => i.id).sort()).toEqual(
        [one.id, two.id].sort(),
      );
      const page = await items.listByCategorySlug(categorySlug, { limit: 1 });
      expect(page.items.map((i) => i.id)).toEqual([two.id]);
      const next = await items.listByCategorySlug(categorySlug, { limit: 1, cursor: page.nextCursor });
      expect(next.items.map((i) => i.id)).toEqual([one.id]);
      expect(next.nextCursor).toBeNull();

      const updated = await items.update(one.id, { title: "Renamed", tags: ["t2"], isPublic: false });
      expect(updated).toMatchObject({ title: "Renamed", tags: ["t2"], isPublic: false });
      await expect(items.update(one.id, { tags: [42] as unknown as string[] })).rejects.toThrow(
        BadInputError,
      );
      await expect(items.update("missing", { title: "x" })).rejects.toThrow(NotFoundError);

      await repo.delete(content.id);
      expect(await items.getById(one.id)).toBeNull();
      expect(await items.getById(two.id)).toBeNull();
      const orphan = await items.create({ tier: "Free" });
      expect(await items.delete(orphan.id)).toBe(true);
    });
  });
});
