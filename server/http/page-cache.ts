import { createHash } from "node:crypto";
import {
  bodyEtag,
  type ContentCoding,
  compressBody,
  etagFor,
  ifNoneMatchMatches,
  MIN_COMPRESS_BYTES,
  negotiateEncoding,
} from "./compression.ts";

/**
 * The anonymous page cache: fully rendered HTML for visitors (no session cookie), keyed by
 * path and query, kept for a short time. A cached page cannot reuse the nonce it was rendered
 * with, so its Content-Security-Policy lists the SHA-256 hash of each inline script the app
 * emitted instead: only scripts carrying that render's nonce (the theme script, React Router's
 * hydration scripts). Any other inline script in the stored HTML is not trusted.
 *
 * Everything a hit sends is computed once, when the page is stored: the body in each coding
 * (identity, brotli, gzip), its ETag, and the complete header list of each answer (the page's
 * headers, the security headers with the hash-based CSP, ETag, Vary, Content-Encoding,
 * Content-Length, `X-Cache: hit`) in the flat form `node:http`'s `writeHead` takes. A hit is a
 * map lookup and one write (`server/http/page-fast-path.ts`).
 */
export interface PageVariant {
  /** Header names and values, alternating, for a 200 (or a HEAD). */
  head: string[];
  /** The same for a 304 (no Content-Type, Content-Length or Content-Encoding). */
  notModified: string[];
  body: Uint8Array<ArrayBuffer>;
}

export interface CachedPage {
  status: number;
  /** The page's own headers (per-response ones and the coding's left out). */
  headers: Array<[string, string]>;
  body: Uint8Array<ArrayBuffer>;
  /** Strong ETag of the identity body; the compressed variants carry its weak form. */
  etag: string;
  /** CSP `'sha256-…'` sources, one per inline script the app emitted on the page. */
  scriptHashes: string[];
  variants: Record<ContentCoding, PageVariant>;
  expiresAt: number;
  /** GraphQL cost units the app charged when it answered (the API cache charges them on a hit). */
  graphqlCost?: number;
}

export interface PageCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Largest page kept (bytes). */
  maxBytes?: number;
  /** Bytes kept in all (every coding of every page); the least recently used go first. */
  maxTotalBytes?: number;
  now?: () => number;
  /**
   * The security headers a replayed page carries (the same as a rendered one, the CSP allowing
   * `scriptSources` instead of a nonce). `frameSelf`: the page asked to be framed by our pages.
   */
  replayHeaders?: (scriptSources: string[], frameSelf: boolean) => Record<string, string>;
  /** Which Content-Types are stored (HTML by default; the API cache stores JSON). */
  contentType?: RegExp;
}

/** One answer from a cached page: status, flat header list and body (null for 304 or HEAD). */
export interface PageAnswer {
  status: number;
  head: string[];
  body: Uint8Array<ArrayBuffer> | null;
}

/** The answer for a request with these `Accept-Encoding` and `If-None-Match` values. */
export function answerFromCache(
  page: CachedPage,
  acceptEncoding: string | null | undefined,
  ifNoneMatch: string | null | undefined,
  head: boolean,
): PageAnswer {
  const variant = page.variants[negotiateEncoding(acceptEncoding)];
  if (ifNoneMatchMatches(ifNoneMatch, page.etag))
    return { status: 304, head: variant.notModified, body: null };
  return { status: page.status, head: variant.head, body: head ? null : variant.body };
}

/** A flat header list as a Headers object, leaving out `omit` (lower-case names). */
export function headersOf(head: string[], omit: ReadonlySet<string> = new Set()): Headers {
  const headers = new Headers();
  for (let i = 0; i < head.length; i += 2) {
    if (!omit.has(head[i]!.toLowerCase())) headers.append(head[i]!, head[i + 1]!);
  }
  return headers;
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/gi;
const NONCE_ATTRIBUTE = /(?:^|\s)nonce=(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;

/**
 * The CSP hash sources of the inline scripts in an HTML document that carry `nonce` (the
 * render's nonce: the scripts the app emitted). Scripts without it are left out; an empty
 * nonce trusts nothing.
 */
export function inlineScriptHashes(html: string, nonce: string): string[] {
  const hashes = new Set<string>();
  if (!nonce) return [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attr = NONCE_ATTRIBUTE.exec(match[1] ?? "");
    const value = attr ? (attr[1] ?? attr[2] ?? attr[3]) : undefined;
    if (value !== nonce) continue;
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(match[2] ?? "", "utf8")
        .digest("base64")}'`,
    );
  }
  return [...hashes];
}

/** Headers that belong to one response only, or that the cache sets itself; never replayed. */
const PER_RESPONSE = new Set([
  "set-cookie",
  "content-security-policy",
  "date",
  "content-length",
  "content-encoding",
  "etag",
  "vary",
  "x-cache",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "retry-after",
  "x-request-id",
]);

/** The flat header lists of one coding of a stored page. */
function variantOf(
  base: Array<[string, string]>,
  identityEtag: string,
  coding: ContentCoding,
  body: Uint8Array<ArrayBuffer>,
): PageVariant {
  const common: string[] = [];
  for (const [name, value] of base) common.push(name, value);
  common.push("ETag", etagFor(identityEtag, coding), "X-Cache", "hit");
  const notModified: string[] = [];
  for (let i = 0; i < common.length; i += 2) {
    if (common[i]!.toLowerCase() !== "content-type") notModified.push(common[i]!, common[i + 1]!);
  }
  const head = [...common];
  if (coding !== "identity") head.push("Content-Encoding", coding);
  head.push("Content-Length", String(body.byteLength));
  return { head, notModified, body };
}

export function createPageCache(options: PageCacheOptions) {
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? 512 * 1024;
  const replayHeaders = options.replayHeaders ?? ((): Record<string, string> => ({}));
  const maxTotalBytes = options.maxTotalBytes ?? 48 * 1024 * 1024;
  const contentType = options.contentType ?? /^text\/html/;
  const entries = new Map<string, CachedPage>();
  let totalBytes = 0;
  const sizeOf = (page: CachedPage) => {
    const { identity, br, gzip } = page.variants;
    return (
      identity.body.byteLength +
      (br === identity ? 0 : br.body.byteLength) +
      (gzip === identity ? 0 : gzip.body.byteLength)
    );
  };
  const remove = (key: string) => {
    const page = entries.get(key);
    if (!page) return;
    entries.delete(key);
    totalBytes -= sizeOf(page);
  };
  /**
   * Keys whose page is being compressed and stored. When many visitors miss the same page at once
   * (it expired under load), one render stores it; the others answer with their own render
   * instead of compressing the same page again (CPU, and several MB of encoder memory each).
   */
  const storing = new Set<string>();
  let generation = 0;
  let hits = 0;
  let misses = 0;
  return {
    /** Lookups answered from the cache and not, since the process started (/super-admin/infrastructure). */
    stats() {
      return {
        hits,
        misses,
        entries: entries.size,
        bytes: totalBytes,
        maxEntries: options.maxEntries,
        maxBytes: maxTotalBytes,
      };
    },
    /** Goes up on every invalidation; a page rendered across one is not stored. */
    get generation(): number {
      return generation;
    },
    /** Whether a live page is stored under `key` (counts nothing). */
    has(key: string): boolean {
      const page = entries.get(key);
      return page !== undefined && page.expiresAt > now();
    },
    /** The live page stored under `key`; `countMiss: false` when a later lookup will count it. */
    get(key: string, countMiss = true): CachedPage | null {
      const hit = entries.get(key);
      if (!hit) {
        if (countMiss) misses += 1;
        return null;
      }
      if (hit.expiresAt <= now()) {
        remove(key);
        if (countMiss) misses += 1;
        return null;
      }
      hits += 1;
      // Refresh its place for LRU eviction.
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    },
    /**
     * Stores a rendered 200 HTML (or `contentType`) response with its compressed variants and final headers;
     * `page` is null when it is not cacheable, or when the cache was invalidated since
     * `renderedAt` (the generation read before rendering): that page may be stale.
     * `nonce` is the render's CSP nonce: only inline scripts carrying it are hashed for replay.
     */
    async put(
      key: string,
      response: Response,
      renderedAt: number,
      nonce: string,
      extra: { graphqlCost?: number } = {},
    ): Promise<{ stored: boolean; body: Uint8Array<ArrayBuffer>; page: CachedPage | null }> {
      const body = new Uint8Array(await response.arrayBuffer());
      const type = response.headers.get("content-type") ?? "";
      const cacheable =
        response.status === 200 &&
        contentType.test(type) &&
        !response.headers.has("set-cookie") &&
        !response.headers.has("content-encoding") &&
        body.byteLength <= maxBytes &&
        renderedAt === generation &&
        !storing.has(key);
      if (!cacheable) return { stored: false, body, page: null };
      storing.add(key);
      try {
        return await store(key, response, body, renderedAt, nonce, extra);
      } finally {
        storing.delete(key);
      }
    },
    /** Drop everything (after a publish or any content change). */
    invalidate(): void {
      generation += 1;
      entries.clear();
      totalBytes = 0;
    },
    get size(): number {
      return entries.size;
    },
    /** Bytes held by the stored pages, every coding counted. */
    get bytes(): number {
      return totalBytes;
    },
  };

  /** `put`'s work once a page is found cacheable: its variants, then its place in the cache. */
  async function store(
    key: string,
    response: Response,
    body: Uint8Array<ArrayBuffer>,
    renderedAt: number,
    nonce: string,
    extra: { graphqlCost?: number },
  ): Promise<{ stored: boolean; body: Uint8Array<ArrayBuffer>; page: CachedPage | null }> {
    const html = new TextDecoder().decode(body);
    const headers: Array<[string, string]> = [];
    response.headers.forEach((value, name) => {
      if (!PER_RESPONSE.has(name.toLowerCase())) headers.push([name, value]);
    });
    const scriptHashes = inlineScriptHashes(html, nonce);
    // Everything a rendered page gets from the app's middleware, for the replayed one.
    const frameSelf = response.headers.get("x-frame-options") === "SAMEORIGIN";
    const base: Array<[string, string]> = [...headers];
    const present = new Set(headers.map(([name]) => name.toLowerCase()));
    for (const [name, value] of Object.entries(replayHeaders(scriptHashes, frameSelf))) {
      if (!present.has(name.toLowerCase())) base.push([name, value]);
    }
    const vary = response.headers.get("vary");
    base.push(["Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding"]);
    const etag = bodyEtag(body);
    const compress = body.byteLength >= MIN_COMPRESS_BYTES;
    const [br, gzip] = compress
      ? await Promise.all([compressBody(body, "br", "stored"), compressBody(body, "gzip", "stored")])
      : [body, body];
    // Compression took a moment: a content change meanwhile makes this render stale.
    if (renderedAt !== generation) return { stored: false, body, page: null };
    const identity = variantOf(base, etag, "identity", body);
    const page: CachedPage = {
      status: response.status,
      headers,
      body,
      etag,
      scriptHashes,
      variants: {
        identity,
        br: compress ? variantOf(base, etag, "br", br) : identity,
        gzip: compress ? variantOf(base, etag, "gzip", gzip) : identity,
      },
      expiresAt: now() + options.ttlMs,
      ...(extra.graphqlCost !== undefined ? { graphqlCost: extra.graphqlCost } : {}),
    };
    remove(key);
    const size = sizeOf(page);
    while (entries.size > 0 && (entries.size >= options.maxEntries || totalBytes + size > maxTotalBytes)) {
      remove(entries.keys().next().value!);
    }
    entries.set(key, page);
    totalBytes += size;
    return { stored: true, body, page };
  }
}

export type PageCache = ReturnType<typeof createPageCache>;
