import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createPageCache, inlineScriptHashes } from "./page-cache.ts";

const html = (body: string) =>
  new Response(
    `<!DOCTYPE html><html><head><script nonce="n1">window.a=1</script></head><body>${body}<script src="/x.js"></script><script type="module" nonce="n1">import("/e.js")</script></body></html>`,
    {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "x-frame-options": "DENY",
        "content-security-policy": "script-src 'nonce-n1'",
      },
    },
  );

const sha = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;

describe("inlineScriptHashes", () => {
  it("hashes each inline script's text and ignores scripts with src", () => {
    const hashes = inlineScriptHashes(
      '<script nonce="a">one()</script><script src="/b.js"></script><script>two()</script>',
    );
    expect(hashes).toEqual([sha("one()"), sha("two()")]);
  });
});

describe("page cache", () => {
  it("stores a 200 HTML page with its script hashes and without per-response headers", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    const { stored, body } = await cache.put("/a", html("A"));
    expect(stored).toBe(true);
    expect(new TextDecoder().decode(body)).toContain("A");
    const hit = cache.get("/a")!;
    expect(hit.scriptHashes).toEqual([sha("window.a=1"), sha('import("/e.js")')]);
    const names = hit.headers.map(([n]) => n);
    expect(names).toContain("x-frame-options");
    expect(names).not.toContain("content-security-policy");
  });

  it("refuses non-200, non-HTML and cookie-setting responses", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    expect(
      (await cache.put("/404", new Response("x", { status: 404, headers: { "content-type": "text/html" } })))
        .stored,
    ).toBe(false);
    expect(
      (await cache.put("/json", new Response("{}", { headers: { "content-type": "application/json" } })))
        .stored,
    ).toBe(false);
    const withCookie = new Response("<p>", { headers: { "content-type": "text/html", "set-cookie": "a=b" } });
    expect((await cache.put("/c", withCookie)).stored).toBe(false);
    expect(cache.size).toBe(0);
  });

  it("expires entries after the TTL and evicts the least recently used beyond the limit", async () => {
    let t = 0;
    const cache = createPageCache({ ttlMs: 100, maxEntries: 2, now: () => t });
    await cache.put("/1", html("1"));
    await cache.put("/2", html("2"));
    cache.get("/1");
    await cache.put("/3", html("3"));
    expect(cache.get("/2")).toBeNull();
    expect(cache.get("/1")).not.toBeNull();
    t = 150;
    expect(cache.get("/1")).toBeNull();
  });

  it("invalidate drops everything", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    await cache.put("/a", html("A"));
    cache.invalidate();
    expect(cache.get("/a")).toBeNull();
  });

  it("does not store a page rendered across an invalidation (it may show the old content)", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    const before = cache.generation;
    cache.invalidate();
    expect((await cache.put("/a", html("old"), before)).stored).toBe(false);
    expect(cache.get("/a")).toBeNull();
    expect((await cache.put("/a", html("new"), cache.generation)).stored).toBe(true);
    cache.invalidate();
    expect(cache.get("/a")).toBeNull();
  });
});
