/**
 * The API reference on the production server (decision 034): the OpenAPI document and its page
 * are public and cacheable, describe routes and never data, hold the app's CSP; the GraphQL SDL
 * is not served in production (introspection is off there), and a documented bad query is
 * refused by the running API as documented.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { openApiJson } from "../../server/http/openapi.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

describe.each(DIALECTS)("API reference (%s)", (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("serves /api/openapi.json to a visitor, as committed and built from the source", async () => {
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("etag")).toBeTruthy();
    const text = await res.text();
    expect(text).toBe(openApiJson());
    const doc = JSON.parse(text);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/content"].get.parameters.map((p: { name: string }) => p.name)).toContain("limit");
  });

  it("answers the same document to a signed-in owner (routes, never data)", async () => {
    const cookie = await signIn(server.url, "owner@demo.local", DEMO_PASSWORD);
    const res = await fetch(`${server.url}/api/openapi.json`, { headers: { cookie } });
    expect(await res.text()).toBe(openApiJson());
    expect(openApiJson()).not.toContain("@demo.local");
  });

  it("renders /api/docs under the app's CSP with no outside script", async () => {
    const res = await fetch(`${server.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
    const html = await res.text();
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain("/api/search");
  });

  it("serves the GraphQL SDL in production to a signed-in reader, never to an anonymous caller", async () => {
    const res = await fetch(`${server.url}/graphql/schema.graphql`);
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain("type Query");
    const cookie = await signIn(server.url, "free@demo.local", DEMO_PASSWORD);
    const signedIn = await fetch(`${server.url}/graphql/schema.graphql`, { headers: { cookie } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toContain("type Query");
  });

  it("refuses a query the document refuses: GET /api/content?limit=0 → 400 naming limit", async () => {
    const doc = JSON.parse(openApiJson());
    const limit = doc.paths["/api/content"].get.parameters.find((p: { name: string }) => p.name === "limit");
    expect(limit.schema.minimum).toBe(1);
    const res = await fetch(`${server.url}/api/content?limit=0`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("BAD_USER_INPUT");
    expect(Object.keys(body.error.field)).toEqual(["limit"]);
  });
});
