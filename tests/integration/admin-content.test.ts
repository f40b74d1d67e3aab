/**
 * Admin content REST API (issue 14, /admin/content): who may use it (visitor + every demo
 * account + an API key + a foreign Origin), other writers' drafts in the admin's lists, the
 * featured order (home page order on the next request, stale versions, audit), categories
 * (create, edit, duplicate slugs, bad input, order, hide → gone from readers' pages) and
 * collections (create, members and their order, hide/show through the workflow, audit).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  AdminCategory,
  AdminCollection,
  AdminContentRef,
  CategoryList,
  FeaturedList,
} from "../../server/modules/content/content-admin.service.ts";
import type { StudioList } from "../../server/modules/content/studio.types.ts";
import { DEMO_ACCOUNTS, signInAdminPersonas } from "../helpers/admin-personas.ts";
import { call } from "../helpers/auth.ts";
import { expectConsoleError } from "../helpers/console-guard.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/content";

describe.each(DIALECTS)("admin content API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let apiKey = "";

  const req = (path: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, body, opts);
  const as = (who: string, path: string, body?: unknown, method?: string) =>
    req(path, body, { cookie: cookies[who], ...(method ? { method } : {}) });
  const json = async <T>(res: Response, status = 200): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  };
  const audit = (action: string) =>
    server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", action)
      .orderBy("at")
      .execute();
  /** The featured section of the home page as a visitor gets it (the page cache included). */
  const homeFeatured = async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const start = html.indexOf('id="featured-title"');
    expect(start).toBeGreaterThan(0);
    return html.slice(start, html.indexOf("</section>", start));
  };
  const orderIn = (html: string, slugs: string[]) =>
    slugs
      .map((slug) => ({ slug, at: html.indexOf(`/${slug}"`) }))
      .filter((s) => s.at >= 0)
      .sort((a, b) => a.at - b.at)
      .map((s) => s.slug);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const personas = await signInAdminPersonas(server.url);
    Object.assign(cookies, personas.cookies);
    apiKey = personas.apiKey;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("unauthorized access", () => {
    const attempts = (opts: Parameters<typeof call>[3] = {}) => [
      () => req(`${API}/featured`, undefined, opts),
      () => req(`${API}/featured`, { version: "x", ids: [] }, { ...opts, method: "PUT" }),
      () => req(`${API}/picker?q=a`, undefined, opts),
      () => req(`${API}/categories`, undefined, opts),
      () => req(`${API}/categories`, { slug: "hacked", label: "Hacked" }, opts),
      () => req(`${API}/categories/order`, { version: "x", ids: [] }, { ...opts, method: "PUT" }),
      () => req(`${API}/categories/anything`, { label: "Hacked" }, { ...opts, method: "PATCH" }),
      () => req(`${API}/collections`, undefined, opts),
      () => req(`${API}/collections`, { title: "Hacked", slug: "hacked" }, opts),
      () => req(`${API}/collections/anything`, undefined, opts),
      () => req(`${API}/collections/anything`, { version: 1, title: "H" }, { ...opts, method: "PATCH" }),
      () => req(`${API}/collections/anything/hide`, { version: 1 }, opts),
      () => req(`${API}/collections/anything/show`, { version: 1 }, opts),
    ];

    it("refuses visitors (401) on every endpoint", async () => {
      for (const attempt of attempts()) {
        const res = await attempt();
        expect(res.status).toBe(401);
        expect((await res.json()).error.code).toBe("UNAUTHENTICATED");
      }
    });

    it("refuses every demo account but admin@ and owner@ (403: business@ and manager@ too)", async () => {
      for (const who of DEMO_ACCOUNTS.filter((a) => a !== "admin" && a !== "owner")) {
        for (const attempt of attempts({ cookie: cookies[who] })) {
          const res = await attempt();
          expect(res.status, who).toBe(403);
          expect((await res.json()).error.code, who).toBe("FORBIDDEN");
        }
      }
      for (const who of ["admin", "owner"]) {
        expect((await as(who, `${API}/featured`)).status, who).toBe(200);
        expect((await as(who, `${API}/categories`)).status, who).toBe(200);
        expect((await as(who, `${API}/collections`)).status, who).toBe(200);
      }
    });

    it("refuses API keys (403) and cookie writes from another site (403), writing nothing", async () => {
      for (const attempt of attempts({ headers: { "x-api-key": apiKey }, origin: null })) {
        const res = await attempt();
        expect(res.status).toBe(403);
      }
      const foreign = attempts({ cookie: cookies.admin, origin: "https://evil.example" });
      for (const attempt of [foreign[1]!, foreign[4]!, foreign[5]!, foreign[6]!, foreign[8]!]) {
        const res = await attempt();
        expect(res.status).toBe(403);
        expect((await res.json()).error.code).toBe("FORBIDDEN_ORIGIN");
      }
      const hacked = await server.runtime.database.db
        .selectFrom("content_category")
        .select("id")
        .where("slug", "=", "hacked")
        .execute();
      expect(hacked).toHaveLength(0);
      expect(await audit("category_created")).toHaveLength(0);
    });
  });

  describe("the screen's forms (no JavaScript)", () => {
    const post = (who: string | null, body: Record<string, string>, origin?: string) =>
      req("/admin/content?tab=featured", new URLSearchParams(body).toString(), {
        ...(who ? { cookie: cookies[who] } : {}),
        headers: { "content-type": "application/x-www-form-urlencoded" },
        ...(origin ? { origin } : {}),
      });

    it("moves a featured item down with a form post; refuses other sites, organisation admins and managers", async () => {
      const before = await json<FeaturedList>(await as("admin", `${API}/featured`));
      const [first, second] = before.items;
      const move = { intent: "featured-move", id: first!.id, dir: "down", version: before.version };
      // Another site's form: refused (React Router's own origin check answers first, 400).
      expectConsoleError(/origin does not match/);
      expect([400, 403]).toContain((await post("admin", move, "https://evil.example")).status);
      for (const who of ["business", "manager", "writer"])
        expect((await post(who, move)).status, who).toBe(403);
      expect(await json<FeaturedList>(await as("admin", `${API}/featured`))).toEqual(before);

      const res = await post("admin", move);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Saved the featured order");
      const after = await json<FeaturedList>(await as("admin", `${API}/featured`));
      expect(after.items.slice(0, 2).map((i) => i.id)).toEqual([second!.id, first!.id]);
      // The same version again is stale: the page says to reload, nothing changes.
      const stale = await post("admin", move);
      expect(await stale.text()).toContain("Changed meanwhile");
      expect(await json<FeaturedList>(await as("admin", `${API}/featured`))).toEqual(after);
      // Back as it was (the featured test below starts from the seeded order).
      await post("admin", { intent: "featured-move", id: first!.id, dir: "up", version: after.version });
      expect((await json<FeaturedList>(await as("admin", `${API}/featured`))).items).toEqual(before.items);
    });
  });

  describe("all content", () => {
    it("shows admin@ another writer's draft in the list and the picker", async () => {
      const created = await json<{ item: { id: string } }>(
        await as("writer", "/api/content", {
          title: "Writer's secret draft",
          slug: "writers-secret-draft",
          tier: "Pro",
          section: "resources",
        }),
        201,
      );
      const list = await json<StudioList>(
        await as("admin", "/api/studio/content?q=secret%20draft&state=draft"),
      );
      const row = list.items.find((i) => i.id === created.item.id);
      expect(row).toMatchObject({ state: "draft", editUrl: `/content/${created.item.id}/edit` });
      expect(row?.authorName).toBeTruthy();
      const picked = await json<{ items: AdminContentRef[] }>(await as("admin", `${API}/picker?q=SECRET`));
      expect(picked.items.map((i) => i.slug)).toContain("writers-secret-draft");
      // Readers never see it.
      const visitor = await fetch(`${server.url}/api/content/writers-secret-draft`);
      expect(visitor.status).toBe(404);
    });
  });

  describe("featured", () => {
    it("reorders, adds and removes in one save; the home page shows the new order on the next request", async () => {
      const before = await json<FeaturedList>(await as("admin", `${API}/featured`));
      expect(before.items.length).toBeGreaterThanOrEqual(3);
      const slugs = before.items.map((i) => i.slug);
      // The seeded order, as visitors see it now (also warms the page cache).
      expect(orderIn(await homeFeatured(), slugs)).toEqual(slugs.slice(0, 6));

      const [first, second, ...rest] = before.items;
      const candidates = await json<{ items: AdminContentRef[] }>(await as("admin", `${API}/picker?q=`));
      const added = candidates.items.find(
        (i) => i.state === "published" && !slugs.includes(i.slug) && i.type !== "collection",
      )!;
      expect(added).toBeDefined();
      const ids = [added.id, second!.id, first!.id, ...rest.slice(0, 2).map((i) => i.id)];
      const saved = await json<FeaturedList>(
        await as("admin", `${API}/featured`, { version: before.version, ids, note: "spring line-up" }, "PUT"),
      );
      expect(saved.items.map((i) => i.id)).toEqual(ids);
      expect(saved.items.map((i) => i.featuredOrder)).toEqual([1, 2, 3, 4, 5]);
      expect(saved.version).not.toBe(before.version);

      const expected = saved.items.map((i) => i.slug);
      expect(orderIn(await homeFeatured(), [...new Set([...expected, ...slugs])])).toEqual(expected);
      const removed = before.items.slice(4).map((i) => i.slug);
      for (const slug of removed) expect((await homeFeatured()).includes(`/${slug}"`)).toBe(false);

      // Two rows from the form test above, and this one with its note.
      const rows = (await audit("featured_reordered")).filter((r) =>
        String(r.details).includes("spring line-up"),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.actorId).toBeTruthy();
      const details = JSON.parse(String(rows[0]!.details)) as Record<string, unknown>;
      expect(details).toMatchObject({ after: ids, added: [added.id], note: "spring line-up" });
    });

    it("refuses a stale version (409), unknown ids and duplicates (400 naming ids), changing nothing", async () => {
      const now = await json<FeaturedList>(await as("admin", `${API}/featured`));
      const ids = now.items.map((i) => i.id).reverse();
      const stale = await as("admin", `${API}/featured`, { version: "0123456789abcdef0123", ids }, "PUT");
      expect(stale.status).toBe(409);
      expect((await stale.json()).error.code).toBe("STALE_VERSION");
      const unknown = await as("admin", `${API}/featured`, { version: now.version, ids: ["nope"] }, "PUT");
      expect(unknown.status).toBe(400);
      expect((await unknown.json()).error.field).toHaveProperty("ids");
      const twice = await as(
        "admin",
        `${API}/featured`,
        { version: now.version, ids: [ids[0], ids[0]] },
        "PUT",
      );
      expect(twice.status).toBe(400);
      expect((await twice.json()).error.field).toHaveProperty("ids");
      const missing = await as("admin", `${API}/featured`, { ids }, "PUT");
      expect(missing.status).toBe(400);
      expect((await missing.json()).error.field).toHaveProperty("version");
      const after = await json<FeaturedList>(await as("admin", `${API}/featured`));
      expect(after).toEqual(now);
    });
  });

  describe("categories", () => {
    let created: AdminCategory;

    it("creates a category (201, audited) and refuses duplicates (409) and bad fields (400)", async () => {
      created = await json<AdminCategory>(
        await as("admin", `${API}/categories`, {
          slug: "robotics",
          label: "Robotics",
          description: "Robots at work",
          section: "workforce-tools",
          defaultTier: "Pro",
          icon: "bot",
        }),
        201,
      );
      expect(created).toMatchObject({
        slug: "robotics",
        section: "workforce-tools",
        defaultTier: "Pro",
        isActive: true,
        itemCount: 0,
      });
      const dup = await as("admin", `${API}/categories`, { slug: "robotics", label: "Again" });
      expect(dup.status).toBe(409);
      expect((await dup.json()).error.field).toHaveProperty("slug");
      for (const [body, field] of [
        [{ label: "No slug" }, "slug"],
        [{ slug: "Bad Slug", label: "x" }, "slug"],
        [{ slug: "ok-slug", label: "" }, "label"],
        [{ slug: "ok-slug", label: "x", section: "nowhere" }, "section"],
        [{ slug: "ok-slug", label: "x", defaultTier: "Gold" }, "defaultTier"],
        [{ slug: "ok-slug", label: "x", colour: "red" }, "colour"],
      ] as const) {
        const res = await as("admin", `${API}/categories`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await res.json()).error.field, JSON.stringify(body)).toHaveProperty(field);
      }
      const rows = await audit("category_created");
      expect(rows.map((r) => r.targetId)).toEqual([created.id]);
    });

    it("edits a category (a taken slug → 409 naming slug) and orders them for readers", async () => {
      const list = await json<CategoryList>(await as("admin", `${API}/categories`));
      const other = list.items.find((c) => c.id !== created.id)!;
      const taken = await as("admin", `${API}/categories/${created.id}`, { slug: other.slug }, "PATCH");
      expect(taken.status).toBe(409);
      expect((await taken.json()).error.field).toHaveProperty("slug");
      const edited = await json<AdminCategory>(
        await as("admin", `${API}/categories/${created.id}`, { label: "Robotics & automation" }, "PATCH"),
      );
      expect(edited.label).toBe("Robotics & automation");
      // A category holding items keeps its slug (their bodies are stored under it): 409 naming slug.
      const full = list.items.find((c) => c.itemCount > 0)!;
      const rename = await as("admin", `${API}/categories/${full.id}`, { slug: "renamed-away" }, "PATCH");
      expect(rename.status).toBe(409);
      expect((await rename.json()).error.field.slug).toMatch(/filed under/);
      // An empty one may change its slug.
      const moved = await json<AdminCategory>(
        await as("admin", `${API}/categories/${created.id}`, { slug: "robotics-2" }, "PATCH"),
      );
      expect(moved.slug).toBe("robotics-2");
      await json<AdminCategory>(
        await as("admin", `${API}/categories/${created.id}`, { slug: "robotics" }, "PATCH"),
      );
      const notFound = await as("admin", `${API}/categories/nope`, { label: "x" }, "PATCH");
      expect(notFound.status).toBe(404);

      // Move the new category first.
      const ids = [created.id, ...list.items.filter((c) => c.id !== created.id).map((c) => c.id)];
      const incomplete = await as(
        "admin",
        `${API}/categories/order`,
        { version: list.version, ids: [created.id] },
        "PUT",
      );
      expect(incomplete.status).toBe(400);
      expect((await incomplete.json()).error.field).toHaveProperty("ids");
      const ordered = await json<CategoryList>(
        await as("admin", `${API}/categories/order`, { version: list.version, ids }, "PUT"),
      );
      expect(ordered.items.map((c) => c.id)).toEqual(ids);
      const stale = await as("admin", `${API}/categories/order`, { version: list.version, ids }, "PUT");
      expect(stale.status).toBe(409);
      // Readers' category lists follow the order.
      const readers = await server.runtime.services.content.categories();
      expect(readers[0]!.slug).toBe("robotics");
      expect((await audit("category_updated")).map((r) => r.targetId)).toEqual([
        created.id,
        created.id,
        created.id,
      ]);
      expect(await audit("category_reordered")).toHaveLength(1);
    });

    it("hides a category: gone from readers' lists and its page; its items stay readable", async () => {
      const list = await json<CategoryList>(await as("admin", `${API}/categories`));
      const withItems = list.items.find((c) => c.itemCount > 0 && c.isActive)!;
      const item = await server.runtime.database.db
        .selectFrom("content")
        .select("slug")
        .where("categorySlug", "=", withItems.slug)
        .where("status", "=", "published")
        .where("tier", "=", "Free")
        .executeTakeFirst();
      expect((await fetch(`${server.url}/category/${withItems.slug}`)).status).toBe(200);
      const hidden = await json<AdminCategory>(
        await as("admin", `${API}/categories/${withItems.id}`, { isActive: false }, "PATCH"),
      );
      expect(hidden.isActive).toBe(false);
      expect((await server.runtime.services.content.categories()).map((c) => c.slug)).not.toContain(
        withItems.slug,
      );
      expect((await fetch(`${server.url}/category/${withItems.slug}`)).status).toBe(404);
      if (item) expect((await fetch(`${server.url}/api/content/${item.slug}`)).status).toBe(200);
      // The admin still lists it, and shows it again.
      const back = await json<AdminCategory>(
        await as("admin", `${API}/categories/${withItems.id}`, { isActive: true }, "PATCH"),
      );
      expect(back.isActive).toBe(true);
      expect((await fetch(`${server.url}/category/${withItems.slug}`)).status).toBe(200);
    });
  });

  describe("collections", () => {
    let collection: AdminCollection;

    it("creates a collection as a draft, adds and orders members, and refuses bad members", async () => {
      collection = await json<AdminCollection>(
        await as("admin", `${API}/collections`, {
          title: "Starter kit",
          slug: "starter-kit",
          description: "Where to begin",
          tier: "Free",
        }),
        201,
      );
      expect(collection).toMatchObject({ state: "draft", members: [], version: 1 });
      const dup = await as("admin", `${API}/collections`, { title: "Again", slug: "starter-kit" });
      expect(dup.status).toBe(409);
      expect((await dup.json()).error.field).toHaveProperty("slug");
      const noTitle = await as("admin", `${API}/collections`, { slug: "no-title" });
      expect(noTitle.status).toBe(400);
      expect((await noTitle.json()).error.field).toHaveProperty("title");

      const picks = await json<{ items: AdminContentRef[] }>(
        await as("admin", `${API}/picker?type=not-collection`),
      );
      const members = picks.items.filter((i) => i.state === "published").slice(0, 3);
      expect(members).toHaveLength(3);
      const withMembers = await json<AdminCollection>(
        await as(
          "admin",
          `${API}/collections/${collection.id}`,
          { version: collection.version, members: members.map((m) => m.slug) },
          "PATCH",
        ),
      );
      expect(withMembers.members.map((m) => m.slug)).toEqual(members.map((m) => m.slug));
      const reordered = [members[2]!.slug, members[0]!.slug];
      const saved = await json<AdminCollection>(
        await as(
          "admin",
          `${API}/collections/${collection.id}`,
          { version: withMembers.version, members: reordered },
          "PATCH",
        ),
      );
      expect(saved.members.map((m) => m.slug)).toEqual(reordered);
      const stale = await as(
        "admin",
        `${API}/collections/${collection.id}`,
        { version: withMembers.version, title: "Old" },
        "PATCH",
      );
      expect(stale.status).toBe(409);
      expect((await stale.json()).error.code).toBe("STALE_VERSION");
      for (const bad of [["no-such-item"], ["starter-kit"]]) {
        const res = await as(
          "admin",
          `${API}/collections/${collection.id}`,
          { version: saved.version, members: bad },
          "PATCH",
        );
        expect(res.status).toBe(400);
        expect((await res.json()).error.field).toHaveProperty("members");
      }
      collection = saved;
      expect((await audit("collection_created")).map((r) => r.targetId)).toEqual([collection.id]);
      expect((await audit("collection_updated")).length).toBe(2);
    });

    it("shows and hides through the workflow: admin@ lacks content:publish (403), owner@ publishes", async () => {
      const refused = await as("admin", `${API}/collections/${collection.id}/show`, {
        version: collection.version,
      });
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.message).toMatch(/content:publish/);
      expect((await fetch(`${server.url}/api/content/starter-kit`)).status).toBe(404);

      const shown = await json<AdminCollection>(
        await as("owner", `${API}/collections/${collection.id}/show`, {
          version: collection.version,
          note: "launch",
        }),
      );
      expect(shown.state).toBe("published");
      const page = await fetch(`${server.url}/collection/starter-kit`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const [a, b] = collection.members.map((m) => m.slug);
      expect(html.indexOf(`/${a}"`)).toBeGreaterThan(0);
      expect(html.indexOf(`/${a}"`)).toBeLessThan(html.indexOf(`/${b}"`));

      const hidden = await json<AdminCollection>(
        await as("owner", `${API}/collections/${collection.id}/hide`, { version: shown.version }),
      );
      expect(hidden.state).toBe("archived");
      expect((await fetch(`${server.url}/api/content/starter-kit`)).status).toBe(404);
      const events = await server.runtime.database.db
        .selectFrom("content_workflow_event")
        .select(["action"])
        .where("contentId", "=", collection.id)
        .orderBy("at")
        .execute()
        .catch(() => null);
      if (events) expect(events.map((e) => e.action)).toEqual(["publish", "archive"]);
      expect((await audit("collection_shown"))[0]).toMatchObject({ targetId: collection.id });
      expect(await audit("collection_hidden")).toHaveLength(1);
      const listed = await json<{ items: AdminCollection[] }>(await as("admin", `${API}/collections`));
      expect(listed.items.find((c) => c.id === collection.id)?.state).toBe("archived");
    });
  });
});
