/**
 * "Preview as" on the public content page (`?previewAs=`): a content writer sees exactly what the
 * named reader would see (the body or the paywall), drafts included; for anyone else the parameter
 * changes nothing; and a preview never lands in the visitors' page cache.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { createSearchIndexer } from "../../server/modules/search/search-indexer.ts";
import { buildContent } from "../factories/index.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

/** A sentence only the bodies hold: present in the HTML exactly when the body was sent. */
const FINGERPRINT = "Pangolins roll into armoured balls when a lion sniffs at them";
const BANNER = "Previewing as";

describe.each(DIALECTS)("preview as (%s)", (dialect) => {
  let server: TestServer;
  let manager = "";
  let free = "";
  const slugs = {
    pro: `pangolin-pro-${dialect}`,
    draft: `pangolin-draft-${dialect}`,
    role: `pangolin-role-${dialect}`,
  };

  const get = (path: string, cookie?: string) =>
    fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} });
  const page = async (path: string, cookie?: string) => {
    const res = await get(path, cookie);
    return { status: res.status, headers: res.headers, html: await res.text() };
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, RAISED_RATE_LIMITS);
    const { runtime } = server;
    const db = runtime.database.db;
    const indexer = createSearchIndexer({ db, storage: runtime.storage, logger: pino({ level: "silent" }) });
    const repo = createContentRepo(db, indexer.contentHooks);
    const body = `## Field notes\n\n${FINGERPRINT}, as the notes explain.\n`;
    const make = async (slug: string, overrides: Parameters<typeof buildContent>[0]) => {
      const built = buildContent({ slug, title: `Pangolin ${slug}`, section: "ai-news", ...overrides }, body);
      await runtime.storage.put(built.row.bodyS3Key!, new TextEncoder().encode(built.body), {
        contentType: "text/markdown; charset=utf-8",
      });
      await repo.create(built.row);
    };
    await make(slugs.pro, { tier: "Pro" });
    await make(slugs.draft, { tier: "Pro", status: "draft" });
    await make(slugs.role, { tier: "Free", rolesRequired: ["Editor"] });
    manager = await signIn(server.url, "manager@demo.local", DEMO_PASSWORD);
    free = await signIn(server.url, "free@demo.local", DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("a writer previewing a Pro item as Free sees the paywall, as Pro the body", async () => {
    const asFree = await page(`/content/${slugs.pro}?previewAs=Free`, manager);
    expect(asFree.status).toBe(200);
    expect(asFree.html).not.toContain(FINGERPRINT);
    expect(asFree.html).toContain("Previewing as a Free reader — this is what they see");
    expect(asFree.html).toContain('id="gate-title"');
    // Never indexed, never kept by a shared cache.
    expect(asFree.html).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(asFree.headers.get("cache-control")).toMatch(/no-store/);
    expect(asFree.headers.get("x-robots-tag")).toBe("noindex");
    // The studio frames it beside the editor: our own pages only.
    expect(asFree.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    expect(asFree.headers.get("x-frame-options")).toBe("SAMEORIGIN");

    const asPro = await page(`/content/${slugs.pro}?previewAs=Pro`, manager);
    expect(asPro.html).toContain(FINGERPRINT);
    expect(asPro.html).toContain("Previewing as a Pro reader");
    expect(asPro.html).not.toContain('id="gate-title"');
    // The like button is the reader's, not the writer's: inert in a preview.
    expect(asPro.html).toMatch(/<div inert="">/);

    // Their own view (a Pro plan) without the parameter: the body, no banner.
    const own = await page(`/content/${slugs.pro}`, manager);
    expect(own.html).toContain(FINGERPRINT);
    expect(own.html).not.toContain(BANNER);
    expect(own.html).not.toMatch(/<div inert="">/);
    expect(own.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(own.headers.get("x-frame-options")).toBe("DENY");
  });

  it("a visitor preview shows the sign-in offer a visitor gets", async () => {
    const asVisitor = await page(`/content/${slugs.pro}?previewAs=visitor`, manager);
    expect(asVisitor.html).not.toContain(FINGERPRINT);
    expect(asVisitor.html).toContain("Previewing as a visitor");
    expect(asVisitor.html).toContain("/auth/signin");
  });

  it("a role preview opens a role-gated body only for that role", async () => {
    const asEditor = await page(`/content/${slugs.role}?previewAs=role:Editor`, manager);
    expect(asEditor.html).toContain(FINGERPRINT);
    const asEnterprise = await page(`/content/${slugs.role}?previewAs=Enterprise`, manager);
    expect(asEnterprise.html).not.toContain(FINGERPRINT);
    expect(asEnterprise.html).toContain("Restricted Content");
  });

  it("a writer previews a draft as any reader", async () => {
    const asPro = await page(`/content/${slugs.draft}?previewAs=Pro`, manager);
    expect(asPro.status).toBe(200);
    expect(asPro.html).toContain(FINGERPRINT);
    const asBasic = await page(`/content/${slugs.draft}?previewAs=Basic`, manager);
    expect(asBasic.status).toBe(200);
    expect(asBasic.html).not.toContain(FINGERPRINT);
  });

  it("for a reader who is not a writer the parameter changes nothing", async () => {
    for (const value of ["Enterprise", "Pro", "role:Editor", "role:ContentManager"]) {
      const asFree = await page(`/content/${slugs.pro}?previewAs=${value}`, free);
      expect(asFree.status).toBe(200);
      expect(asFree.html, `free@ with ${value}`).not.toContain(FINGERPRINT);
      expect(asFree.html).not.toContain(BANNER);
      const visitor = await page(`/content/${slugs.pro}?previewAs=${value}`);
      expect(visitor.html, `visitor with ${value}`).not.toContain(FINGERPRINT);
      expect(visitor.html).not.toContain(BANNER);
      expect(visitor.headers.get("x-frame-options")).toBe("DENY");
    }
    const role = await page(`/content/${slugs.role}?previewAs=role:Editor`, free);
    expect(role.html).not.toContain(FINGERPRINT);
  });

  it("a draft is not found for a reader, with or without the parameter", async () => {
    for (const cookie of [free, undefined]) {
      expect((await get(`/content/${slugs.draft}`, cookie)).status).toBe(404);
      expect((await get(`/content/${slugs.draft}?previewAs=Enterprise`, cookie)).status).toBe(404);
      expect((await get(`/content/${slugs.draft}?previewAs=visitor`, cookie)).status).toBe(404);
    }
  });

  it("a preview is never served to the next visitor from the page cache", async () => {
    const path = `/content/${slugs.pro}?previewAs=Enterprise`;
    const preview = await page(path, manager);
    expect(preview.html).toContain(FINGERPRINT);
    for (let i = 0; i < 2; i += 1) {
      const anonymous = await page(path);
      expect(anonymous.status).toBe(200);
      expect(anonymous.html).not.toContain(FINGERPRINT);
      expect(anonymous.html).not.toContain(BANNER);
    }
    // The data request behind client navigation answers the same way.
    const data = await get(`/content/${slugs.pro}.data?previewAs=Enterprise`);
    expect(await data.text()).not.toContain(FINGERPRINT);
  });
});
