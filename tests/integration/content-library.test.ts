/**
 * The content-management list (`/content`) and its "Load more" over the data API: the first page
 * is rendered on the server, the next pages come from `/graphql` through the UI's GraphQL client
 * (`app/lib/graphql-client.ts`) with the same query, and without JavaScript the `?cursor=` link
 * serves the same rows. Both agree on order and cursor, and together list every published item
 * once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIBRARY_PAGE_QUERY, LIBRARY_PAGE_SIZE } from "../../app/features/content/library-list.ts";
import { GraphQLRequestError, graphqlRequest } from "../../app/lib/graphql-client.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

describe.each(DIALECTS)("content library /content (%s)", (dialect) => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    cookie = await signIn(server.url, "manager@demo.local", DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  async function page(query = "") {
    const res = await fetch(`${server.url}/content${query}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const slugs = [
      ...html.matchAll(/<span class="block font-mono text-xs text-ink-subtle">([a-z0-9-]+)<\/span>/g),
    ].map((m) => m[1]!);
    const next = /href="\/content\?cursor=([^"]+)"[^>]*>Load more</.exec(html)?.[1] ?? null;
    return { html, slugs, next: next ? decodeURIComponent(next) : null };
  }

  /** The UI's client, run against the test server with the manager's cookie. */
  const request = (nextToken: string | null, withCookie = true) =>
    graphqlRequest(
      LIBRARY_PAGE_QUERY,
      { limit: LIBRARY_PAGE_SIZE, nextToken },
      {
        endpoint: `${server.url}/graphql`,
        retries: 0,
        fetch: (input, init) =>
          fetch(input, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), ...(withCookie ? { cookie } : {}) },
          }),
      },
    );

  it("renders the first page on the server, newest update first, with a Load more link", async () => {
    const first = await page();
    expect(first.slugs).toHaveLength(LIBRARY_PAGE_SIZE);
    // The demo items were last updated when they were published.
    const newest = [...DEMO_CONTENT]
      .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))
      .slice(0, LIBRARY_PAGE_SIZE)
      .map((c) => c.slug);
    expect(first.slugs).toEqual(newest);
    expect(first.next).toEqual(expect.any(String));
    expect(first.html).toContain("Updated");
  });

  it("Load more (the GraphQL client) and the no-JavaScript link give the same next pages, every item once", async () => {
    const first = await page();
    const seen = [...first.slugs];
    let cursor = first.next;
    let pages = 1;
    while (cursor) {
      const data = await request(cursor);
      const apiPage = data.listContentByStatusAndUpdatedAt;
      const htmlPage = await page(`?cursor=${encodeURIComponent(cursor)}`);
      expect(apiPage.items.map((i) => i.slug)).toEqual(htmlPage.slugs);
      expect(apiPage.nextToken).toBe(htmlPage.next);
      expect(htmlPage.html).toContain(">First page<");
      seen.push(...htmlPage.slugs);
      cursor = apiPage.nextToken;
      pages++;
    }
    expect(pages).toBe(Math.ceil(DEMO_CONTENT.length / LIBRARY_PAGE_SIZE));
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(DEMO_CONTENT.map((c) => c.slug).sort());
  });

  it("explains an out-of-date cursor and starts again from the top", async () => {
    const stale = await page("?cursor=not-a-cursor");
    expect(stale.html).toContain("That page link is out of date");
    expect(stale.slugs).toEqual((await page()).slugs);
    const error = await request("not-a-cursor").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect((error as GraphQLRequestError).codes).toEqual(["BAD_USER_INPUT"]);
  });

  it("the same query works without a cookie (as a visitor), while the page itself needs a signed-in manager", async () => {
    const data = await request(null, false);
    expect(data.listContentByStatusAndUpdatedAt.items).toHaveLength(LIBRARY_PAGE_SIZE);
    const visitorPage = await fetch(`${server.url}/content`, { redirect: "manual" });
    expect(visitorPage.status).toBe(302);
  });
});
