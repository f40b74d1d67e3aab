/**
 * The data API (issue 5) for Content, ContentCategory and ContentItem over real HTTP on both
 * dialects: each operation allowed and denied per auth mode (visitor, sessions, bearer ID token,
 * API key with and without content:read, service tokens), publishing, drafts, optimistic
 * concurrency, pagination, filters, the six list-by-key queries, body links, apiVersion, the
 * limits, bad input and CSRF.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { contentBodyKey } from "../factories/index.ts";
import { call } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const proItem = DEMO_CONTENT.find((c) => c.tier === "Pro" && !c.rolesRequired?.length)!;
const freeItem = DEMO_CONTENT.find((c) => c.tier === "Free" && !c.rolesRequired?.length)!;

interface GqlResult {
  status: number;
  headers: Headers;
  data: Record<string, unknown> | null;
  errors: Array<{ message: string; extensions?: { code?: string } }> | undefined;
  extensions: Record<string, unknown> | undefined;
}

type Who =
  | "visitor"
  | "free"
  | "pro"
  | "manager"
  | "admin"
  | "owner"
  | "bearerPro"
  | "bearerManager"
  | "key"
  | "keyNoScope"
  | "svcRead"
  | "svcAll";

describe.each(DIALECTS)("GraphQL content models (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const headersOf: Partial<Record<Who, Record<string, string>>> = {};

  async function gql(
    query: string,
    variables: Record<string, unknown> = {},
    who: Who = "visitor",
    options: { origin?: string | null } = {},
  ): Promise<GqlResult> {
    const headers: Record<string, string> = { "content-type": "application/json", ...(headersOf[who] ?? {}) };
    if (options.origin !== null) headers.origin = options.origin ?? server.url;
    const res = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query, variables }),
    });
    expect(res.status, `HTTP status for ${query.slice(0, 60)}`).toBeLessThan(500);
    const body = (await res.json()) as Omit<GqlResult, "status" | "headers">;
    return {
      status: res.status,
      headers: res.headers,
      data: body.data ?? null,
      errors: body.errors,
      extensions: body.extensions,
    };
  }
  const code = (r: GqlResult) => r.errors?.[0]?.extensions?.code;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      AUTH_SECRET: TEST_AUTH_SECRET,
      // hundreds of requests per actor within a minute, all from 127.0.0.1 (decision 014)
      ...RAISED_RATE_LIMITS,
    });
    for (const who of ["free", "pro", "manager", "admin", "owner"] as const) {
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
      headersOf[who] = { cookie: cookies[who]! };
    }
    for (const [who, as] of [
      ["bearerPro", "pro"],
      ["bearerManager", "manager"],
    ] as const) {
      const res = await call(server.url, "/api/account/token", {}, { cookie: cookies[as] });
      const { idToken } = (await res.json()) as { idToken: string };
      headersOf[who] = { authorization: `Bearer ${idToken}` };
    }
    for (const [who, scopes] of [
      ["key", ["content:read"]],
      ["keyNoScope", ["repositories:read"]],
    ] as const) {
      const res = await call(
        server.url,
        "/api/account/api-keys",
        { name: who, scopes },
        { cookie: cookies.pro },
      );
      headersOf[who] = { "x-api-key": ((await res.json()) as { key: string }).key };
    }
    for (const [who, scopes] of [
      ["svcRead", ["content:read"]],
      ["svcAll", ["content:read:all"]],
    ] as const) {
      const created = await call(
        server.url,
        "/api/admin/service-credentials",
        { name: who, scopes },
        { cookie: cookies.admin },
      );
      const cred = (await created.json()) as { clientId: string; clientSecret: string };
      const token = await call(
        server.url,
        "/api/auth/service-token",
        { grant_type: "client_credentials", client_id: cred.clientId, client_secret: cred.clientSecret },
        { origin: null },
      );
      headersOf[who] = {
        authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}`,
      };
    }
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  const ITEM =
    "id slug title tier status version locked bodyS3Key bodySize bodyChecksum presignedUrl url reviewerNotes";
  const bySlug = (who: Who, slug: string) =>
    gql(`query ($slug: String!) { listContentBySlug(slug: $slug) { items { ${ITEM} } } }`, { slug }, who);
  const firstOf = (r: GqlResult, field: string) =>
    ((r.data![field] as { items: Array<Record<string, unknown>> }).items[0] ?? null) as Record<
      string,
      unknown
    > | null;

  it("answers apiVersion as a field and in the extensions of every response", async () => {
    const ok = await gql("{ apiVersion }");
    expect(ok.data).toEqual({ apiVersion: "1.4" });
    expect(ok.extensions).toEqual({ apiVersion: "1.4" });
    const failed = await gql("{ nope }");
    expect(failed.errors?.length).toBeGreaterThan(0);
    expect(failed.extensions).toEqual({ apiVersion: "1.4" });
  });

  describe("reads per auth mode", () => {
    it.each([
      ["visitor", true],
      ["free", true],
      ["key", true],
      ["svcRead", true],
      ["pro", false],
      ["bearerPro", false],
      ["svcAll", false],
    ] as const)(
      "%s: Pro item metadata always; body link only when readable (locked: %s)",
      async (who, locked) => {
        const item = firstOf(await bySlug(who, proItem.slug), "listContentBySlug")!;
        expect(item.title).toBe(proItem.title);
        expect(item.locked).toBe(locked);
        if (locked) {
          expect(item.presignedUrl).toBeNull();
          expect(item.url).toBeNull();
          expect(item.bodyS3Key).toBeNull();
          // Nothing about the body either: its size and checksum would fingerprint it.
          expect(item.bodySize).toBeNull();
          expect(item.bodyChecksum).toBeNull();
        } else {
          expect(item.bodySize).toBeGreaterThan(0);
          expect(item.bodyChecksum).toEqual(expect.any(String));
          expect(item.presignedUrl).toMatch(/\/api\/content\/[^/]+\/body\?/);
          expect(item.url).toBe(item.presignedUrl);
          const body = await fetch(new URL(String(item.presignedUrl), server.url));
          expect(body.status).toBe(200);
          expect((await body.text()).length).toBeGreaterThan(0);
        }
        expect(item.reviewerNotes).toBeNull();
      },
    );

    it("a Free item's link works for a visitor", async () => {
      const item = firstOf(await bySlug("visitor", freeItem.slug), "listContentBySlug")!;
      expect(item.locked).toBe(false);
      expect((await fetch(new URL(String(item.presignedUrl), server.url))).status).toBe(200);
    });

    it("an API key without content:read → FORBIDDEN; a bad key → 401 UNAUTHENTICATED", async () => {
      const noScope = await bySlug("keyNoScope", freeItem.slug);
      expect(code(noScope)).toBe("FORBIDDEN");
      expect(noScope.data).toBeNull();
      const res = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "lh_nope" },
        body: JSON.stringify({ query: "{ apiVersion }" }),
      });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { errors: Array<{ extensions: { code: string } }> };
      expect(body.errors[0]!.extensions.code).toBe("UNAUTHENTICATED");
      const badBearer = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer not-a-token" },
        body: JSON.stringify({ query: "{ apiVersion }" }),
      });
      expect(badBearer.status).toBe(401);
    });

    it("a rate-limited API key → HTTP 429, RATE_LIMITED, Retry-After", async () => {
      const created = await call(
        server.url,
        "/api/account/api-keys",
        { name: "limited", scopes: ["content:read"] },
        { cookie: cookies.free },
      );
      const { id, key } = (await created.json()) as { id: string; key: string };
      await server.runtime.database.db
        .updateTable("api_key")
        .set({ rateLimitPerMinute: 2 })
        .where("id", "=", id)
        .execute();
      let limited: Response | null = null;
      for (let i = 0; i < 5 && !limited; i++) {
        const res = await fetch(`${server.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify({ query: "{ apiVersion }" }),
        });
        if (res.status === 429) limited = res;
      }
      expect(limited).not.toBeNull();
      expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      const body = (await limited!.json()) as { errors: Array<{ extensions: { code: string } }> };
      expect(body.errors[0]!.extensions.code).toBe("RATE_LIMITED");
    });
  });

  describe("Content writes", () => {
    const CREATE = `mutation ($input: CreateContentInput!) { createContent(input: $input) { ${ITEM} authorId } }`;
    const UPDATE = `mutation ($id: ID!, $version: Int!, $input: UpdateContentInput!) {
      updateContent(id: $id, version: $version, input: $input) { ${ITEM} } }`;
    const DELETE = "mutation ($id: ID!, $version: Int) { deleteContent(id: $id, version: $version) { id } }";
    let n = 0;
    const draft = () => ({
      title: `GraphQL draft ${++n}`,
      slug: `graphql-draft-${dialect}-${n}`,
      tier: "Pro",
    });

    it.each([
      ["visitor", "UNAUTHENTICATED"],
      ["free", "FORBIDDEN"],
      ["pro", "FORBIDDEN"],
      ["key", "FORBIDDEN"],
      ["svcAll", "FORBIDDEN"],
      ["bearerPro", "FORBIDDEN"],
    ] as const)("%s may not create content (%s)", async (who, expected) => {
      const input = draft();
      const res = await gql(CREATE, { input }, who);
      expect(code(res)).toBe(expected);
      const row = await server.runtime.database.db
        .selectFrom("content")
        .select("id")
        .where("slug", "=", input.slug)
        .executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it("a cookie session from a foreign Origin (or none) may not mutate (CSRF)", async () => {
      expect(code(await gql(CREATE, { input: draft() }, "manager", { origin: "https://evil.example" }))).toBe(
        "FORBIDDEN",
      );
      expect(code(await gql(CREATE, { input: draft() }, "manager", { origin: null }))).toBe("FORBIDDEN");
    });

    it("content writers create drafts (session or bearer); the author comes from the credential", async () => {
      for (const who of ["manager", "bearerManager", "admin", "owner"] as const) {
        const res = await gql(CREATE, { input: { ...draft(), authorId: undefined } }, who);
        expect(res.errors, who).toBeUndefined();
        const created = res.data!.createContent as Record<string, unknown>;
        expect(created.status).toBe("draft");
        expect(created.version).toBe(1);
        expect(created.authorId).toMatch(/.+/);
      }
    });

    it("client-set id, version, counters or authorId are refused (no mass assignment)", async () => {
      for (const extra of [{ id: "x" }, { version: 9 }, { viewCount: 5 }, { authorId: "someone" }]) {
        const res = await gql(CREATE, { input: { ...draft(), ...extra } }, "manager");
        expect(res.errors?.length, JSON.stringify(extra)).toBeGreaterThan(0);
        expect(res.data).toBeNull();
      }
      const bad = await gql(CREATE, { input: { ...draft(), slug: "Not A Slug" } }, "manager");
      expect(code(bad)).toBe("BAD_USER_INPUT");
      expect(bad.errors?.[0]?.message).toMatch(/slug/);
    });

    it("drafts are invisible to readers, visible to content staff", async () => {
      const input = draft();
      const created = (await gql(CREATE, { input }, "manager")).data!.createContent as { id: string };
      const get = "query ($id: ID!) { getContent(id: $id) { id } }";
      for (const who of ["visitor", "pro", "key", "svcAll"] as const) {
        expect((await gql(get, { id: created.id }, who)).data?.getContent, who).toBeNull();
        expect(firstOf(await bySlug(who, input.slug), "listContentBySlug"), who).toBeNull();
      }
      expect((await gql(get, { id: created.id }, "admin")).data?.getContent).toEqual({ id: created.id });
      const drafts = await gql(
        '{ listContentByStatusAndUpdatedAt(status: "draft", limit: 100) { items { id } } }',
        {},
        "visitor",
      );
      expect((drafts.data!.listContentByStatusAndUpdatedAt as { items: unknown[] }).items).toEqual([]);
    });

    it("publishing needs content:publish: admin (Admin) may not, manager and owner may", async () => {
      const adminTry = await gql(CREATE, { input: { ...draft(), status: "published" } }, "admin");
      expect(code(adminTry)).toBe("FORBIDDEN");
      const created = (await gql(CREATE, { input: draft() }, "admin")).data!.createContent as {
        id: string;
        version: number;
      };
      const publish = await gql(
        UPDATE,
        { id: created.id, version: 1, input: { status: "published" } },
        "admin",
      );
      expect(code(publish)).toBe("FORBIDDEN");
      const ok = await gql(UPDATE, { id: created.id, version: 1, input: { status: "published" } }, "manager");
      expect(ok.errors).toBeUndefined();
      const published = ok.data!.updateContent as { status: string; version: number };
      expect(published).toMatchObject({ status: "published", version: 2 });
      const row = await server.runtime.database.db
        .selectFrom("content")
        .select(["publishedAt", "lastEditedBy"])
        .where("id", "=", created.id)
        .executeTakeFirstOrThrow();
      expect(row.publishedAt).not.toBeNull();
      // A published item is changed or deleted only by publishers.
      expect(code(await gql(UPDATE, { id: created.id, version: 2, input: { title: "x" } }, "admin"))).toBe(
        "FORBIDDEN",
      );
      expect(code(await gql(DELETE, { id: created.id }, "admin"))).toBe("FORBIDDEN");
      expect((await gql(DELETE, { id: created.id, version: 2 }, "owner")).errors).toBeUndefined();
    });

    it("a stale version → CONFLICT and the stored row is untouched", async () => {
      const created = (await gql(CREATE, { input: draft() }, "manager")).data!.createContent as {
        id: string;
        title: string;
      };
      const first = await gql(
        UPDATE,
        { id: created.id, version: 1, input: { title: "First edit" } },
        "manager",
      );
      expect((first.data!.updateContent as { version: number }).version).toBe(2);
      const stale = await gql(
        UPDATE,
        { id: created.id, version: 1, input: { title: "Lost edit" } },
        "manager",
      );
      expect(code(stale)).toBe("CONFLICT");
      const staleDelete = await gql(DELETE, { id: created.id, version: 1 }, "manager");
      expect(code(staleDelete)).toBe("CONFLICT");
      const row = await server.runtime.database.db
        .selectFrom("content")
        .select(["title", "version"])
        .where("id", "=", created.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ title: "First edit", version: 2 });
      expect(code(await gql(UPDATE, { id: "missing", version: 1, input: { title: "x" } }, "manager"))).toBe(
        "NOT_FOUND",
      );
    });

    it("deletes: readers refused, writers allowed", async () => {
      const created = (await gql(CREATE, { input: draft() }, "manager")).data!.createContent as {
        id: string;
      };
      for (const [who, expected] of [
        ["visitor", "UNAUTHENTICATED"],
        ["pro", "FORBIDDEN"],
        ["key", "FORBIDDEN"],
      ] as const) {
        expect(code(await gql(DELETE, { id: created.id }, who)), who).toBe(expected);
      }
      expect((await gql(DELETE, { id: created.id }, "manager")).data?.deleteContent).toEqual({
        id: created.id,
      });
      expect(code(await gql(DELETE, { id: created.id }, "manager"))).toBe("NOT_FOUND");
    });
  });

  describe("ContentCategory and ContentItem writes: app-admin and app-owner only", () => {
    const CREATE_CAT =
      "mutation ($input: CreateContentCategoryInput!) { createContentCategory(input: $input) { id slug label isActive } }";
    const CREATE_ITEM =
      "mutation ($input: CreateContentItemInput!) { createContentItem(input: $input) { id tier locked } }";
    let n = 0;

    it.each([
      ["visitor", "UNAUTHENTICATED"],
      ["pro", "FORBIDDEN"],
      ["manager", "FORBIDDEN"],
      ["bearerManager", "FORBIDDEN"],
      ["key", "FORBIDDEN"],
      ["svcAll", "FORBIDDEN"],
    ] as const)("%s may not create categories or items (%s)", async (who, expected) => {
      const cat = await gql(CREATE_CAT, { input: { slug: `gql-cat-${who}-${++n}`, label: "X" } }, who);
      expect(code(cat)).toBe(expected);
      expect(code(await gql(CREATE_ITEM, { input: { tier: "Free" } }, who))).toBe(expected);
    });

    it("admin and owner create, update and delete categories and items; readers read them", async () => {
      for (const who of ["admin", "owner"] as const) {
        const slug = `gql-cat-${dialect}-${who}`;
        const created = await gql(CREATE_CAT, { input: { slug, label: "GraphQL category" } }, who);
        expect(created.errors).toBeUndefined();
        const cat = created.data!.createContentCategory as { id: string };
        const updated = await gql(
          'mutation ($id: ID!) { updateContentCategory(id: $id, input: { label: "Renamed", isActive: false }) { label isActive } }',
          { id: cat.id },
          who,
        );
        expect(updated.data?.updateContentCategory).toEqual({ label: "Renamed", isActive: false });
        // An inactive category is hidden from readers.
        const get = "query ($id: ID!) { getContentCategory(id: $id) { id } }";
        expect((await gql(get, { id: cat.id }, "visitor")).data?.getContentCategory).toBeNull();
        expect(
          code(
            await gql("mutation ($id: ID!) { deleteContentCategory(id: $id) { id } }", { id: cat.id }, "pro"),
          ),
        ).toBe("FORBIDDEN");
        const deleted = await gql(
          "mutation ($id: ID!) { deleteContentCategory(id: $id) { id } }",
          { id: cat.id },
          who,
        );
        expect(deleted.data?.deleteContentCategory).toEqual({ id: cat.id });

        const item = await gql(
          CREATE_ITEM,
          { input: { tier: "Free", title: "Item", slug: `gql-item-${who}` } },
          who,
        );
        expect(item.errors).toBeUndefined();
        const itemId = (item.data!.createContentItem as { id: string }).id;
        const upd = await gql(
          'mutation ($id: ID!) { updateContentItem(id: $id, input: { title: "Renamed item" }) { title } }',
          { id: itemId },
          who,
        );
        expect(upd.data?.updateContentItem).toEqual({ title: "Renamed item" });
        expect(
          code(
            await gql("mutation ($id: ID!) { deleteContentItem(id: $id) { id } }", { id: itemId }, "manager"),
          ),
        ).toBe("FORBIDDEN");
        expect(
          (await gql("mutation ($id: ID!) { deleteContentItem(id: $id) { id } }", { id: itemId }, who))
            .errors,
        ).toBeUndefined();
      }
      const list = await gql("{ listContentCategories(limit: 100) { items { slug isActive } nextToken } }");
      const cats = (list.data!.listContentCategories as { items: Array<{ isActive: boolean }> }).items;
      expect(cats.length).toBeGreaterThan(0);
      expect(cats.every((c) => c.isActive)).toBe(true);
    });

    it("a ContentItem's body link only for readers whose plan opens it", async () => {
      const content = await server.runtime.database.db
        .selectFrom("content")
        .select("id")
        .where("slug", "=", proItem.slug)
        .executeTakeFirstOrThrow();
      const created = await gql(
        CREATE_ITEM,
        {
          input: {
            tier: "Pro",
            contentId: content.id,
            title: proItem.title,
            slug: `gql-pro-item-${dialect}`,
            publishedAt: "2026-01-01T00:00:00Z",
          },
        },
        "admin",
      );
      const id = (created.data!.createContentItem as { id: string }).id;
      const query =
        "query ($id: ID!) { getContentItem(id: $id) { locked bodyS3Key presignedUrl content { slug locked } } }";
      const free = (await gql(query, { id }, "free")).data!.getContentItem as Record<string, unknown>;
      expect(free).toEqual({
        locked: true,
        bodyS3Key: null,
        presignedUrl: null,
        content: { slug: proItem.slug, locked: true },
      });
      const pro = (await gql(query, { id }, "pro")).data!.getContentItem as Record<string, unknown>;
      expect(pro.locked).toBe(false);
      // The key is the content record's own, chosen by the server (never sent by a client).
      expect(pro.bodyS3Key).toBe(contentBodyKey(proItem.tier, proItem.categorySlug, proItem.slug));
      expect(String(pro.presignedUrl)).toContain(`/api/content/${content.id}/body?`);
      expect((await fetch(new URL(String(pro.presignedUrl), server.url))).status).toBe(200);
    });
  });

  describe("lists", () => {
    it("pages through every published item exactly once with nextToken", async () => {
      const seen: string[] = [];
      let nextToken: string | null = null;
      let pages = 0;
      do {
        const res = await gql(
          "query ($next: String) { listContents(limit: 7, nextToken: $next) { items { id status } nextToken } }",
          { next: nextToken },
        );
        const page = res.data!.listContents as {
          items: Array<{ id: string; status: string }>;
          nextToken: string | null;
        };
        expect(page.items.length).toBeLessThanOrEqual(7);
        expect(page.items.every((i) => i.status === "published")).toBe(true);
        seen.push(...page.items.map((i) => i.id));
        nextToken = page.nextToken;
        pages += 1;
      } while (nextToken && pages < 100);
      const published = await server.runtime.database.db
        .selectFrom("content")
        .select("id")
        .where("status", "=", "published")
        .execute();
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual(published.map((r) => r.id).sort());
    });

    it("limit above 100 or below 1, and a forged nextToken → BAD_USER_INPUT", async () => {
      for (const limit of [101, 0, -1]) {
        const res = await gql("query ($l: Int) { listContents(limit: $l) { items { id } } }", { l: limit });
        expect(code(res), String(limit)).toBe("BAD_USER_INPUT");
        expect(res.errors?.[0]?.message).toMatch(/limit/);
      }
      const forged = await gql('{ listContents(nextToken: "not-a-cursor!") { items { id } } }');
      expect(code(forged)).toBe("BAD_USER_INPUT");
    });

    it("filters apply in SQL: tier, contains, beginsWith, between, boolean; bad filters are BAD_USER_INPUT", async () => {
      const list = async (filter: unknown) => {
        const res = await gql(
          "query ($f: ContentFilter) { listContents(filter: $f, limit: 100) { items { slug tier title featured publishedAt } } }",
          { f: filter },
        );
        expect(res.errors).toBeUndefined();
        return (res.data!.listContents as { items: Array<Record<string, string | boolean>> }).items;
      };
      const pro = await list({ tier: { eq: "Pro" } });
      const demoPro = DEMO_CONTENT.filter((c) => c.tier === "Pro");
      expect(pro.map((i) => i.slug).sort()).toEqual(demoPro.map((c) => c.slug).sort());
      const word = proItem.title.split(" ")[0]!;
      const contains = await list({ title: { contains: word } });
      expect(contains.length).toBeGreaterThan(0);
      expect(contains.every((i) => String(i.title).includes(word))).toBe(true);
      const prefix = await list({ slug: { beginsWith: proItem.slug.slice(0, 5) } });
      expect(prefix.every((i) => String(i.slug).startsWith(proItem.slug.slice(0, 5)))).toBe(true);
      const featured = await list({ featured: { eq: true }, tier: { ne: "Enterprise" } });
      expect(featured.every((i) => i.featured === true && i.tier !== "Enterprise")).toBe(true);
      const window = await list({
        publishedAt: { between: ["2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z"] },
      });
      expect(window.length).toBe(Math.min(100, DEMO_CONTENT.length));
      const badBetween = await gql('{ listContents(filter: { tier: { between: ["A"] } }) { items { id } } }');
      expect(code(badBetween)).toBe("BAD_USER_INPUT");
    });

    it.each([
      ["listContentByStatusAndUpdatedAt", "status", "published", "updatedAt"],
      ["listContentByTierAndPublishedAt", "tier", "Pro", "publishedAt"],
      ["listContentBySectionAndPublishedAt", "section", proItem.section ?? "ai-education", "publishedAt"],
      ["listContentByCategoryTierAndPublishedAt", "categoryTier", "Free", "publishedAt"],
    ] as const)("%s: key match, sort order both ways, sort-key condition", async (name, key, value, sort) => {
      const run = async (direction: "ASC" | "DESC", condition?: unknown) => {
        const res = await gql(
          `query ($v: String!, $c: DateTimeKeyCondition, $d: SortDirection) {
            ${name}(${key}: $v, ${sort}: $c, sortDirection: $d, limit: 100) { items { id ${key} ${sort} } } }`,
          { v: value, c: condition ?? null, d: direction },
        );
        expect(res.errors).toBeUndefined();
        return (res.data![name] as { items: Array<Record<string, string>> }).items;
      };
      const asc = await run("ASC");
      const desc = await run("DESC");
      expect(asc.every((i) => i[key] === value)).toBe(true);
      const sorted = asc.map((i) => i[sort]!);
      expect(sorted).toEqual([...sorted].sort());
      expect(desc.map((i) => i.id)).toEqual(asc.map((i) => i.id).reverse());
      if (asc.length > 1) {
        const pivot = asc[Math.floor(asc.length / 2)]![sort]!;
        const later = await run("ASC", { ge: pivot });
        expect(later.length).toBeGreaterThan(0);
        expect(later.every((i) => i[sort]! >= pivot)).toBe(true);
        const year = pivot.slice(0, 4);
        const prefixed = await run("DESC", { beginsWith: year });
        expect(prefixed.every((i) => i[sort]!.startsWith(year))).toBe(true);
        expect(
          code(
            await gql(
              `{ ${name}(${key}: "x", ${sort}: { ge: "2020-01-01T00:00:00Z", lt: "2030-01-01T00:00:00Z" }) { items { id } } }`,
            ),
          ),
        ).toBe("BAD_USER_INPUT");
      }
    });

    it("listContentBySlug and listContentByAuthorIdAndUpdatedAt find their rows", async () => {
      const one = firstOf(await bySlug("visitor", proItem.slug), "listContentBySlug");
      expect(one?.slug).toBe(proItem.slug);
      const row = await server.runtime.database.db
        .selectFrom("content")
        .select("authorId")
        .where("slug", "=", proItem.slug)
        .executeTakeFirstOrThrow();
      const res = await gql(
        "query ($a: String!) { listContentByAuthorIdAndUpdatedAt(authorId: $a, sortDirection: DESC, limit: 100) { items { slug authorId authorName } } }",
        { a: row.authorId },
      );
      const items = (res.data!.listContentByAuthorIdAndUpdatedAt as { items: Array<Record<string, string>> })
        .items;
      expect(items.some((i) => i.slug === proItem.slug)).toBe(true);
      expect(items.every((i) => i.authorId === row.authorId && i.authorName)).toBe(true);
    });
  });

  describe("limits and bad input", () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });

    it("refuses depth, alias and cost bombs with an error", async () => {
      let deep = "id";
      for (let i = 0; i < 6; i++) deep = `contentItems { content { ${deep} } }`;
      const depth = await gql(`{ listContents { items { ${deep} } } }`);
      expect(depth.data).toBeNull();
      expect(depth.errors?.map((e) => e.message).join(" ")).toMatch(/depth|cost/i);
      const aliases = await gql(
        `{ ${Array.from({ length: 50 }, (_, i) => `a${i}: listContents { items { id } }`).join(" ")} }`,
      );
      expect(aliases.data).toBeNull();
      expect(aliases.errors?.[0]?.message).toMatch(/alias/i);
      for (const refused of [depth, aliases])
        expect(refused.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      const fields =
        "id title slug tier excerpt tags status section type createdAt updatedAt publishedAt version featured";
      const level = (inner: string) =>
        `contentItems { content { ${fields} ${fields.replace(/(\w+)/g, "x_$1: $1")} ${inner} } }`;
      const cost = await gql(`{ listContents { items { ${level(level(level("")))} } } }`);
      expect(cost.data).toBeNull();
      expect(cost.errors?.length).toBeGreaterThan(0);
    });

    it("holds the documented limits at their edges: 15 aliases and pages of 1 to 100 (decision 006)", async () => {
      const aliased = (n: number) =>
        `{ ${Array.from({ length: n }, (_, i) => `a${i}: listContents(limit: 1) { items { id } }`).join(" ")} }`;
      const fifteen = await gql(aliased(15));
      expect(fifteen.errors).toBeUndefined();
      expect(Object.keys(fifteen.data ?? {})).toHaveLength(15);
      const sixteen = await gql(aliased(16));
      expect(sixteen.data).toBeNull();
      expect(sixteen.errors?.[0]?.message).toMatch(/alias/i);
      expect(sixteen.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");

      const hundred = await gql("{ listContents(limit: 100) { items { id } } }");
      expect(hundred.errors).toBeUndefined();
      const byDefault = await gql("{ listContents { items { id } nextToken } }");
      expect(byDefault.errors).toBeUndefined();
      const all = (hundred.data as { listContents: { items: unknown[] } }).listContents.items.length;
      const page = byDefault.data as { listContents: { items: unknown[]; nextToken: string | null } };
      expect(page.listContents.items).toHaveLength(Math.min(20, all));
      if (all > 20) expect(page.listContents.nextToken).toBeTruthy();
      for (const [query, variables, given] of [
        ["{ listContents(limit: 101) { items { id } } }", undefined, "101"],
        ["{ listContents(limit: 0) { items { id } } }", undefined, "0"],
        ["query ($l: Int) { listContents(limit: $l) { items { id } } }", { l: 1000 }, "1000"],
        ['{ listContentBySlug(slug: "x", limit: 101) { items { id } } }', undefined, "101"],
      ] as const) {
        const res = await gql(query, variables);
        expect(res.data, query).toBeNull();
        expect(res.errors?.[0]?.extensions?.code, query).toBe("BAD_USER_INPUT");
        expect(res.errors?.[0]?.message, query).toBe(
          `limit must be a whole number from 1 to 100 (default 20): ${query.match(/(\w+)\(/)?.[1]} (given ${given}).`,
        );
      }
    });

    it("introspection is refused in production (the test server)", async () => {
      const res = await gql("{ __schema { types { name } } }");
      expect(res.data).toBeNull();
      expect(res.errors?.[0]?.message).toMatch(/introspection/i);
    });

    it("oversized bodies → 413; malformed JSON, wrong types, unknown fields → 4xx errors, never 500", async () => {
      const big = await post(JSON.stringify({ query: `{ apiVersion } # ${"x".repeat(110 * 1024)}` }));
      expect(big.status).toBe(413);
      for (const body of [
        "{not json",
        JSON.stringify({ query: 42 }),
        JSON.stringify({ query: '{ listContents(limit: "ten") { items { id } } }' }),
        JSON.stringify({
          query: "query ($l: Int) { listContents(limit: $l) { items { id } } }",
          variables: { l: "x" },
        }),
        JSON.stringify({ query: "{ getContent { id } }" }),
        JSON.stringify({ query: "mutation { nope }" }),
        JSON.stringify({ query: "{" }),
      ]) {
        const res = await post(body, { origin: server.url });
        expect(res.status, body.slice(0, 50)).toBeGreaterThanOrEqual(200);
        expect(res.status, body.slice(0, 50)).toBeLessThan(500);
        const json = (await res.json()) as { errors?: Array<{ message: string }> };
        expect(json.errors?.length, body.slice(0, 50)).toBeGreaterThan(0);
        expect(JSON.stringify(json)).not.toMatch(/\bat \w+ \(|node_modules/);
      }
    });

    it("GET serves queries but never mutations; GraphiQL is off in production", async () => {
      const q = encodeURIComponent("{ apiVersion }");
      const ok = await fetch(`${server.url}/graphql?query=${q}`, { headers: { accept: "application/json" } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ data: { apiVersion: "1.4" } });
      const m = encodeURIComponent('mutation { deleteContent(id: "x") { id } }');
      const refused = await fetch(`${server.url}/graphql?query=${m}`, {
        headers: { accept: "application/json", cookie: cookies.owner! },
      });
      expect(refused.status).toBe(405);
      const page = await fetch(`${server.url}/graphql`, { headers: { accept: "text/html" } });
      expect(page.headers.get("content-type") ?? "").not.toContain("text/html");
    });
  });
});
