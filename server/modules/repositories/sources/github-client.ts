/**
 * A small GitHub REST client on `fetch`: one per process, shared by every GitHub repository so the
 * rate limit is honoured across all of them.
 *
 * - Base URL configurable (tests point it at a local server replaying recorded responses).
 * - Token optional (`Authorization: Bearer …`); it is never logged or put in an error.
 * - Conditional requests: the ETag of every 200 is kept with its body (bounded, least recently
 *   used out) and sent as `If-None-Match`; a 304 reuses the kept body (and does not count against
 *   GitHub's rate limit). With a `store` (the `github_response` table, decision 028) each kept
 *   answer is also written to the database and read from it on a miss, so a restarted process or
 *   another one sends the same `If-None-Match`.
 * - Rate limits: a 403/429 with `x-ratelimit-remaining: 0` (reset at `x-ratelimit-reset`) or with
 *   `retry-after` throws RateLimitedError and blocks every request until the reset; a success with
 *   no requests left blocks the next ones the same way. Blocked calls never reach the network.
 */

import { type CacheStats, createBoundedCache, stringBytes } from "../../../bounded-cache.ts";
import { NotFoundError, RateLimitedError, SourceUnavailableError } from "./errors.ts";

export interface GitHubClientOptions {
  /** Default https://api.github.com. */
  baseUrl?: string;
  token?: string;
  fetch?: typeof fetch;
  /** Epoch ms; tests move it. */
  now?: () => number;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Kept ETag responses (default 500). */
  maxCachedResponses?: number;
  /** Estimated bytes of the kept responses together (default 16 MiB). */
  maxCachedBytes?: number;
  /** Kept answers shared by processes and restarts (the database); failures are ignored. */
  store?: GitHubResponseStore;
}

/** A kept answer as stored: the ETag, the response text and its next-page link. */
export interface StoredGitHubResponse {
  etag: string;
  text: string;
  next: string | null;
}

export interface GitHubResponseStore {
  read(key: string): Promise<StoredGitHubResponse | null>;
  write(key: string, response: StoredGitHubResponse): Promise<void>;
}

export interface GitHubResponse<T> {
  data: T;
  /** True when GitHub answered 304 and the kept body was reused. */
  notModified: boolean;
  /** The URL of the next page (Link: rel="next"), if any. */
  next: string | null;
}

interface Kept {
  /** Estimated bytes (the JSON text's, as the parsed value is about as large). */
  bytes: number;
  etag: string;
  data: unknown;
  next: string | null;
}

export interface GitHubClient {
  /** GET a path under the base URL ("/repos/o/r") or an absolute URL of the same origin (pagination). */
  get<T>(pathOrUrl: string): Promise<GitHubResponse<T>>;
  /** GET every page (Link rel="next"), up to `maxPages`, concatenated. */
  getAll<T>(path: string, maxPages?: number): Promise<T[]>;
  /** When requests are blocked until (epoch ms), or null. */
  blockedUntil(): number | null;
  /** The kept responses' figures (/super-admin/infrastructure). */
  cacheStats?(): CacheStats;
}

function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match) return match[1] ?? null;
  }
  return null;
}

export function createGitHubClient(options: GitHubClientOptions = {}): GitHubClient {
  const base = new URL((options.baseUrl ?? "https://api.github.com").replace(/\/+$/, ""));
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const kept = createBoundedCache<string, Kept>({
    maxEntries: options.maxCachedResponses ?? 500,
    maxBytes: options.maxCachedBytes ?? 16 * 1024 * 1024,
    sizeOf: (entry, key) => entry.bytes + stringBytes(key),
  });
  let blocked: number | null = null;

  function urlFor(pathOrUrl: string): URL {
    if (/^https?:\/\//i.test(pathOrUrl)) {
      const url = new URL(pathOrUrl);
      // Pagination links come from the API; never follow one to another host (the token goes along).
      if (url.origin !== base.origin)
        throw new SourceUnavailableError("GitHub returned a link to another host");
      return url;
    }
    return new URL(`${base.pathname.replace(/\/$/, "")}${pathOrUrl}`, base.origin);
  }

  function resetFrom(headers: Headers): number | null {
    const reset = Number(headers.get("x-ratelimit-reset"));
    if (Number.isFinite(reset) && reset > 0) return reset * 1000;
    const retryAfter = Number(headers.get("retry-after"));
    if (Number.isFinite(retryAfter) && retryAfter >= 0 && headers.get("retry-after") !== null) {
      return now() + retryAfter * 1000;
    }
    return null;
  }

  async function get<T>(pathOrUrl: string): Promise<GitHubResponse<T>> {
    if (blocked !== null) {
      if (now() < blocked) throw new RateLimitedError(new Date(blocked));
      blocked = null;
    }
    const url = urlFor(pathOrUrl);
    const key = url.toString();
    let cached = kept.get(key);
    if (!cached && options.store) {
      const stored = await options.store.read(key).catch(() => null);
      if (stored) {
        try {
          cached = {
            bytes: stringBytes(stored.text),
            etag: stored.etag,
            data: JSON.parse(stored.text),
            next: stored.next,
          };
          kept.set(key, cached);
        } catch {
          cached = undefined; // unreadable: asked for in full
        }
      }
    }
    const headers: Record<string, string> = {
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      "user-agent": "lumen-hub",
    };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (cached) headers["if-none-match"] = cached.etag;

    let response: Response;
    try {
      response = await doFetch(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
    } catch (error) {
      throw new SourceUnavailableError("GitHub could not be reached", { cause: error });
    }

    const remaining = response.headers.get("x-ratelimit-remaining");
    if (response.status === 403 || response.status === 429) {
      const reset = resetFrom(response.headers);
      await response.body?.cancel();
      if (remaining === "0" || response.headers.get("retry-after") !== null || response.status === 429) {
        blocked = reset ?? now() + 60_000;
        throw new RateLimitedError(new Date(blocked));
      }
      throw new SourceUnavailableError("GitHub refused the request (403)", { status: 403 });
    }
    if (remaining === "0") blocked = resetFrom(response.headers);

    if (response.status === 304 && cached) {
      await response.body?.cancel();
      return { data: cached.data as T, notModified: true, next: cached.next };
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new NotFoundError("GitHub resource", url.pathname);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new SourceUnavailableError(`GitHub answered ${response.status}`, { status: response.status });
    }
    let data: T;
    let bytes = 0;
    let text: string;
    try {
      text = await response.text();
      bytes = stringBytes(text);
      data = JSON.parse(text) as T;
    } catch (error) {
      throw new SourceUnavailableError("GitHub sent a response that is not JSON", { cause: error });
    }
    const next = nextLink(response.headers.get("link"));
    const etag = response.headers.get("etag");
    if (etag) {
      kept.set(key, { bytes, etag, data, next });
      await options.store?.write(key, { etag, text, next }).catch(() => {});
    }
    return { data, notModified: false, next };
  }

  return {
    get,
    cacheStats: () => kept.stats(),
    async getAll<T>(path: string, maxPages = 5): Promise<T[]> {
      const out: T[] = [];
      let next: string | null = path;
      for (let page = 0; next && page < maxPages; page++) {
        const response: GitHubResponse<T[]> = await get<T[]>(next);
        out.push(...response.data);
        next = response.next;
      }
      return out;
    },
    blockedUntil: () => (blocked !== null && now() < blocked ? blocked : null),
  };
}
