/**
 * Unauthorized-access suite for content: the page and the REST API answer the same question
 * the same way. A reader below an item's tier (or without its role) gets metadata and the
 * excerpt, never the body.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT, loadDemoBody } from "../../server/db/seed/demo/index.ts";
import { contentBodyKey } from "../factories/index.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

type Reader =
  | "visitor"
  | "free"
  | "basic"
  | "pro"
  | "enterprise"
  | "business"
  | "manager"
  | "admin"
  | "owner";
const TIER_LEVEL = { Free: 0, Basic: 1, Pro: 2, Enterprise: 3 } as const;
const READER_LEVEL: Record<Reader, number> = {
  visitor: 0,
  free: 0,
  basic: 1,
  pro: 2,
  enterprise: 3,
  business: 3,
  manager: 2,
  admin: 3,
  owner: 3,
};

/** A sentence from deep inside the body: present only when the body was sent. */
async function bodyFingerprint(slug: string): Promise<string> {
  const body = await loadDemoBody(slug);
  const lines = body
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[A-Za-z][^|`*_[\]#<>]{60,}$/.test(l));
  const line = lines[Math.floor(lines.length / 2)];
  if (!line) throw new Error(`no plain paragraph in ${slug}`);
  return line.slice(0, 50);
}

/** Every demo account, and a visitor. */
const READERS = Object.keys(READER_LEVEL) as Reader[];

const byTier = (tier: keyof typeof TIER_LEVEL) =>
  DEMO_CONTENT.find((c) => c.tier === tier && c.type === "article")!;
const SAMPLES = [byTier("Free"), byTier("Basic"), byTier("Pro"), byTier("Enterprise")];
const ROLE_GATED = DEMO_CONTENT.find((c) => c.rolesRequired?.length)!;

describe.each(DIALECTS)("content access (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Reader, string>> = {};
  const fingerprints = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const reader of READERS) {
      if (reader === "visitor") continue;
      cookies[reader] = await signIn(server.url, `${reader}@demo.local`, DEMO_PASSWORD);
    }
    for (const item of [...SAMPLES, ROLE_GATED])
      fingerprints.set(item.slug, await bodyFingerprint(item.slug));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const get = (path: string, reader: Reader) =>
    fetch(`${server.url}${path}`, { headers: reader === "visitor" ? {} : { cookie: cookies[reader]! } });

  for (const reader of READERS) {
    it(`${reader}: pages show the body exactly when the tier allows, and always the title and excerpt`, async () => {
      for (const item of SAMPLES) {
        const html = await (await get(`/content/${item.slug}`, reader)).text();
        const allowed = READER_LEVEL[reader] >= TIER_LEVEL[item.tier];
        expect(html, item.slug).toContain(item.title.replace(/&/g, "&amp;").replace(/'/g, "&#x27;"));
        expect(html.includes(fingerprints.get(item.slug)!), `${reader} reading ${item.slug}`).toBe(allowed);
        expect(html.includes("Premium Content"), `${reader} paywall on ${item.slug}`).toBe(!allowed);
      }
    });

    it(`${reader}: the body link and the raw storage path give the body exactly when the rule says so`, async () => {
      for (const item of [...SAMPLES, ROLE_GATED]) {
        const tierOk = READER_LEVEL[reader] >= TIER_LEVEL[item.tier];
        const roleOk = !item.rolesRequired?.length || reader === "manager";
        const res = await get(`/api/content/${item.slug}`, reader);
        const json = (await res.json()) as { presignedUrl?: string; bodyS3Key: string | null; id: string };
        expect(json.presignedUrl !== undefined, `${reader} link for ${item.slug}`).toBe(tierOk && roleOk);
        if (json.presignedUrl) {
          // The link works on its own (no cookie), as a download or a script would use it.
          const body = await fetch(new URL(json.presignedUrl, server.url));
          expect(body.status).toBe(200);
          expect(body.headers.get("content-type")).toContain("text/markdown");
          expect(await body.text()).toContain(fingerprints.get(item.slug)!);
        }
        // The object itself is never served by path alone, whoever asks.
        const key = contentBodyKey(item.tier, item.categorySlug, item.slug);
        if (json.bodyS3Key !== null) expect(json.bodyS3Key).toBe(key);
        const raw = await get(`/api/objects/${key}`, reader);
        expect(raw.status, `raw storage path for ${item.slug}`).toBe(403);
      }
    });

    it(`${reader}: the role-gated item's body only reaches content managers`, async () => {
      const html = await (await get(`/content/${ROLE_GATED.slug}`, reader)).text();
      expect(html.includes(fingerprints.get(ROLE_GATED.slug)!)).toBe(reader === "manager");
    });

    it(`${reader}: the REST API lists every published item once, with lock flags, no body, and a body link exactly when readable`, async () => {
      const seen = new Set<string>();
      let cursor: string | null = null;
      do {
        const res = await get(
          `/api/content?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          reader,
        );
        expect(res.status).toBe(200);
        const page = (await res.json()) as {
          items: Array<Record<string, unknown>>;
          nextCursor: string | null;
        };
        for (const item of page.items) {
          expect(seen.has(item.slug as string)).toBe(false);
          seen.add(item.slug as string);
          for (const field of ["body", "html"]) expect(item).not.toHaveProperty(field);
          const demo = DEMO_CONTENT.find((c) => c.slug === item.slug)!;
          const tierOk = READER_LEVEL[reader] >= TIER_LEVEL[demo.tier];
          const roleOk = !demo.rolesRequired?.length || reader === "manager";
          expect(item.locked, `${reader} ${demo.slug}`).toBe(!(tierOk && roleOk));
          if (item.locked) {
            for (const field of ["presignedUrl", "url"]) expect(item).not.toHaveProperty(field);
            expect(item.bodyS3Key).toBeNull();
          } else {
            expect(item.presignedUrl, `${reader} ${demo.slug}`).toMatch(/\/api\/content\/[^/]+\/body\?/);
            expect(item.url).toBe(item.presignedUrl);
            expect(item.bodyS3Key).toMatch(/^content\//);
          }
        }
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen.size).toBe(DEMO_CONTENT.length);
    });
  }

  it("GET /api/content/{slug} answers the item or 404", async () => {
    const item = SAMPLES[2]!;
    const res = await get(`/api/content/${item.slug}`, "visitor");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ slug: item.slug, title: item.title, tier: "Pro", locked: true });
    expect(JSON.stringify(body)).not.toContain(fingerprints.get(item.slug)!);
    expect((await get("/api/content/no-such-item", "visitor")).status).toBe(404);
  });

  it("filters the list by section, tier and featured", async () => {
    const section = (await (await get("/api/content?section=ai-news&limit=100", "visitor")).json()) as {
      items: Array<{ section: string }>;
    };
    expect(section.items.length).toBe(DEMO_CONTENT.filter((c) => c.section === "ai-news").length);
    expect(section.items.every((i) => i.section === "ai-news")).toBe(true);
    const pro = (await (await get("/api/content?tier=pro&limit=100", "visitor")).json()) as {
      items: Array<{ tier: string }>;
    };
    expect(pro.items.length).toBe(DEMO_CONTENT.filter((c) => c.tier === "Pro").length);
    const featured = (await (await get("/api/content?featured=true", "visitor")).json()) as {
      items: Array<{ slug: string }>;
    };
    expect(featured.items.map((i) => i.slug)).toEqual(
      DEMO_CONTENT.filter((c) => c.featured)
        .sort((a, b) => (a.featuredOrder ?? 0) - (b.featuredOrder ?? 0))
        .map((c) => c.slug),
    );
  });

  it("a malformed cursor is a 400, not a crash", async () => {
    const res = await get("/api/content?cursor=not-a-cursor", "visitor");
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("BAD_USER_INPUT");
  });
});
