import { describe, expect, it } from "vitest";
import { createGitHubClient } from "./github-client.ts";

/** A GitHub double: every path answers a JSON body of `size` characters with an ETag; 304 when it matches. */
function fakeGitHub(size: number) {
  const calls: Array<{ path: string; ifNoneMatch: string | null }> = [];
  const fetch = async (input: URL | RequestInfo, init?: RequestInit) => {
    const url = new URL(String(input));
    const ifNoneMatch = new Headers(init?.headers).get("if-none-match");
    calls.push({ path: url.pathname, ifNoneMatch });
    const etag = `"${url.pathname}"`;
    if (ifNoneMatch === etag) return new Response(null, { status: 304 });
    return new Response(JSON.stringify({ path: url.pathname, text: "x".repeat(size) }), {
      status: 200,
      headers: { "content-type": "application/json", etag },
    });
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

describe("GitHub client's kept responses", () => {
  it("keeps responses within their byte bound and reuses a kept body on 304", async () => {
    const github = fakeGitHub(1000); // ~2 KB kept per response
    const client = createGitHubClient({ fetch: github.fetch, maxCachedBytes: 10_000 });
    for (let i = 0; i < 10; i++) await client.get(`/repos/o/r${i}`);
    const stats = client.cacheStats!();
    expect(stats.bytes).toBeLessThanOrEqual(10_000);
    expect(stats.entries).toBeGreaterThan(0);
    expect(stats.entries).toBeLessThan(10);

    const again = await client.get<{ path: string }>("/repos/o/r9");
    expect(again.notModified).toBe(true);
    expect(again.data.path).toBe("/repos/o/r9");
    // The oldest was let go: asked for again, it is fetched without If-None-Match.
    await client.get("/repos/o/r0");
    expect(github.calls.at(-1)).toEqual({ path: "/repos/o/r0", ifNoneMatch: null });
  });
});
