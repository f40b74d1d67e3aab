/**
 * The management table's API (`GET /api/studio/content`): content writers see every item in every
 * workflow state; filters, case-insensitive search with LIKE wildcards taken literally, the state
 * counts, sort and cursor paging without duplicates or gaps, a 400 naming each bad parameter, and
 * who may ask (visitor 401, readers and organisation admins 403, content managers 200).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKFLOW_STATES, type WorkflowState } from "../../core/index.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import type { StudioList, StudioRow } from "../../server/modules/content/studio.types.ts";
import { buildContent } from "../factories/index.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

/** A word no demo item uses: `q=zephyr` lists this file's items only. */
const MARK = "zephyr";

interface Sample {
  slug: string;
  title: string;
  status: string;
  workflowStatus?: string | null;
  state: WorkflowState;
  excerpt?: string;
  tier?: string;
  type?: string;
  section?: string;
  mine?: boolean;
  category?: boolean;
  publishedAt?: string | null;
  /** Minutes after the base time (several share one: the id breaks the tie). */
  updated: number;
}

const SAMPLES: Sample[] = [
  {
    slug: "zephyr-draft",
    title: "Zephyr draft notes",
    status: "draft",
    state: "draft",
    updated: 1,
    mine: true,
  },
  {
    slug: "zephyr-changes",
    title: "zephyr changes wanted",
    status: "draft",
    workflowStatus: "changes_requested",
    state: "changes_requested",
    updated: 2,
    mine: true,
    tier: "Pro",
  },
  {
    slug: "zephyr-review",
    title: "Zephyr in review",
    status: "review",
    state: "in_review",
    updated: 2,
    type: "video",
  },
  {
    slug: "zephyr-approved",
    title: "Zephyr approved plan",
    status: "review",
    workflowStatus: "approved",
    state: "approved",
    updated: 2,
    section: "ai-news",
  },
  {
    slug: "zephyr-scheduled",
    title: "ZEPHYR scheduled launch",
    status: "review",
    workflowStatus: "scheduled",
    state: "scheduled",
    publishedAt: "2099-01-01T00:00:00.000Z",
    updated: 3,
    category: true,
  },
  {
    slug: "zephyr-published",
    title: "Zephyr published guide",
    status: "published",
    state: "published",
    publishedAt: "2026-02-01T00:00:00.000Z",
    updated: 4,
    mine: true,
    category: true,
  },
  {
    slug: "zephyr-archived",
    title: "Zephyr archived memo",
    status: "archived",
    state: "archived",
    publishedAt: "2025-02-01T00:00:00.000Z",
    updated: 5,
  },
  // A workflowStatus that disagrees with status: the stored status decides (what visitors see).
  {
    slug: "zephyr-mismatch",
    title: "Zephyr older row",
    status: "published",
    workflowStatus: "draft",
    state: "published",
    publishedAt: "2026-03-01T00:00:00.000Z",
    updated: 5,
  },
  {
    slug: "zephyr-sale",
    title: "Zephyr 100% off_sale",
    status: "draft",
    workflowStatus: "draft",
    state: "draft",
    updated: 6,
    excerpt: "Mentions the QUASAR project.",
  },
  { slug: "zephyr-plain", title: "Zephyr 100 percent", status: "draft", state: "draft", updated: 7 },
  // A stored status the workflow does not know reads as a draft (never public).
  { slug: "zephyr-legacy", title: "Zephyr legacy import", status: "pending", state: "draft", updated: 8 },
];

const COUNTED: Record<WorkflowState, number> = {
  draft: 4,
  in_review: 1,
  changes_requested: 1,
  approved: 1,
  scheduled: 1,
  published: 2,
  archived: 1,
};

describe.each(DIALECTS)("GET /api/studio/content (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let categorySlug: string;
  let categoryLabel: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, RAISED_RATE_LIMITS);
    const db = server.runtime.database.db;
    const manager = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "manager@demo.local")
      .executeTakeFirstOrThrow();
    const other = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "admin@demo.local")
      .executeTakeFirstOrThrow();
    const category = await db
      .selectFrom("content_category")
      .select(["slug", "label"])
      .orderBy("slug")
      .executeTakeFirstOrThrow();
    categorySlug = category.slug;
    categoryLabel = category.label;
    const repo = createContentRepo(db);
    const base = Date.UTC(2026, 5, 1);
    for (const s of SAMPLES) {
      const at = new Date(base + s.updated * 60_000).toISOString();
      await repo.create(
        buildContent({
          slug: s.slug,
          title: s.title,
          status: s.status,
          workflowStatus: s.workflowStatus ?? null,
          excerpt: s.excerpt ?? null,
          tier: s.tier ?? "Free",
          type: s.type ?? "article",
          section: s.section ?? "ai-education",
          categorySlug: s.category ? categorySlug : null,
          authorId: s.mine ? manager.id : other.id,
          publishedAt: s.publishedAt ?? null,
          bodyS3Key: null,
          bodySize: null,
          bodyChecksum: null,
          createdAt: at,
          updatedAt: at,
        }).row,
      );
    }
    for (const who of ["manager", "free", "business"]) {
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    }
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  const get = (query: string, who: string | null = "manager") =>
    fetch(`${server.url}/api/studio/content${query}`, { headers: who ? { cookie: cookies[who]! } : {} });

  async function list(query: string): Promise<StudioList> {
    const res = await get(query);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as StudioList;
  }
  const slugs = (page: StudioList) => page.items.map((i) => i.slug);

  it("lists every state to a content manager, with rows shaped for the table", async () => {
    const page = await list(`?q=${MARK}&limit=100`);
    expect(new Set(slugs(page))).toEqual(new Set(SAMPLES.map((s) => s.slug)));
    for (const s of SAMPLES) {
      expect(page.items.find((i) => i.slug === s.slug)?.state, s.slug).toBe(s.state);
    }
    const published = page.items.find((i) => i.slug === "zephyr-published")!;
    expect(published).toMatchObject<Partial<StudioRow>>({
      title: "Zephyr published guide",
      type: "article",
      tier: "Free",
      section: "ai-education",
      categorySlug,
      categoryLabel,
      authorName: expect.any(String),
      publishedAt: "2026-02-01T00:00:00.000Z",
      version: 1,
      editUrl: `/content/${published.id}/edit`,
      publicUrl: "/content/zephyr-published",
    });
    expect(page.counts).toEqual(COUNTED);
    expect(page.total).toBe(SAMPLES.length);
    expect(page.nextCursor).toBeNull();
  });

  it.each(WORKFLOW_STATES)("state=%s lists that state; the counts ignore the state filter", async (state) => {
    const page = await list(`?q=${MARK}&state=${state}`);
    expect(new Set(slugs(page))).toEqual(
      new Set(SAMPLES.filter((s) => s.state === state).map((s) => s.slug)),
    );
    expect(page.total).toBe(COUNTED[state]);
    expect(page.counts).toEqual(COUNTED);
  });

  it("filters by section, category, tier, type and author (me or an id)", async () => {
    expect(slugs(await list(`?q=${MARK}&section=ai-news`))).toEqual(["zephyr-approved"]);
    expect(new Set(slugs(await list(`?q=${MARK}&category=${categorySlug}`)))).toEqual(
      new Set(["zephyr-scheduled", "zephyr-published"]),
    );
    expect(slugs(await list(`?q=${MARK}&tier=pro`))).toEqual(["zephyr-changes"]);
    expect(slugs(await list(`?q=${MARK}&type=video`))).toEqual(["zephyr-review"]);
    const mine = await list(`?q=${MARK}&author=me`);
    expect(new Set(slugs(mine))).toEqual(new Set(SAMPLES.filter((s) => s.mine).map((s) => s.slug)));
    expect(mine.counts).toMatchObject({ draft: 1, changes_requested: 1, published: 1, archived: 0 });
    const byId = await list(`?q=${MARK}&author=${mine.items[0]!.authorId}`);
    expect(new Set(slugs(byId))).toEqual(new Set(slugs(mine)));
    // Filters combine.
    expect(slugs(await list(`?q=${MARK}&author=me&state=published&category=${categorySlug}`))).toEqual([
      "zephyr-published",
    ]);
  });

  it("searches title, slug and excerpt case-insensitively, with % and _ taken literally", async () => {
    expect(slugs(await list("?q=ZEPHYR%20SCHEDULED"))).toEqual(["zephyr-scheduled"]);
    expect(slugs(await list("?q=quasar"))).toEqual(["zephyr-sale"]);
    expect(slugs(await list("?q=zephyr-mismatch"))).toEqual(["zephyr-mismatch"]);
    expect(slugs(await list(`?q=${encodeURIComponent("100%")}`))).toEqual(["zephyr-sale"]);
    expect(slugs(await list(`?q=${encodeURIComponent("off_")}`))).toEqual(["zephyr-sale"]);
    expect(slugs(await list(`?q=${encodeURIComponent("f_s")}`))).toEqual(["zephyr-sale"]);
    const none = await list(`?q=${encodeURIComponent("zephyr_draft")}`);
    expect(none.items).toEqual([]);
    expect(none.total).toBe(0);
  });

  /** The sort value a row is ordered by (null: not compared). */
  const secondWord = (row: StudioRow) => {
    // Collations differ on punctuation: only titles whose second word starts with a letter are compared.
    const word = row.title.toLowerCase().split(" ")[1] ?? "";
    return /^[a-z]/.test(word) ? word : null;
  };
  const ORDERS: [string, "asc" | "desc", (row: StudioRow) => string | null][] = [
    ["updated", "desc", (r) => r.updatedAt],
    ["updated", "asc", (r) => r.updatedAt],
    ["created", "desc", (r) => r.updatedAt],
    ["title", "asc", secondWord],
    ["title", "desc", secondWord],
    ["published", "desc", (r) => r.publishedAt],
    ["published", "asc", (r) => r.publishedAt],
  ];

  it.each(ORDERS)("sort=%s dir=%s pages by cursor without duplicates or gaps", async (sort, dir, keyOf) => {
    const all = await list(`?q=${MARK}&sort=${sort}&dir=${dir}&limit=100`);
    const keys = all.items.map(keyOf).filter((k): k is string => k !== null);
    expect(keys).toEqual([...keys].sort((a, b) => (dir === "asc" ? a.localeCompare(b) : b.localeCompare(a))));
    if (sort === "published") {
      // Items never published come last in both directions.
      const firstUnpublished = all.items.findIndex((i) => i.publishedAt === null);
      expect(all.items.slice(firstUnpublished).every((i) => i.publishedAt === null)).toBe(true);
      expect(firstUnpublished).toBe(SAMPLES.filter((s) => s.publishedAt).length);
    }
    const paged: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(
        `?q=${MARK}&sort=${sort}&dir=${dir}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(3);
      expect(page.total).toBe(SAMPLES.length);
      paged.push(...slugs(page));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(paged).toEqual(slugs(all));
    expect(pages).toBe(Math.ceil(SAMPLES.length / 3));
  });

  it("pages through the whole catalogue (demo items included) with the default sort", async () => {
    const everything = await list("?limit=100");
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      seen.push(...slugs(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(everything.total);
    expect(Object.values(everything.counts).reduce((a, b) => a + b, 0)).toBe(everything.total);
  });

  it.each([
    ["?state=live", "state"],
    ["?section=nowhere", "section"],
    ["?category=Bad%20Slug", "category"],
    ["?tier=gold", "tier"],
    ["?type=podcast", "type"],
    ["?author=a%20b", "author"],
    ["?sort=views", "sort"],
    ["?dir=sideways", "dir"],
    ["?limit=0", "limit"],
    ["?limit=101", "limit"],
    ["?cursor=garbage!", "cursor"],
    ["?state=draft&state=archived", "state"],
    ["?colour=red", "colour"],
  ])("%s → 400 naming %s", async (query, field) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: { code: string; message: string; field: Record<string, string> };
    };
    expect(body.error.code).toBe("BAD_USER_INPUT");
    expect(Object.keys(body.error.field)).toEqual([field]);
    expect(body.error.message).toContain(field);
  });

  it("refuses a cursor of another sort (400 naming cursor)", async () => {
    const first = await list(`?q=${MARK}&sort=title&limit=2`);
    const res = await get(`?q=${MARK}&sort=updated&limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { field: object } }).error.field).toHaveProperty("cursor");
  });

  it("the /content screen renders the same list on the server, filtered by the URL (no JavaScript needed)", async () => {
    const page = async (query: string) => {
      const res = await fetch(`${server.url}/content${query}`, { headers: { cookie: cookies.manager! } });
      expect(res.status).toBe(200);
      return (await res.text()).replaceAll("<!-- -->", "");
    };
    const api = await list(`?q=${MARK}&state=draft&sort=title&dir=asc`);
    const html = await page(`?q=${MARK}&state=draft&order=title-asc`);
    const shown = [
      ...html.matchAll(/<span class="block font-mono text-xs text-ink-subtle">([a-z0-9-]+)<\/span>/g),
    ].map((m) => m[1]);
    expect(shown).toEqual(slugs(api));
    for (const row of api.items) expect(html).toContain(`href="${row.editUrl}"`);
    expect(html).toContain(`${COUNTED.draft} items matching “${MARK}”`);
    // The sidebar's ?search= is the same search; an out-of-date page link starts again at page one.
    expect(await page(`?search=${MARK}`)).toContain(`${SAMPLES.length} items matching “${MARK}”`);
    expect(await page(`?q=${MARK}&cursor=stale`)).toContain("That page link is out of date");
    expect(await page("?q=nothing-matches-this-zz")).toContain("Nothing matches “nothing-matches-this-zz”");
  });

  it("is for content writers only: visitor 401, reader and organisation admin 403", async () => {
    const visitor = await get("", null);
    expect(visitor.status).toBe(401);
    expect(((await visitor.json()) as { error: { code: string } }).error.code).toBe("UNAUTHENTICATED");
    for (const who of ["free", "business"]) {
      const res = await get(`?q=${MARK}`, who);
      expect(res.status, who).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    }
    expect((await get("", "manager")).status).toBe(200);
  });
});
