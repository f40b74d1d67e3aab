/**
 * Visitors' API reads answered before the app (decision 025): `GET /api/content`,
 * `GET /api/content/{slug}` and GraphQL queries from a caller without credentials are stored once
 * and replayed. What must hold: a hit is the app's answer (every coding decoding to the same
 * bytes), a session, an API key or a bearer token never gets a visitor's answer, an edit is seen
 * on the next request, every hit is still charged to the address's rate limits (reads and GraphQL
 * cost), and neither a mutation nor a query answered with errors is ever stored.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { call } from "../helpers/auth.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request over node:http: the body exactly as sent (fetch would decode it). */
function raw(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The body decoded per its Content-Encoding. */
function decoded(answer: RawAnswer): Buffer {
  const coding = answer.headers["content-encoding"];
  if (coding === "br") return zlib.brotliDecompressSync(answer.body);
  if (coding === "gzip") return zlib.gunzipSync(answer.body);
  expect(coding).toBeUndefined();
  return answer.body;
}

const PRO_ITEM = DEMO_CONTENT.find((c) => c.tier === "Pro" && !c.rolesRequired?.length)!;
const FREE_ITEM = DEMO_CONTENT.find((c) => c.tier === "Free" && !c.rolesRequired?.length)!;
const credOf = (link: string | undefined | null) =>
  link ? new URL(link, "http://x").searchParams.get("cred") : null;
const fresh = () => `${Date.now()}${Math.random().toString(36).slice(2)}`;

const graphqlBody = (slug: string, extra = "") =>
  JSON.stringify({
    query: `query ($slug: String!) { listContentBySlug(slug: $slug) { items { id slug title tier locked presignedUrl } } }${extra}`,
    variables: { slug },
  });
const JSON_TYPE = { "content-type": "application/json" };

describe.each(DIALECTS)("visitors' API fast path (%s)", (dialect) => {
  let server: TestServer;
  let ownerCookie: string;
  const credentials: Record<"session" | "apiKey" | "bearer", Record<string, string>> = {
    session: {},
    apiKey: {},
    bearer: {},
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, RAISED_RATE_LIMITS);
    const proCookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    ownerCookie = await signIn(server.url, "owner@demo.local", DEMO_PASSWORD);
    credentials.session = { cookie: proCookie, "user-agent": "node", "accept-language": "*" };
    const key = await call(
      server.url,
      "/api/account/api-keys",
      { name: "fast path", scopes: ["content:read"] },
      { cookie: proCookie },
    );
    expect(key.status).toBe(201);
    credentials.apiKey = { "x-api-key": ((await key.json()) as { key: string }).key };
    const token = await call(server.url, "/api/account/token", {}, { cookie: proCookie });
    expect(token.status).toBe(200);
    credentials.bearer = { authorization: `Bearer ${((await token.json()) as { idToken: string }).idToken}` };
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ["br", "br", 15],
    ["gzip", "gzip", 16],
    ["", undefined, 17],
  ])("a visitor's second list read is a hit, the app's bytes in %j", async (accept, coding, limit) => {
    const path = `/api/content?limit=${limit}`;
    const miss = await raw(`${server.url}${path}`, { "accept-encoding": accept });
    expect(miss.status).toBe(200);
    const hit = await raw(`${server.url}${path}`, { "accept-encoding": accept });
    expect(hit.status).toBe(200);
    expect(hit.headers["x-cache"]).toBe("hit");
    const identity = await raw(`${server.url}${path}`);
    expect(identity.headers["x-cache"]).toBe("hit");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    for (const answer of [miss, hit]) {
      expect(answer.headers["content-encoding"]).toBe(coding);
      expect(String(answer.headers.vary)).toMatch(/accept-encoding/i);
      expect(Number(answer.headers["content-length"])).toBe(answer.body.byteLength);
      expect(decoded(answer).equals(identity.body)).toBe(true);
    }
    // What the app adds to each answer is on the hit too.
    for (const name of ["x-content-type-options", "x-frame-options", "content-security-policy", "etag"]) {
      expect(hit.headers[name], name).toBeDefined();
    }
    expect(hit.headers["cache-control"]).toBe("private, no-store");
    expect(hit.headers["ratelimit-limit"]).toBeDefined();
    expect(hit.headers["ratelimit-remaining"]).toBeDefined();
    expect(hit.headers["set-cookie"]).toBeUndefined();
    const items = (JSON.parse(identity.body.toString()) as { items: unknown[] }).items;
    expect(items.length).toBeGreaterThan(0);
  });

  it("a hit answers If-None-Match with 304, like the app", async () => {
    const path = `/api/content/${FREE_ITEM.slug}`;
    const first = await raw(`${server.url}${path}`);
    const second = await raw(`${server.url}${path}`);
    expect(second.headers["x-cache"]).toBe("hit");
    expect(second.body.equals(first.body)).toBe(true);
    const etag = String(second.headers.etag);
    const notModified = await raw(`${server.url}${path}`, { "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body.byteLength).toBe(0);
  });

  it("a session, an API key and a bearer token never get a visitor's cached answer", async () => {
    const path = `/api/content/${PRO_ITEM.slug}`;
    await raw(`${server.url}${path}`);
    const visitor = await raw(`${server.url}${path}`);
    expect(visitor.headers["x-cache"]).toBe("hit");
    const locked = JSON.parse(visitor.body.toString()) as { locked: boolean; presignedUrl?: string };
    expect(locked.locked).toBe(true);
    expect(locked.presignedUrl).toBeUndefined();

    const list = "/api/content?limit=100";
    await raw(`${server.url}${list}`);
    expect((await raw(`${server.url}${list}`)).headers["x-cache"]).toBe("hit");

    for (const [who, headers] of Object.entries(credentials)) {
      // An API key reads as a visitor's tier (decision 003) but gets its own body links.
      const own = await raw(`${server.url}${path}`, headers);
      expect(own.status, who).toBe(200);
      expect(own.headers["x-cache"], who).toBeUndefined();
      const item = JSON.parse(own.body.toString()) as { locked: boolean; presignedUrl?: string };
      expect(item.locked, who).toBe(who === "apiKey");
      if (who !== "apiKey") expect(item.presignedUrl, who).toBeDefined();
      const ownList = await raw(`${server.url}${list}`, headers);
      expect(ownList.headers["x-cache"], who).toBeUndefined();
      const seen = (
        JSON.parse(ownList.body.toString()) as {
          items: Array<{ slug: string; locked: boolean; presignedUrl?: string }>;
        }
      ).items;
      expect(seen.find((i) => i.slug === PRO_ITEM.slug)?.locked, who).toBe(who === "apiKey");
      // Body links name the credential that asked, never the visitors' "v".
      const free = seen.find((i) => i.slug === FREE_ITEM.slug)!;
      expect(credOf(free.presignedUrl), who).not.toBe("v");
      expect(credOf(free.presignedUrl), who).toBeTruthy();
    }
    const visitorList = JSON.parse((await raw(`${server.url}${list}`)).body.toString()) as {
      items: Array<{ slug: string; presignedUrl?: string }>;
    };
    expect(credOf(visitorList.items.find((i) => i.slug === FREE_ITEM.slug)?.presignedUrl)).toBe("v");
    // An empty credential header is not a visitor's request either.
    const empty = await raw(`${server.url}${path}`, { "x-api-key": "" });
    expect(empty.headers["x-cache"]).toBeUndefined();

    // GraphQL: the same query as a visitor (cached) and with each credential (never).
    const body = graphqlBody(PRO_ITEM.slug);
    await raw(`${server.url}/graphql`, JSON_TYPE, "POST", body);
    const cached = await raw(`${server.url}/graphql`, JSON_TYPE, "POST", body);
    expect(cached.headers["x-cache"]).toBe("hit");
    const visitorItems = (
      JSON.parse(cached.body.toString()) as {
        data: { listContentBySlug: { items: Array<{ locked: boolean; presignedUrl: string | null }> } };
      }
    ).data.listContentBySlug.items;
    expect(visitorItems[0]).toMatchObject({ locked: true, presignedUrl: null });
    for (const [who, headers] of Object.entries(credentials)) {
      const own = await raw(
        `${server.url}/graphql`,
        { ...JSON_TYPE, ...headers, origin: server.url },
        "POST",
        body,
      );
      expect(own.status, who).toBe(200);
      expect(own.headers["x-cache"], who).toBeUndefined();
      const items = (
        JSON.parse(own.body.toString()) as {
          data: { listContentBySlug: { items: Array<{ locked: boolean; presignedUrl: string | null }> } };
        }
      ).data.listContentBySlug.items;
      expect(items[0]?.locked, who).toBe(who === "apiKey");
      if (who !== "apiKey") expect(items[0]?.presignedUrl, who).toBeTruthy();
    }
  });

  it("a tier change, an unpublish and an edit through the services are seen on the next request", async () => {
    const repo = createContentRepo(server.runtime.database.db);
    const target = (await repo.getBySlug(FREE_ITEM.slug))!;
    const itemPath = `/api/content/${FREE_ITEM.slug}`;
    const listPath = "/api/content?limit=100";
    const gql = graphqlBody(FREE_ITEM.slug);
    const warm = async () => {
      for (let i = 0; i < 2; i++) {
        await raw(`${server.url}${itemPath}`);
        await raw(`${server.url}${listPath}`);
        await raw(`${server.url}/graphql`, JSON_TYPE, "POST", gql);
      }
      expect((await raw(`${server.url}${itemPath}`)).headers["x-cache"]).toBe("hit");
    };
    const patch = async (fields: Record<string, unknown>) => {
      const current = (await repo.getById(target.id))!;
      const res = await fetch(`${server.url}/api/content/${target.id}`, {
        method: "PATCH",
        headers: { cookie: ownerCookie, origin: server.url, "content-type": "application/json" },
        body: JSON.stringify({ version: current.version, ...fields }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    const visitorView = async () => {
      const item = await raw(`${server.url}${itemPath}`);
      const list = await raw(`${server.url}${listPath}`);
      const graphql = await raw(`${server.url}/graphql`, JSON_TYPE, "POST", gql);
      return {
        item:
          item.status === 200
            ? (JSON.parse(item.body.toString()) as { title: string; tier: string; locked: boolean })
            : null,
        listed: (
          JSON.parse(list.body.toString()) as { items: Array<{ slug: string; title: string }> }
        ).items.find((i) => i.slug === FREE_ITEM.slug),
        graphql: (
          JSON.parse(graphql.body.toString()) as {
            data: { listContentBySlug: { items: Array<{ title: string; tier: string; locked: boolean }> } };
          }
        ).data.listContentBySlug.items[0],
      };
    };

    await warm();
    const title = `Fast path edit ${fresh()}`;
    await patch({ title });
    let seen = await visitorView();
    expect(seen.item?.title).toBe(title);
    expect(seen.listed?.title).toBe(title);
    expect(seen.graphql?.title).toBe(title);

    await warm();
    await patch({ tier: "Pro" });
    seen = await visitorView();
    expect(seen.item).toMatchObject({ tier: "Pro", locked: true });
    expect(seen.graphql).toMatchObject({ tier: "Pro", locked: true });

    await warm();
    await patch({ tier: "Free" });
    seen = await visitorView();
    expect(seen.item).toMatchObject({ tier: "Free", locked: false });

    // Straight into the database, as another process would: seen once the revision is polled.
    await warm();
    const current = (await repo.getById(target.id))!;
    await repo.update(target.id, current.version, { status: "draft" });
    await server.runtime.contentChanges.check();
    seen = await visitorView();
    expect(seen.item).toBeNull();
    expect(seen.listed).toBeUndefined();
    expect(seen.graphql).toBeUndefined();
    const again = (await repo.getById(target.id))!;
    await repo.update(target.id, again.version, { status: "published" });
    await server.runtime.contentChanges.check();
    expect((await visitorView()).item?.title).toBe(title);
  });

  it("GraphQL: a query is a hit with the app's bytes; mutations and answers with errors never are", async () => {
    const body = graphqlBody(FREE_ITEM.slug);
    const miss = await raw(
      `${server.url}/graphql`,
      { ...JSON_TYPE, "accept-encoding": "gzip" },
      "POST",
      body,
    );
    expect(miss.status).toBe(200);
    const hit = await raw(`${server.url}/graphql`, { ...JSON_TYPE, "accept-encoding": "br" }, "POST", body);
    expect(hit.headers["x-cache"]).toBe("hit");
    expect(hit.headers["ratelimit-limit"]).toBeDefined();
    expect(decoded(hit).equals(decoded(miss))).toBe(true);
    const parsed = JSON.parse(decoded(hit).toString()) as {
      data: { listContentBySlug: { items: Array<{ slug: string }> } };
      errors?: unknown;
    };
    expect(parsed.errors).toBeUndefined();
    expect(parsed.data.listContentBySlug.items[0]?.slug).toBe(FREE_ITEM.slug);

    // A different body (even one space) is a different query.
    const spaced = `${body} `;
    expect((await raw(`${server.url}/graphql`, JSON_TYPE, "POST", spaced)).headers["x-cache"]).toBe("miss");

    const withErrors = [
      JSON.stringify({ query: '{ listContentBySlug(slug: "x") { items { noSuchField } } }' }),
      JSON.stringify({ query: "{ nope }" }),
      "{not json",
      JSON.stringify({
        query: 'mutation { createComment(input: { contentId: "x", body: "hi" }) { id } }',
      }),
      JSON.stringify({ query: "query A { apiVersion } query B { apiVersion }" }),
    ];
    // Comments (and anything else outside published content) change without a content revision:
    // such queries, and a fragment at the root, always go to the app.
    const notStored = [
      JSON.stringify({ query: "{ listComments(limit: 5) { items { id } } }" }),
      JSON.stringify({
        query: `{ apiVersion ...F } fragment F on Query { listContentBySlug(slug: "${FREE_ITEM.slug}") { items { id } } }`,
      }),
    ];
    for (const text of notStored) {
      for (let i = 0; i < 3; i++) {
        const answer = await raw(`${server.url}/graphql`, JSON_TYPE, "POST", text);
        expect(answer.status, text).toBe(200);
        expect(answer.headers["x-cache"], text).toBeUndefined();
      }
    }
    for (const text of withErrors) {
      for (let i = 0; i < 3; i++) {
        const answer = await raw(`${server.url}/graphql`, JSON_TYPE, "POST", text);
        expect(answer.headers["x-cache"], text).not.toBe("hit");
        expect(answer.status, text).toBeLessThan(500);
      }
    }
  });

  it("the cache is listed with its bounds among the process's caches", async () => {
    const caches = server.runtime.processMetrics.caches();
    const api = caches.find((cache) => cache.name === "api-cache");
    expect(api?.maxEntries).toBeGreaterThan(0);
    expect(api?.hits).toBeGreaterThan(0);
  });
});

describe.each(DIALECTS)("visitors' API fast path: rate limits hold on hits (%s)", (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      RATE_LIMIT_READS_PER_ADDRESS: "30",
      RATE_LIMIT_GRAPHQL_COST_PER_ADDRESS: "1000000",
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("reads per address: 429 after the limit, hits included", async () => {
    const path = "/api/content?limit=5";
    let served = 0;
    let hits = 0;
    let refused: RawAnswer | null = null;
    for (let i = 0; i < 60; i++) {
      const answer = await raw(`${server.url}${path}`);
      if (answer.status === 200) {
        served++;
        if (answer.headers["x-cache"] === "hit") hits++;
      } else {
        expect(answer.status).toBe(429);
        refused ??= answer;
      }
    }
    expect(hits).toBeGreaterThan(10);
    // Decision 014: reads are batched; a process holds at most 10 % of the limit unsent.
    expect(served).toBeGreaterThanOrEqual(30);
    expect(served).toBeLessThanOrEqual(33);
    expect(refused).not.toBeNull();
    expect(refused!.headers["retry-after"]).toBeDefined();
    expect(refused!.headers["x-content-type-options"]).toBe("nosniff");
    expect((JSON.parse(refused!.body.toString()) as { error: { code: string } }).error.code).toBe(
      "RATE_LIMITED",
    );
  });
});

describe.each(DIALECTS)("visitors' API fast path: GraphQL cost is charged on hits (%s)", (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      RATE_LIMIT_READS_PER_ADDRESS: "100000",
      RATE_LIMIT_GRAPHQL_COST_PER_ADDRESS: "200",
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("the cost the app charged on the miss is charged again on each hit", async () => {
    const body = graphqlBody(FREE_ITEM.slug);
    const first = await raw(`${server.url}/graphql`, JSON_TYPE, "POST", body);
    expect(first.status).toBe(200);
    const cost = 200 - Number(first.headers["ratelimit-remaining"]);
    expect(cost).toBeGreaterThan(1);
    // The next answer is a hit (or, when the cache was dropped meanwhile, the miss that stores it).
    let previous = first;
    let hit: RawAnswer | null = null;
    for (let i = 0; i < 3 && !hit; i++) {
      const answer = await raw(`${server.url}/graphql`, JSON_TYPE, "POST", body);
      expect(Number(answer.headers["ratelimit-remaining"])).toBe(
        Number(previous.headers["ratelimit-remaining"]) - cost,
      );
      if (answer.headers["x-cache"] === "hit") hit = answer;
      previous = answer;
    }
    expect(hit).not.toBeNull();
    let refused: RawAnswer | null = null;
    for (let i = 0; i < 40 && !refused; i++) {
      const answer = await raw(`${server.url}/graphql`, JSON_TYPE, "POST", body);
      if (answer.status === 429) refused = answer;
      else expect(answer.headers["x-cache"]).toBe("hit");
    }
    expect(refused).not.toBeNull();
    const error = JSON.parse(refused!.body.toString()) as {
      errors: Array<{ extensions: { code: string; retryAfter: number } }>;
    };
    expect(error.errors[0]?.extensions.code).toBe("RATE_LIMITED");
    expect(refused!.headers["retry-after"]).toBeDefined();
  });
});
