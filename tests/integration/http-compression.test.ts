/**
 * Content coding, validators and the visitors' page fast path over real HTTP: pages, a JSON API
 * and a static asset in br, gzip and identity per Accept-Encoding (decompressed and compared with
 * the identity body), Vary, ETag/304 and a new ETag after a content edit, a cached page's headers
 * against a rendered one's, and a signed-in request never answered from the visitors' cache.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createContentRepo } from "../../server/modules/content/content.repo.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request over node:http: the body exactly as sent (fetch would decode it). */
function raw(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawAnswer> {
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
    req.end();
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

const varies = (answer: RawAnswer) => /accept-encoding/i.test(String(answer.headers.vary ?? ""));

/** The security headers every page carries (everything but the per-response ones). */
const SECURITY = [
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "cross-origin-opener-policy",
  "permissions-policy",
];

describe.each(DIALECTS)("compression, ETags and the visitors' fast path (%s)", (dialect) => {
  let server: TestServer;
  let readerCookie: string;
  let readerHeaders: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    // The session is bound to the device that signed in (fetch's user agent and language).
    readerCookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    readerHeaders = { cookie: readerCookie, "user-agent": "node", "accept-language": "*" };
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A fresh cache key for a public page (the query is ignored by the page, not by the cache). */
  const freshPage = (path = "/pricing") =>
    `${path}?probe=${Date.now()}${Math.random().toString(36).slice(2)}`;

  it.each([
    ["br", "br"],
    ["gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0", undefined],
    ["identity", undefined],
    ["", undefined],
  ])(
    "a cached page with Accept-Encoding %j comes as %s, decoding to the identity body",
    async (accept, coding) => {
      const path = freshPage();
      const miss = await raw(`${server.url}${path}`, { "accept-encoding": accept });
      expect(miss.headers["x-cache"]).toBe("miss");
      const identity = await raw(`${server.url}${path}`);
      expect(identity.headers["x-cache"]).toBe("hit");
      expect(identity.headers["content-encoding"]).toBeUndefined();
      expect(varies(identity)).toBe(true);
      const hit = await raw(`${server.url}${path}`, { "accept-encoding": accept });
      expect(hit.headers["x-cache"]).toBe("hit");
      for (const answer of [miss, hit]) {
        expect(answer.headers["content-encoding"]).toBe(coding);
        expect(varies(answer)).toBe(true);
        expect(Number(answer.headers["content-length"])).toBe(answer.body.byteLength);
        expect(decoded(answer).equals(identity.body)).toBe(true);
      }
      if (coding) expect(hit.body.byteLength).toBeLessThan(identity.body.byteLength / 2);
    },
  );

  it("a JSON API read comes in br, gzip or identity with Vary, each decoding to the same JSON", async () => {
    const url = `${server.url}/api/content?limit=15`;
    const identity = await raw(url);
    expect(identity.status).toBe(200);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(varies(identity)).toBe(true);
    expect(identity.headers["cache-control"]).toBe("private, no-store");
    for (const coding of ["br", "gzip"]) {
      const answer = await raw(url, { "accept-encoding": coding });
      expect(answer.headers["content-encoding"]).toBe(coding);
      expect(varies(answer)).toBe(true);
      expect(answer.headers["cache-control"]).toBe("private, no-store");
      expect(JSON.parse(decoded(answer).toString("utf8"))).toEqual(
        JSON.parse(identity.body.toString("utf8")),
      );
    }
  });

  it("a small JSON answer and a HEAD go out unencoded", async () => {
    const health = await raw(`${server.url}/api/health`, { "accept-encoding": "br, gzip" });
    expect(health.status).toBe(200);
    expect(health.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(health.body.toString("utf8")).status).toBe("ok");
    const head = await raw(`${server.url}/api/content?limit=15`, { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBeUndefined();
    expect(head.body.byteLength).toBe(0);
  });

  it("a static asset comes precompressed in the accepted coding, keeping its type and immutable caching", async () => {
    const html = (await raw(`${server.url}/`)).body.toString("utf8");
    // The build compresses files of 1 KiB or more: take the first such script the page names.
    const scripts = [...new Set(html.match(/\/assets\/[^"']+\.js/g) ?? [])];
    let asset = "";
    let identity = await raw(`${server.url}${scripts[0]}`);
    for (const candidate of scripts) {
      identity = await raw(`${server.url}${candidate}`);
      if (identity.body.byteLength >= 1024) {
        asset = candidate;
        break;
      }
    }
    expect(asset).not.toBe("");
    expect(identity.status).toBe(200);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    const cases: Array<[string, string | undefined]> = [
      ["br", "br"],
      ["gzip", "gzip"],
      ["gzip;q=0.5, br;q=0", "gzip"],
      ["br;q=0, gzip;q=0", undefined],
    ];
    for (const [accept, coding] of cases) {
      const answer = await raw(`${server.url}${asset}`, { "accept-encoding": accept });
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe(coding);
      expect(answer.headers["content-type"]).toBe(identity.headers["content-type"]);
      expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(varies(answer)).toBe(true);
      expect(decoded(answer).equals(identity.body)).toBe(true);
    }
    // A range request gets the identity bytes it asked for.
    const range = await raw(`${server.url}${asset}`, { "accept-encoding": "br", range: "bytes=0-9" });
    expect(range.status).toBe(206);
    expect(range.headers["content-encoding"]).toBeUndefined();
    expect(range.body.equals(identity.body.subarray(0, 10))).toBe(true);
  });

  it("a cached page and an API read answer a matching If-None-Match with 304, and a new ETag after an edit", async () => {
    const repo = createContentRepo(server.runtime.database.db);
    const item = (await repo.list({ section: "ai-news" }, { limit: 1 })).items[0]!;
    await raw(`${server.url}/ai-news`);
    const page = await raw(`${server.url}/ai-news`);
    expect(page.headers["x-cache"]).toBe("hit");
    const pageTag = page.headers.etag!;
    expect(pageTag).toMatch(/^"[^"]+"$/); // strong for the identity body
    const brPage = await raw(`${server.url}/ai-news`, { "accept-encoding": "br" });
    expect(brPage.headers.etag).toBe(`W/${pageTag}`); // weak for the encoded one
    for (const tag of [pageTag, `W/${pageTag}`]) {
      const notModified = await raw(`${server.url}/ai-news`, {
        "if-none-match": tag,
        "accept-encoding": "br",
      });
      expect(notModified.status).toBe(304);
      expect(notModified.body.byteLength).toBe(0);
      expect(notModified.headers["content-encoding"]).toBeUndefined();
      expect(varies(notModified)).toBe(true);
    }
    expect((await raw(`${server.url}/ai-news`, { "if-none-match": '"other"' })).status).toBe(200);

    const api = `${server.url}/api/content?section=ai-news&limit=5`;
    const read = await raw(api);
    const apiTag = read.headers.etag!;
    expect(apiTag).toMatch(/^"[^"]+"$/);
    const apiBr = await raw(api, { "accept-encoding": "br" });
    expect(apiBr.headers.etag).toBe(`W/${apiTag}`);
    const apiNotModified = await raw(api, { "if-none-match": `W/${apiTag}`, "accept-encoding": "br" });
    expect(apiNotModified.status).toBe(304);
    expect(apiNotModified.body.byteLength).toBe(0);
    expect(apiNotModified.headers["cache-control"]).toBe("private, no-store");

    const title = `Retitled for validators ${Date.now()}`;
    await repo.update(item.id, item.version, { title });
    await server.runtime.contentChanges.check();

    const edited = await raw(`${server.url}/ai-news`, { "if-none-match": pageTag });
    expect(edited.status).toBe(200);
    expect(edited.headers.etag).not.toBe(pageTag);
    expect(edited.body.toString("utf8")).toContain(title);
    const editedHit = await raw(`${server.url}/ai-news`, { "if-none-match": pageTag });
    expect(editedHit.headers["x-cache"]).toBe("hit");
    expect(editedHit.status).toBe(200);

    const apiEdited = await raw(api, { "if-none-match": apiTag });
    expect(apiEdited.status).toBe(200);
    expect(apiEdited.headers.etag).not.toBe(apiTag);
    expect(apiEdited.body.toString("utf8")).toContain(title);
  });

  it("a cache hit carries the same headers as the render it replays (the CSP's scripts by hash)", async () => {
    const path = freshPage("/");
    const miss = await raw(`${server.url}${path}`, { "accept-encoding": "br" });
    const hit = await raw(`${server.url}${path}`, { "accept-encoding": "br" });
    expect([miss.headers["x-cache"], hit.headers["x-cache"]]).toEqual(["miss", "hit"]);
    // The render's own request id is the one header a replayed answer does not carry (decision 030).
    const names = (answer: RawAnswer) =>
      Object.keys(answer.headers)
        .filter((name) => name !== "x-request-id")
        .sort();
    expect(names(hit)).toEqual(names(miss));
    expect(miss.headers["x-request-id"]).toBeTruthy();
    expect(hit.headers["x-request-id"]).toBeUndefined();
    for (const name of [...SECURITY, "content-type", "content-encoding", "vary", "etag", "content-length"]) {
      expect(hit.headers[name], name).toBe(miss.headers[name]);
    }
    const directives = (answer: RawAnswer) =>
      String(answer.headers["content-security-policy"])
        .split(";")
        .map((d) => d.trim())
        .filter((d) => !d.startsWith("script-src"));
    expect(directives(hit)).toEqual(directives(miss));
    expect(String(hit.headers["content-security-policy"])).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
    // A HEAD is answered from the cache too, with the same headers and no body.
    const head = await raw(`${server.url}${path}`, { "accept-encoding": "br" }, "HEAD");
    expect(head.headers["x-cache"]).toBe("hit");
    expect(head.headers["content-length"]).toBe(hit.headers["content-length"]);
    expect(head.body.byteLength).toBe(0);
  });

  it("a request with a session cookie, a bearer token or an API key never gets the visitors' cached bytes", async () => {
    const path = "/pricing";
    await raw(`${server.url}${path}`);
    const cached = await raw(`${server.url}${path}`);
    expect(cached.headers["x-cache"]).toBe("hit");
    const tag = String(cached.headers.etag);
    const callers = [readerHeaders, { authorization: "Bearer not-a-token" }, { "x-api-key": "not-a-key" }];
    for (const credentials of callers) {
      const answer = await raw(`${server.url}${path}`, {
        ...credentials,
        "if-none-match": tag,
        "accept-encoding": "br",
      });
      expect(answer.headers["x-cache"], Object.keys(credentials)[0]).toBeUndefined();
      expect(answer.status).not.toBe(304);
    }
    // The signed-in page is rendered for the reader and compressed as it streams.
    const signedIn = await raw(`${server.url}${path}`, { ...readerHeaders, "accept-encoding": "br" });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers["content-encoding"]).toBe("br");
    expect(signedIn.headers["cache-control"]).toBe("private, no-store");
    const text = decoded(signedIn).toString("utf8");
    expect(text).toContain("pro@demo.local");
    expect(cached.body.toString("utf8")).not.toContain("pro@demo.local");
    // Page data is never served from the visitors' cache either.
    const data = await raw(`${server.url}${path}.data`);
    expect(data.headers["x-cache"]).toBeUndefined();
  });
});
