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
  it("hashes the inline scripts carrying the render's nonce and ignores scripts with src", () => {
    const hashes = inlineScriptHashes(
      '<script nonce="a">one()</script><script src="/b.js" nonce="a"></script><script type="module" nonce=\'a\'>two()</script>',
      "a",
    );
    expect(hashes).toEqual([sha("one()"), sha("two()")]);
  });

  it("does not trust an inline script the app did not emit (no nonce, another nonce, or an empty one)", () => {
    const page =
      '<script nonce="n1">app()</script><p><script>alert(1)</script></p><script nonce="guess">steal()</script><script data-nonce="n1">x()</script><script nonce="n1x">y()</script>';
    expect(inlineScriptHashes(page, "n1")).toEqual([sha("app()")]);
    expect(inlineScriptHashes(page, "")).toEqual([]);
  });
});

describe("page cache", () => {
  it("stores a 200 HTML page with its own scripts' hashes and without per-response headers", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    const { stored, body } = await cache.put(
      "/a",
      html("A<script>window.injected=1</script>"),
      cache.generation,
      "n1",
    );
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
      (
        await cache.put(
          "/404",
          new Response("x", { status: 404, headers: { "content-type": "text/html" } }),
          cache.generation,
          "n1",
        )
      ).stored,
    ).toBe(false);
    expect(
      (
        await cache.put(
          "/json",
          new Response("{}", { headers: { "content-type": "application/json" } }),
          cache.generation,
          "n1",
        )
      ).stored,
    ).toBe(false);
    const withCookie = new Response("<p>", { headers: { "content-type": "text/html", "set-cookie": "a=b" } });
    expect((await cache.put("/c", withCookie, cache.generation, "n1")).stored).toBe(false);
    expect(cache.size).toBe(0);
  });

  it("expires entries after the TTL and evicts the least recently used beyond the limit", async () => {
    let t = 0;
    const cache = createPageCache({ ttlMs: 100, maxEntries: 2, now: () => t });
    await cache.put("/1", html("1"), cache.generation, "n1");
    await cache.put("/2", html("2"), cache.generation, "n1");
    cache.get("/1");
    await cache.put("/3", html("3"), cache.generation, "n1");
    expect(cache.get("/2")).toBeNull();
    expect(cache.get("/1")).not.toBeNull();
    t = 150;
    expect(cache.get("/1")).toBeNull();
  });

  it("invalidate drops everything", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    await cache.put("/a", html("A"), cache.generation, "n1");
    cache.invalidate();
    expect(cache.get("/a")).toBeNull();
  });

  it("does not store a page rendered across an invalidation (it may show the old content)", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    const before = cache.generation;
    cache.invalidate();
    expect((await cache.put("/a", html("old"), before, "n1")).stored).toBe(false);
    expect(cache.get("/a")).toBeNull();
    expect((await cache.put("/a", html("new"), cache.generation, "n1")).stored).toBe(true);
    cache.invalidate();
    expect(cache.get("/a")).toBeNull();
  });
});
