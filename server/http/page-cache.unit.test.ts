import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { answerFromCache, createPageCache, inlineScriptHashes } from "./page-cache.ts";
import { cachedPageResponder } from "./page-fast-path.ts";

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
  it("compresses a page once when many renders of it are stored at the same time", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    const big = "<p>visitor page</p>".repeat(200);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => cache.put("/busy", html(big), cache.generation, "n1")),
    );
    expect(results.filter((r) => r.stored)).toHaveLength(1);
    for (const r of results) {
      // Every caller still gets its own render to answer with.
      expect(new TextDecoder().decode(r.body)).toContain("visitor page");
      if (!r.stored) expect(r.page).toBeNull();
    }
    expect(cache.get("/busy")?.variants.br.body.byteLength).toBeGreaterThan(0);
    // Once stored, the next render stores again (a refresh), and another key is independent.
    expect((await cache.put("/busy", html(big), cache.generation, "n1")).stored).toBe(true);
    expect((await cache.put("/other", html(big), cache.generation, "n1")).stored).toBe(true);
  });

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

  it("keeps the pages' bytes together within maxTotalBytes, dropping the oldest, and reports them", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 100, maxTotalBytes: 1000 });
    const size = (await html("x".repeat(100)).arrayBuffer()).byteLength; // ~300 bytes a page
    for (let i = 0; i < 10; i++) await cache.put(`/${i}`, html("x".repeat(100)), cache.generation, "n1");
    const stats = cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(1000);
    expect(stats.entries).toBe(Math.floor(1000 / size));
    expect(stats.bytes).toBe(stats.entries * size);
    expect(stats).toMatchObject({ maxEntries: 100, maxBytes: 1000 });
    expect(cache.get("/0")).toBeNull();
    expect(cache.get("/9")).not.toBeNull();
    cache.invalidate();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
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

/** A flat header list as a lower-cased record. */
const record = (head: string[]) => {
  const out: Record<string, string> = {};
  for (let i = 0; i < head.length; i += 2) out[head[i]!.toLowerCase()] = head[i + 1]!;
  return out;
};

const replayHeaders = (sources: string[], frameSelf: boolean) => ({
  "Content-Security-Policy": `script-src 'self' ${sources.join(" ")}`,
  "X-Frame-Options": frameSelf ? "SAMEORIGIN" : "DENY",
  "X-Content-Type-Options": "nosniff",
});

const bigPage = () => html(`<main>${"<p>A paragraph of a long article.</p>".repeat(200)}</main>`);

describe("stored answers", () => {
  it("keep every coding with its final headers: replayed security headers, ETag, Vary, length", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10, replayHeaders });
    const { page } = await cache.put("/long", bigPage(), cache.generation, "n1");
    const identity = record(page!.variants.identity.head);
    expect(identity["content-security-policy"]).toBe(`script-src 'self' ${page!.scriptHashes.join(" ")}`);
    // The page's own header wins over the replayed default.
    expect(identity["x-frame-options"]).toBe("DENY");
    expect(identity["x-content-type-options"]).toBe("nosniff");
    expect(identity.etag).toBe(page!.etag);
    expect(identity.vary).toBe("Accept-Encoding");
    expect(identity["x-cache"]).toBe("hit");
    expect(identity["content-encoding"]).toBeUndefined();
    expect(identity["content-length"]).toBe(String(page!.body.byteLength));

    const br = page!.variants.br;
    const brHeaders = record(br.head);
    expect(brHeaders["content-encoding"]).toBe("br");
    expect(brHeaders.etag).toBe(`W/${page!.etag}`);
    expect(brHeaders["content-length"]).toBe(String(br.body.byteLength));
    expect(Buffer.from(zlib.brotliDecompressSync(br.body)).equals(Buffer.from(page!.body))).toBe(true);
    const gzip = page!.variants.gzip;
    expect(record(gzip.head)["content-encoding"]).toBe("gzip");
    expect(Buffer.from(zlib.gunzipSync(gzip.body)).equals(Buffer.from(page!.body))).toBe(true);
  });

  it("a tiny page is kept once, unencoded, for every client", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10, replayHeaders });
    const { page } = await cache.put("/tiny", html("t"), cache.generation, "n1");
    expect(page!.variants.br).toBe(page!.variants.identity);
    expect(record(page!.variants.gzip.head)["content-encoding"]).toBeUndefined();
  });

  it("answer per Accept-Encoding and If-None-Match: 304 without body or entity headers, HEAD without body", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10, replayHeaders });
    const { page } = await cache.put("/long", bigPage(), cache.generation, "n1");
    expect(answerFromCache(page!, "gzip, br", undefined, false).body).toBe(page!.variants.br.body);
    expect(answerFromCache(page!, "br;q=0, gzip", undefined, false).body).toBe(page!.variants.gzip.body);
    expect(answerFromCache(page!, undefined, undefined, false).body).toBe(page!.body);
    const head = answerFromCache(page!, "br", undefined, true);
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(record(head.head)["content-length"]).toBe(String(page!.variants.br.body.byteLength));
    const notModified = answerFromCache(page!, "br", `"x", W/${page!.etag}`, false);
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeNull();
    const headers = record(notModified.head);
    expect(headers.etag).toBe(`W/${page!.etag}`);
    expect(headers.vary).toBe("Accept-Encoding");
    expect(headers["content-length"]).toBeUndefined();
    expect(headers["content-encoding"]).toBeUndefined();
    expect(headers["content-type"]).toBeUndefined();
    expect(answerFromCache(page!, "br", '"other"', false).status).toBe(200);
  });
});

describe("the byte budget", () => {
  it("counts every coding and drops the least recently used pages to stay under it", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10, replayHeaders });
    const { page } = await cache.put("/1", bigPage(), cache.generation, "n1");
    const one =
      page!.body.byteLength + page!.variants.br.body.byteLength + page!.variants.gzip.body.byteLength;
    expect(cache.bytes).toBe(one);
    const small = createPageCache({
      ttlMs: 1000,
      maxEntries: 10,
      maxTotalBytes: one * 2 + 10,
      replayHeaders,
    });
    for (const key of ["/1", "/2", "/3"]) await small.put(key, bigPage(), small.generation, "n1");
    expect(small.size).toBe(2);
    expect(small.get("/1")).toBeNull();
    expect(small.bytes).toBe(one * 2);
    await small.put("/3", bigPage(), small.generation, "n1"); // replacing a page does not count it twice
    expect(small.bytes).toBe(one * 2);
    small.invalidate();
    expect(small.bytes).toBe(0);
  });
});

describe("the node:http fast path", () => {
  const fakeRequest = (method: string, url: string, headers: Record<string, string> = {}) =>
    ({ method, url, headers }) as unknown as IncomingMessage;
  const fakeResponse = () => {
    const sent: { status?: number; head?: string[]; body?: unknown; ended: boolean } = { ended: false };
    const res = {
      writeHead(status: number, head: string[]) {
        sent.status = status;
        sent.head = head;
        return res;
      },
      end(body?: unknown) {
        sent.body = body;
        sent.ended = true;
        return res;
      },
    };
    return { res: res as unknown as ServerResponse, sent };
  };

  it("answers a visitor's GET or HEAD from the cache and counts it; leaves everything else to the app", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10, replayHeaders });
    await cache.put("/long?x=1", bigPage(), cache.generation, "n1");
    let counted = 0;
    const respond = cachedPageResponder(cache, () => {
      counted += 1;
    });

    const hit = fakeResponse();
    expect(respond(fakeRequest("GET", "/long?x=1", { "accept-encoding": "br" }), hit.res)).toBe(true);
    expect(hit.sent.status).toBe(200);
    expect(record(hit.sent.head!)["content-encoding"]).toBe("br");
    expect(hit.sent.ended).toBe(true);
    const head = fakeResponse();
    expect(respond(fakeRequest("HEAD", "/long?x=1"), head.res)).toBe(true);
    expect(head.sent.body).toBeUndefined();
    expect(counted).toBe(2);

    const refused: Array<[string, string, Record<string, string>]> = [
      ["GET", "/long?x=1", { cookie: "theme=dark; lumen.session_token=abc" }],
      ["GET", "/long?x=1", { authorization: "Bearer t" }],
      ["GET", "/long?x=1", { "x-api-key": "k" }],
      ["POST", "/long?x=1", {}],
      ["GET", "/long.data?x=1", {}],
      ["GET", "http://example.test/long?x=1", {}],
      ["GET", "/long?x=2", {}],
      ["GET", "/long", {}],
    ];
    for (const [method, url, headers] of refused) {
      const other = fakeResponse();
      expect(respond(fakeRequest(method, url, headers), other.res), `${method} ${url}`).toBe(false);
      expect(other.sent.ended).toBe(false);
    }
    expect(counted).toBe(2);
    // A miss here is left for the app's own lookup to count.
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 0 });
  });
});
