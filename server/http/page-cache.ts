import { createHash } from "node:crypto";

/**
 * The anonymous page cache: fully rendered HTML for visitors (no session cookie), keyed by
 * path and query, kept for a short time. A cached page cannot reuse the nonce it was rendered
 * with, so its Content-Security-Policy lists the SHA-256 hash of each inline script instead.
 */
export interface CachedPage {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array<ArrayBuffer>;
  /** CSP `'sha256-…'` sources, one per inline script of the page. */
  scriptHashes: string[];
  expiresAt: number;
}

export interface PageCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Largest page kept (bytes). */
  maxBytes?: number;
  now?: () => number;
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The CSP hash sources of every inline script in an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(match[1] ?? "", "utf8")
        .digest("base64")}'`,
    );
  }
  return [...hashes];
}

/** Headers that belong to one response only and are never replayed from the cache. */
const PER_RESPONSE = new Set(["set-cookie", "content-security-policy", "date", "content-length", "x-cache"]);

export function createPageCache(options: PageCacheOptions) {
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? 512 * 1024;
  const entries = new Map<string, CachedPage>();
  let generation = 0;
  return {
    /** Goes up on every invalidation; a page rendered across one is not stored. */
    get generation(): number {
      return generation;
    },
    get(key: string): CachedPage | null {
      const hit = entries.get(key);
      if (!hit) return null;
      if (hit.expiresAt <= now()) {
        entries.delete(key);
        return null;
      }
      // Refresh its place for LRU eviction.
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    },
    /**
     * Stores a rendered 200 HTML response; returns false when it is not cacheable, or when the cache
     * was invalidated since `renderedAt` (the generation read before rendering): that page may be stale.
     */
    async put(
      key: string,
      response: Response,
      renderedAt = generation,
    ): Promise<{ stored: boolean; body: Uint8Array<ArrayBuffer> }> {
      const body = new Uint8Array(await response.arrayBuffer());
      const type = response.headers.get("content-type") ?? "";
      const cacheable =
        response.status === 200 &&
        type.startsWith("text/html") &&
        !response.headers.has("set-cookie") &&
        body.byteLength <= maxBytes &&
        renderedAt === generation;
      if (!cacheable) return { stored: false, body };
      const html = new TextDecoder().decode(body);
      const headers: Array<[string, string]> = [];
      response.headers.forEach((value, name) => {
        if (!PER_RESPONSE.has(name.toLowerCase())) headers.push([name, value]);
      });
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, {
        status: response.status,
        headers,
        body,
        scriptHashes: inlineScriptHashes(html),
        expiresAt: now() + options.ttlMs,
      });
      return { stored: true, body };
    },
    /** Drop everything (after a publish or any content change). */
    invalidate(): void {
      generation += 1;
      entries.clear();
    },
    get size(): number {
      return entries.size;
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
