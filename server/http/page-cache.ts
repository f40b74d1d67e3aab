import { createHash } from "node:crypto";

/**
 * The anonymous page cache: fully rendered HTML for visitors (no session cookie), keyed by
 * path and query, kept for a short time. A cached page cannot reuse the nonce it was rendered
 * with, so its Content-Security-Policy lists the SHA-256 hash of each inline script the app
 * emitted instead: only scripts carrying that render's nonce (the theme script, React Router's
 * hydration scripts). Any other inline script in the stored HTML is not trusted.
 */
export interface CachedPage {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array<ArrayBuffer>;
  /** CSP `'sha256-…'` sources, one per inline script the app emitted on the page. */
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

/** Headers that belong to one response only and are never replayed from the cache. */
const PER_RESPONSE = new Set(["set-cookie", "content-security-policy", "date", "content-length", "x-cache"]);

export function createPageCache(options: PageCacheOptions) {
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? 512 * 1024;
  const entries = new Map<string, CachedPage>();
  let generation = 0;
  let hits = 0;
  let misses = 0;
  return {
    /** Lookups answered from the cache and not, since the process started (/super-admin/infrastructure). */
    stats(): { hits: number; misses: number } {
      return { hits, misses };
    },
    /** Goes up on every invalidation; a page rendered across one is not stored. */
    get generation(): number {
      return generation;
    },
    get(key: string): CachedPage | null {
      const hit = entries.get(key);
      if (!hit) {
        misses += 1;
        return null;
      }
      if (hit.expiresAt <= now()) {
        entries.delete(key);
        misses += 1;
        return null;
      }
      hits += 1;
      // Refresh its place for LRU eviction.
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    },
    /**
     * Stores a rendered 200 HTML response; returns false when it is not cacheable, or when the cache
     * was invalidated since `renderedAt` (the generation read before rendering): that page may be stale.
     * `nonce` is the render's CSP nonce: only inline scripts carrying it are hashed for replay.
     */
    async put(
      key: string,
      response: Response,
      renderedAt: number,
      nonce: string,
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
        scriptHashes: inlineScriptHashes(html, nonce),
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
