/**
 * The paywall sells and /pricing shows real prices (issue 13):
 * - a tier-locked item with a `<!-- more -->` marker shows the part before it to readers below its
 *   tier, and nothing past the marker leaves the server on any channel (page HTML, the `.data`
 *   payload, REST item and body, GraphQL, search), as a visitor and as a Free reader; a Pro
 *   reader gets the whole body;
 * - the paywall names the cheapest plan with its price, what else it opens, and gives a signed-in
 *   reader a POST form to /checkout;
 * - /pricing shows the plan table's prices (a change through the admin API shows on the next
 *   request, for visitors too) and unlock counts equal to the published items of each tier.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney, parseTier } from "../../core/index.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import type { AdminPlanView } from "../../server/modules/billing/billing.types.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { createSearchIndexer } from "../../server/modules/search/search-indexer.ts";
import { buildContent } from "../factories/index.ts";
import { call } from "../helpers/auth.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const PUBLIC_SENTENCE = "Numbats eat termites by the thousand every single day";
const SECRET_SENTENCE = "Echidnas lay leathery eggs into a pouch on their belly";
const SECRET_WORD = "leathery";
const SLUG = "numbat-field-notes";
const BODY = [
  "## Field notes",
  "",
  `${PUBLIC_SENTENCE}, as the opening explains.`,
  "",
  "  <!--  MORE -->  ",
  "",
  "## The rest",
  "",
  `${SECRET_SENTENCE}, which only Pro readers learn.`,
  "",
].join("\n");

type Reader = "visitor" | "free" | "pro";

/** Decodes the HTML entities React writes, so a sentence is found however it was escaped. */
const decoded = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<");

describe.each(DIALECTS)("the paywall sells, /pricing shows real prices (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Reader | "admin", string>> = {};
  const headers = (reader: Reader): Record<string, string> =>
    reader === "visitor" ? {} : { cookie: cookies[reader]! };
  const get = (path: string, reader: Reader) => fetch(`${server.url}${path}`, { headers: headers(reader) });

  beforeAll(async () => {
    server = await startTestServer(dialect, RAISED_RATE_LIMITS);
    const { runtime } = server;
    const db = runtime.database.db;
    const indexer = createSearchIndexer({ db, storage: runtime.storage, logger: pino({ level: "silent" }) });
    const built = buildContent(
      {
        slug: SLUG,
        title: "Numbat field notes",
        excerpt: "What a season of watching numbats taught us.",
        section: "ai-education",
        tier: "Pro",
        publishedAt: new Date(Date.now() - 60_000).toISOString(),
      },
      BODY,
    );
    await runtime.storage.put(built.row.bodyS3Key!, new TextEncoder().encode(built.body), {
      contentType: "text/markdown; charset=utf-8",
    });
    await createContentRepo(db, indexer.contentHooks).create(built.row);
    for (const who of ["free", "pro", "admin"] as const) {
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("nothing past the marker leaves the server", () => {
    for (const reader of ["visitor", "free"] as const) {
      it(`${reader}: the page shows the preview and the offer, never the rest`, async () => {
        const res = await get(`/content/${SLUG}`, reader);
        expect(res.status).toBe(200);
        const html = decoded(await res.text());
        expect(html).toContain(PUBLIC_SENTENCE);
        expect(html).toContain("Premium Content");
        expect(html).toContain("This content requires a Pro subscription or higher.");
        expect(html).toMatch(/Pro — \$19\/month/);
        expect(html).not.toContain(SECRET_WORD);
        expect(html).not.toContain("The rest");
      });

      it(`${reader}: the .data payload, REST, the body link, GraphQL and search hold no part past the marker`, async () => {
        const data = await (await get(`/content/${SLUG}.data`, reader)).text();
        expect(data).toContain("Numbats eat termites");
        expect(data).not.toContain(SECRET_WORD);

        const item = await get(`/api/content/${SLUG}`, reader);
        expect(item.status).toBe(200);
        expect(await item.text()).not.toContain(SECRET_WORD);
        const body = await get(`/api/content/${SLUG}/body`, reader);
        expect(body.status).toBeGreaterThanOrEqual(400);
        expect(await body.text()).not.toContain(SECRET_WORD);

        const gql = await fetch(`${server.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.url, ...headers(reader) },
          body: JSON.stringify({
            query:
              "query ($slug: String!) { listContentBySlug(slug: $slug) { items { id title excerpt locked bodyS3Key presignedUrl structuredData } } }",
            variables: { slug: SLUG },
          }),
        });
        const gqlText = await gql.text();
        expect(gqlText).toContain("Numbat field notes");
        expect(gqlText).not.toContain(SECRET_WORD);

        const search = await get(`/api/search?q=${SECRET_WORD}&limit=50`, reader);
        expect(search.status).toBe(200);
        const found = (await search.json()) as { items: Array<{ slug: string }> };
        expect(found.items.map((i) => i.slug)).not.toContain(SLUG);
        const byTitle = await (await get("/api/search?q=numbat&limit=50", reader)).text();
        expect(byTitle).not.toContain(SECRET_WORD);
      });
    }

    it("pro: reads the whole body (the marker itself is not shown)", async () => {
      const html = decoded(await (await get(`/content/${SLUG}`, "pro")).text());
      expect(html).toContain(SECRET_SENTENCE);
      expect(html).toContain(PUBLIC_SENTENCE);
      expect(html).not.toContain("Premium Content");
      expect(html).not.toMatch(/<!--\s*more/i);
    });

    it("an item without a marker shows no preview", async () => {
      const proArticle = await server.runtime.database.db
        .selectFrom("content")
        .select("slug")
        .where("slug", "=", "bias-and-fairness-basics")
        .executeTakeFirstOrThrow();
      const html = await (await get(`/content/${proArticle.slug}`, "free")).text();
      expect(html).toContain("Premium Content");
      expect(html).not.toContain('aria-label="Preview"');
    });
  });

  describe("the paywall's offer", () => {
    it("gives a signed-in reader a POST form to /checkout with the cheapest plan and the way back", async () => {
      const html = await (await get(`/content/${SLUG}`, "free")).text();
      const form = /<form[^>]*action="\/checkout"[^>]*>([\s\S]*?)<\/form>/.exec(html);
      expect(form).not.toBeNull();
      expect(form![0]).toMatch(/method="post"/);
      expect(form![1]).toContain('name="planId" value="pro"');
      expect(form![1]).toContain('name="interval" value="month"');
      expect(form![1]).toContain(`name="returnTo" value="/content/${SLUG}"`);
      expect(form![1]).toContain("Upgrade to Pro");
    });

    it("names how many other Pro items the plan opens", async () => {
      const unlocks = await server.runtime.services.plans.unlocks();
      const pro = unlocks.find((u) => u.planId === "pro")!;
      const html = decoded(await (await get(`/content/${SLUG}`, "visitor")).text());
      expect(html).toMatch(new RegExp(`and ${pro.newItems - 1} more Pro items, including`));
      expect(html).toContain("Sign In");
      expect(html).toContain("See plans");
      expect(html).not.toContain('action="/checkout"');
    });
  });

  describe("/pricing", () => {
    it("shows each plan's price from the plan table and unlock counts from the library", async () => {
      const rows = await server.runtime.database.db
        .selectFrom("content")
        .select(["tier", "rolesRequired"])
        .where("status", "=", "published")
        .where("publishedAt", "is not", null)
        .execute();
      const proItems = rows.filter((r) => parseTier(r.tier) === "Pro" && r.rolesRequired === "[]").length;
      for (const reader of ["visitor", "free"] as const) {
        const html = decoded(await (await get("/pricing", reader)).text());
        expect(html).not.toContain("Billing arrives in a later release");
        for (const plan of await server.runtime.services.plans.list()) {
          expect(html, plan.id).toContain(plan.name);
          expect(html, plan.id).toContain(formatMoney(plan.monthlyPriceCents, plan.currency));
        }
        expect(html).toMatch(new RegExp(`Pro unlocks ${proItems} more items</strong>, including `));
        expect(html).toContain("For teams");
      }
      const yearly = decoded(await (await get("/pricing?interval=year", "visitor")).text());
      expect(yearly).toContain("$190");
      expect(yearly).toContain("Save 17% — $38 a year");
      expect(yearly).toMatch(/aria-current="true"[^>]*>Yearly/);
    });

    it("a visitor's paid plans go through sign-in to the checkout review; a Free reader upgrades with a form", async () => {
      const visitor = await (await get("/pricing", "visitor")).text();
      expect(visitor).toContain(
        `href="/auth/signin?redirect=${encodeURIComponent("/checkout?plan=pro&interval=month")}"`,
      );
      expect(visitor).toContain('href="/auth/signup"');
      expect(visitor).toContain('href="/auth/signup?account=business"');
      const free = await (await get("/pricing", "free")).text();
      expect(free).toContain("Your plan");
      expect(free).toMatch(
        /<form[^>]*action="\/checkout"[^>]*>[\s\S]*?name="planId" value="pro"[\s\S]*?Upgrade to Pro/,
      );
      expect(free).toContain('name="returnTo" value="/pricing"');
    });

    it("a price changed through the admin API shows on the next page, for visitors too", async () => {
      await get("/pricing", "visitor"); // cached for visitors
      const list = await call(server.url, "/api/admin/plans", undefined, { cookie: cookies.admin });
      const pro = ((await list.json()) as { plans: AdminPlanView[] }).plans.find((p) => p.id === "pro")!;
      const res = await call(
        server.url,
        "/api/admin/plans/pro",
        { version: pro.version, monthlyPriceCents: 2345 },
        { cookie: cookies.admin, method: "PATCH" },
      );
      expect(res.status).toBe(200);
      await server.runtime.contentChanges.check();
      for (const reader of ["visitor", "free"] as const) {
        const html = await (await get("/pricing", reader)).text();
        expect(html, reader).toContain("$23.45");
      }
      const paywall = decoded(await (await get(`/content/${SLUG}`, "visitor")).text());
      expect(paywall).toContain("Pro — $23.45/month");
    });
  });
});
