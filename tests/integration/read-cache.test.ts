/**
 * Cached reads (decision 022): the content list, the single item and search pages are cached per
 * audience (tier, roles, whether unpublished items are seen) and content revision. What must hold:
 * a page warmed by one reader is never what a reader of another tier gets (locked flags, body
 * keys, body links), body links stay bound to the credential that asked, an edit shows in the next
 * read, and hostile search terms answer 200 or 400 without an error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import type { SearchResults } from "../../server/services.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

type Reader = "visitor" | "free" | "pro";

interface ApiItem {
  id: string;
  slug: string;
  title: string;
  tier: string;
  locked: boolean;
  bodyS3Key: string | null;
  presignedUrl?: string;
  url?: string;
}

const PRO_ITEM = DEMO_CONTENT.find((c) => c.tier === "Pro" && !c.rolesRequired?.length)!;
const FREE_ITEM = DEMO_CONTENT.find((c) => c.tier === "Free" && !c.rolesRequired?.length)!;
const credOf = (link: string | undefined) =>
  link ? new URL(link, "http://x").searchParams.get("cred") : null;

describe.each(DIALECTS)("cached reads (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Reader, string>> = {};
  let ownerCookie: string;

  const get = (path: string, reader: Reader) =>
    fetch(`${server.url}${path}`, { headers: reader === "visitor" ? {} : { cookie: cookies[reader]! } });
  const list = async (reader: Reader, query = "limit=100"): Promise<ApiItem[]> => {
    const res = await get(`/api/content?${query}`, reader);
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: ApiItem[] }).items;
  };
  const item = async (reader: Reader, slug: string): Promise<ApiItem> => {
    const res = await get(`/api/content/${slug}`, reader);
    expect(res.status).toBe(200);
    return (await res.json()) as ApiItem;
  };
  const search = async (reader: Reader, q: string): Promise<SearchResults> => {
    const res = await get(`/api/search?q=${encodeURIComponent(q)}&limit=50`, reader);
    expect(res.status).toBe(200);
    return (await res.json()) as SearchResults;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const reader of ["free", "pro"] as const) {
      cookies[reader] = await signIn(server.url, `${reader}@demo.local`, DEMO_PASSWORD);
    }
    ownerCookie = await signIn(server.url, "owner@demo.local", DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("a list warmed by a Pro reader is not what a Free reader or a visitor gets", async () => {
    const forPro = await list("pro");
    const forPro2 = await list("pro");
    const forFree = await list("free");
    const forVisitor = await list("visitor");

    const proSeen = forPro.find((i) => i.slug === PRO_ITEM.slug)!;
    expect(proSeen).toMatchObject({ locked: false });
    expect(proSeen.bodyS3Key).not.toBeNull();
    expect(proSeen.presignedUrl).toBeDefined();
    for (const items of [forFree, forVisitor]) {
      const locked = items.find((i) => i.slug === PRO_ITEM.slug)!;
      expect(locked).toMatchObject({ locked: true, bodyS3Key: null });
      expect(locked.presignedUrl).toBeUndefined();
      expect(locked.url).toBeUndefined();
      // Nothing of the Pro reader's answer: no item carries a link issued to the Pro session.
      for (const i of items) expect(credOf(i.presignedUrl)).not.toBe(credOf(proSeen.presignedUrl));
    }
    // Free items: each reader gets a body link bound to their own credential.
    const freeFor = (items: ApiItem[]) => items.find((i) => i.slug === FREE_ITEM.slug)!;
    expect(credOf(freeFor(forFree).presignedUrl)).not.toBe(credOf(freeFor(forPro).presignedUrl));
    expect(credOf(freeFor(forPro2).presignedUrl)).toBe(credOf(freeFor(forPro).presignedUrl));
    const body = await fetch(new URL(freeFor(forFree).presignedUrl!, server.url));
    expect(body.status).toBe(200);

    // The other order: a Free reader warms first, the Pro reader still gets the open item.
    const freeFirst = await list("free", "limit=50");
    const proAfter = await list("pro", "limit=50");
    const lockedForFree = freeFirst.filter((i) => i.locked).map((i) => i.slug);
    expect(lockedForFree).toContain(PRO_ITEM.slug);
    expect(proAfter.find((i) => i.slug === PRO_ITEM.slug)).toMatchObject({ locked: false });
  });

  it("a single item warmed by a Pro reader is locked for Free readers and visitors", async () => {
    const forPro = await item("pro", PRO_ITEM.slug);
    expect(forPro.locked).toBe(false);
    expect(forPro.presignedUrl).toBeDefined();
    for (const reader of ["free", "visitor"] as const) {
      const locked = await item(reader, PRO_ITEM.slug);
      expect(locked).toMatchObject({ locked: true, bodyS3Key: null });
      expect(locked.presignedUrl).toBeUndefined();
    }
  });

  it("a search warmed by a Pro reader shows a Free reader the locked item with its excerpt only", async () => {
    const proByHttp = await search("pro", PRO_ITEM.title);
    const proSeen = proByHttp.items.find((i) => i.slug === PRO_ITEM.slug)!;
    expect(proSeen.locked).toBe(false);
    const freeByHttp = await search("free", PRO_ITEM.title);
    const forFree = freeByHttp.items.find((i) => i.slug === PRO_ITEM.slug)!;
    expect(forFree).toMatchObject({ locked: true, bodyS3Key: null });
    expect(forFree.matchedIn).not.toContain("body");
    expect(forFree.snippet.map((p) => p.text).join("")).toBe(PRO_ITEM.excerpt ?? "");
    if (proSeen.matchedIn.includes("body")) {
      const passage = proSeen.snippet.map((p) => p.text).join("");
      expect(JSON.stringify(freeByHttp)).not.toContain(passage);
    }
  });

  it("a search page shared by one audience answers each request with its own term", async () => {
    const word = PRO_ITEM.title.split(/\s+/).find((w) => w.length > 3)!;
    const lower = await get(`/api/search?q=${encodeURIComponent(word.toLowerCase())}&limit=50`, "visitor");
    const upper = await get(
      `/api/search?q=${encodeURIComponent(`  ${word.toUpperCase()} `)}&limit=50`,
      "visitor",
    );
    expect(lower.headers.get("content-type")).toMatch(/^application\/json/);
    const [a, b] = [(await lower.json()) as SearchResults, (await upper.json()) as SearchResults];
    expect(a.query).toBe(word.toLowerCase());
    expect(b.query).toBe(word.toUpperCase());
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(b.items).toEqual(a.items);
    expect(a.items.length).toBeGreaterThan(0);
  });

  it("an edit shows in the next list and item read (this process at once, others once polled)", async () => {
    const repo = createContentRepo(server.runtime.database.db);
    const before = await list("visitor", "limit=5");
    const first = before[0]!;
    await item("visitor", first.slug);

    // Over the API (this process's writes drop the caches at once).
    const current = (await repo.getById(first.id))!;
    const edited = `Edited title ${Date.now()}`;
    const patch = await fetch(`${server.url}/api/content/${first.id}`, {
      method: "PATCH",
      headers: { cookie: ownerCookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ version: current.version, title: edited }),
    });
    expect(patch.status, await patch.clone().text()).toBe(200);
    expect((await list("visitor", "limit=5"))[0]!.title).toBe(edited);
    expect((await item("visitor", first.slug)).title).toBe(edited);

    // Straight into the database, as another process would: seen once the revision is polled.
    const again = (await repo.getById(first.id))!;
    const other = `Other process title ${Date.now()}`;
    await repo.update(first.id, again.version, { title: other });
    await server.runtime.contentChanges.check();
    expect((await list("visitor", "limit=5"))[0]!.title).toBe(other);
    expect((await item("visitor", first.slug)).title).toBe(other);
  });

  it("hostile search terms answer 200 or 400 with a clear message, never an error", async () => {
    const terms = [
      '"',
      '"unbalanced',
      "prompt*",
      "*",
      "NEAR(prompt guide, 2)",
      "prompt OR guide NOT team",
      "-prompt",
      "^prompt",
      "title:prompt",
      "prompt AND",
      "'; drop table content; --",
      "\\",
      "%_%",
      "()[]{}",
      "a\u0000b",
      "🔥 prompt 🔥",
      "مرحبا بالعالم",
      "提示工程",
      "e\u0301\u0302\u0303\u0304\u0305".repeat(20),
      "ǅungla ß İstanbul",
      "a ".repeat(100),
      "word ".repeat(40),
    ];
    for (const q of terms) {
      const res = await get(`/api/search?q=${encodeURIComponent(q)}`, "visitor");
      expect([200, 400], q).toContain(res.status);
      const json = (await res.json()) as SearchResults & { error?: { message: string } };
      if (res.status === 200) expect(Array.isArray(json.items), q).toBe(true);
      else expect(json.error?.message, q).toMatch(/q/);
    }
    for (const q of ["x".repeat(10_000), "prompt ".repeat(1_500), "é".repeat(201)]) {
      const res = await get(`/api/search?q=${encodeURIComponent(q)}`, "visitor");
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/Invalid q/);
    }
  });
});
