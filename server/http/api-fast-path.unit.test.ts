import { describe, expect, it } from "vitest";
import { graphqlCacheable, graphqlCacheKey, isContentRead, visitorHeaders } from "./api-fast-path.ts";

describe("visitors' API fast path rules", () => {
  const headers = (values: Record<string, string | undefined>) => (name: string) => values[name];

  it("takes only requests with no credential header at all", () => {
    expect(visitorHeaders(headers({}))).toBe(true);
    expect(visitorHeaders(headers({ cookie: "theme=dark" }))).toBe(true);
    expect(visitorHeaders(headers({ cookie: "__Secure-lumen.session_token=abc" }))).toBe(false);
    expect(visitorHeaders(headers({ cookie: "lumen.session_token=abc; theme=dark" }))).toBe(false);
    expect(visitorHeaders(headers({ authorization: "Bearer x" }))).toBe(false);
    expect(visitorHeaders(headers({ authorization: "" }))).toBe(false);
    expect(visitorHeaders(headers({ "x-api-key": "" }))).toBe(false);
    expect(visitorHeaders(headers({ "x-api-key": "lh_1" }))).toBe(false);
  });

  it("stores the list and single-item reads, never the body link or other routes", () => {
    for (const target of [
      "/api/content",
      "/api/content?limit=15",
      "/api/content/some-slug",
      "/api/content/x?y=1",
    ]) {
      expect(isContentRead(target), target).toBe(true);
    }
    for (const target of [
      "/api/content/",
      "/api/content/id/body?exp=1&cred=v&sig=x",
      "/api/contents",
      "/api/content-x",
      "/api/search?q=x",
      "/api/content//x",
    ]) {
      expect(isContentRead(target), target).toBe(false);
    }
  });

  it("looks up only small JSON GraphQL bodies, keyed by Accept and the exact bytes", () => {
    expect(graphqlCacheable("application/json", 100)).toBe(true);
    expect(graphqlCacheable("application/json; charset=utf-8", 8192)).toBe(true);
    expect(graphqlCacheable("application/json", 8193)).toBe(false);
    expect(graphqlCacheable("application/json", 0)).toBe(false);
    expect(graphqlCacheable("application/graphql", 100)).toBe(false);
    expect(graphqlCacheable("multipart/form-data; boundary=x", 100)).toBe(false);
    expect(graphqlCacheable(undefined, 100)).toBe(false);
    const body = new TextEncoder().encode('{"query":"{ apiVersion }"}');
    const spaced = new TextEncoder().encode('{"query":"{ apiVersion }"} ');
    expect(graphqlCacheKey(undefined, body)).toBe(graphqlCacheKey("", body));
    expect(graphqlCacheKey(undefined, body)).not.toBe(graphqlCacheKey(undefined, spaced));
    expect(graphqlCacheKey("application/graphql-response+json", body)).not.toBe(
      graphqlCacheKey("application/json", body),
    );
  });
});
