/**
 * Bad input that once answered 500 (found by the request fuzzer, tests/scale/fuzz.test.ts): a
 * listing page's cursor that this server never issued, and the NUL character in a path, a query
 * or a GraphQL variable (PostgreSQL text cannot hold it). Each is a 4xx naming what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const SECTIONS = ["/ai-education", "/ai-news", "/documentation", "/workforce-tools"];

describe.each(DIALECTS)("bad input on pages and APIs (%s)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("a listing cursor this server never issued answers 400 with what to do, page and page data", async () => {
    for (const section of SECTIONS) {
      for (const cursor of ["4612", "%7B%7D", "%2500", "eyJ4IjoxfQ"]) {
        const page = await fetch(`${server.url}${section}?cursor=${cursor}`);
        expect(page.status, `${section} ${cursor}`).toBe(400);
        expect(await page.text()).toContain("This page link is not valid (cursor is malformed)");
        const data = await fetch(`${server.url}${section}.data?cursor=${cursor}`);
        expect(data.status, `${section}.data ${cursor}`).toBe(400);
      }
    }
    // A real cursor still pages.
    const first = await fetch(`${server.url}/ai-education`);
    expect(first.status).toBe(200);
  });

  it("the NUL character answers 400 in a path, never a server error", async () => {
    for (const path of ["/content/a%00b", "/resources/x%00", "/collection/%00", "/api/content/a%00b"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(400);
      expect(await res.text()).toMatch(/NUL character/);
    }
  });

  it("the NUL character in a query or a GraphQL variable is a 4xx or a plain answer, never 500", async () => {
    for (const path of [
      "/api/search?q=a%00b",
      "/api/content?category=a%00b",
      "/ai-education?category=x%00",
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBeLessThan(500);
    }
    const res = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query:
          "query ($s: String!) { getContent(id: $s) { id } listContentBySlug(slug: $s) { items { id } } }",
        variables: { s: "a\u0000b" },
      }),
    });
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
    for (const error of body.errors ?? []) expect(error.extensions?.code).not.toBe("INTERNAL_SERVER_ERROR");
  });
});
