import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  bodyEtag,
  compressBody,
  compressionQueue,
  etagFor,
  ifNoneMatchMatches,
  isCompressible,
  MAX_PARALLEL_COMPRESSIONS,
  negotiateEncoding,
  parseAcceptEncoding,
} from "./compression.ts";

describe("Accept-Encoding", () => {
  it("reads codings with their q-values, lower-cased, the first mention winning", () => {
    expect([...parseAcceptEncoding("gzip;q=0.8, BR, identity;q=0, x-gzip;q=1")]).toEqual([
      ["gzip", 0.8],
      ["br", 1],
      ["identity", 0],
    ]);
    expect(parseAcceptEncoding(" br ; q = 0.5 ").get("br")).toBe(0.5);
    // A weight that is not a number accepts nothing; one above 1 counts as 1.
    expect(parseAcceptEncoding("br;q=abc").get("br")).toBe(0);
    expect(parseAcceptEncoding("br;q=").get("br")).toBe(0);
    expect(parseAcceptEncoding("gzip;q=7").get("gzip")).toBe(1);
  });

  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["br", "br"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=1.0, gzip;q=0.8", "br"],
    ["br;q=0, gzip;q=0", "identity"],
    ["br;q=0", "identity"],
    ["deflate", "identity"],
    ["identity", "identity"],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["*;q=0", "identity"],
    ["gzip;q=0.2, *;q=0.1", "gzip"],
  ])("%j → %s", (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });
});

describe("compressible types", () => {
  it.each([
    "text/html; charset=utf-8",
    "application/json",
    "application/json; charset=utf-8",
    "application/graphql-response+json",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/rss+xml",
    "application/xml",
    "image/svg+xml",
    "text/plain",
    "text/x-script",
  ])("%s is compressed", (type) => expect(isCompressible(type)).toBe(true));

  it.each([
    "video/mp4",
    "image/png",
    "application/octet-stream",
    "application/zip",
    "text/event-stream",
    "",
    null,
  ])("%s is not", (type) => expect(isCompressible(type)).toBe(false));
});

describe("ETags", () => {
  it("are strong for the identity body and weak for an encoded one", () => {
    const tag = bodyEtag(new TextEncoder().encode("hello"));
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(bodyEtag(new TextEncoder().encode("hello"))).toBe(tag);
    expect(bodyEtag(new TextEncoder().encode("hello!"))).not.toBe(tag);
    expect(etagFor(tag, "identity")).toBe(tag);
    expect(etagFor(tag, "br")).toBe(`W/${tag}`);
    expect(etagFor(`W/${tag}`, "gzip")).toBe(`W/${tag}`);
  });

  it("If-None-Match matches by weak comparison, in a list, or *", () => {
    expect(ifNoneMatchMatches('"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"a"', 'W/"a"')).toBe(true);
    expect(ifNoneMatchMatches('"x", W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches("*", '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"b"', '"a"')).toBe(false);
    expect(ifNoneMatchMatches('"a', '"a"')).toBe(false);
    expect(ifNoneMatchMatches(undefined, '"a"')).toBe(false);
    expect(ifNoneMatchMatches("", '"a"')).toBe(false);
  });
});

describe("compressBody", () => {
  it("round-trips small and large bodies in both codings", async () => {
    for (const size of [2_000, 200_000]) {
      const body = new TextEncoder().encode("<p>lumen</p>".repeat(size / 12));
      const br = await compressBody(body, "br", "stored");
      const gz = await compressBody(body, "gzip");
      expect(br.byteLength).toBeLessThan(body.byteLength);
      expect(Buffer.from(zlib.brotliDecompressSync(br)).equals(Buffer.from(body))).toBe(true);
      expect(Buffer.from(zlib.gunzipSync(gz)).equals(Buffer.from(body))).toBe(true);
    }
  });

  it("runs at most MAX_PARALLEL_COMPRESSIONS large bodies at once and finishes every one", async () => {
    const bodies = Array.from({ length: 8 }, (_, i) =>
      new TextEncoder().encode(`<p>page ${i}</p>`.repeat(10_000)),
    );
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, compressionQueue().running);
    }, 0);
    const pending = bodies.map((body, i) => compressBody(body, i % 2 ? "gzip" : "br", "stored"));
    most = Math.max(most, compressionQueue().running);
    expect(compressionQueue().waiting).toBe(bodies.length - MAX_PARALLEL_COMPRESSIONS);
    const out = await Promise.all(pending);
    clearInterval(watch);
    expect(most).toBe(MAX_PARALLEL_COMPRESSIONS);
    expect(compressionQueue()).toEqual({ running: 0, waiting: 0 });
    out.forEach((encoded, i) => {
      const plain = i % 2 ? zlib.gunzipSync(encoded) : zlib.brotliDecompressSync(encoded);
      expect(Buffer.from(plain).equals(Buffer.from(bodies[i]!))).toBe(true);
    });
  });
});
