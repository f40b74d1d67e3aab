/**
 * Read results shared by readers who see the same thing: content lists, single items and search
 * pages, cached per *audience* and dropped whenever content changes (decision 022).
 *
 * An audience is everything that decides what a reader may see of published content and which
 * fields are shown: whether they see unpublished items (content writers), their tier (a visitor
 * apart from a signed-in Free reader) and their roles. Two readers with the same audience get the
 * same summaries; anything bound to one reader (body links, which name the credential) is added
 * per request after the cache, never stored in it.
 *
 * Entries live until the content revision moves (any process: the polled `content_revision`,
 * `runtime.contentChanges`), a write through this process, or `ttlMs` (display names such as an
 * author's are not part of the revision). A result computed while a change happened is not stored
 * (the generation check), so a stale list cannot outlive the change that made it stale.
 */
import { canSeeUnpublishedContent } from "../../../core/index.ts";
import type { Actor } from "../actor.ts";

/** The audience of a reader: the key part that keeps cached reads apart (see the file comment). */
export function audienceKey(actor: Actor): string {
  const access = actor.access;
  return JSON.stringify([
    canSeeUnpublishedContent(access),
    access.isAuthenticated ? (access.tier ?? "Free") : null,
    [...access.roles].sort(),
  ]);
}

export interface AudienceCacheOptions {
  /** Most entries kept (the oldest are dropped first). */
  max: number;
  /** Longest an entry is reused, in milliseconds. */
  ttlMs: number;
  now?: () => number;
}

export interface AudienceCache<V> {
  /** The cached value of `key`, or computes, stores and returns it. */
  get(key: string, compute: () => Promise<V>): Promise<V>;
  /** Drops every entry (content changed). */
  clear(): void;
  /** Entries held now (for the infrastructure page and tests). */
  readonly size: number;
  /** Hits and misses since start. */
  stats(): { hits: number; misses: number; size: number; max: number };
}

export function createAudienceCache<V>(options: AudienceCacheOptions): AudienceCache<V> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: V; at: number }>();
  const pending = new Map<string, Promise<V>>();
  let generation = 0;
  let hits = 0;
  let misses = 0;

  /** Computes `key` once (concurrent callers share it) and stores it unless content changed. */
  function load(key: string, compute: () => Promise<V>): Promise<V> {
    misses++;
    const started = generation;
    const at = now();
    const promise = compute().then((value) => {
      if (started === generation) {
        if (entries.size >= options.max) {
          entries.delete(key);
          if (entries.size >= options.max) entries.delete(entries.keys().next().value!);
        }
        entries.set(key, { value, at });
      }
      return value;
    });
    pending.set(key, promise);
    const settled = () => {
      if (pending.get(key) === promise) pending.delete(key);
    };
    promise.then(settled, settled);
    return promise;
  }

  return {
    async get(key, compute) {
      const hit = entries.get(key);
      const age = hit ? now() - hit.at : Number.POSITIVE_INFINITY;
      if (hit && age < options.ttlMs) {
        hits++;
        return hit.value;
      }
      if (hit && age < options.ttlMs * 2) {
        // Expired by age only (content changes clear the cache): the stored value answers while
        // one refresh runs, so readers never queue behind it. A failed refresh is retried by the
        // next reader; past twice the lifetime, readers wait for a fresh value.
        hits++;
        if (!pending.has(key)) {
          try {
            load(key, compute).catch(() => {});
          } catch {
            // a computation that throws at once: the next reader tries again
          }
        }
        return hit.value;
      }
      const running = pending.get(key);
      if (running) {
        // Concurrent misses of one key share one computation.
        hits++;
        return running;
      }
      return load(key, compute);
    },
    clear() {
      generation++;
      entries.clear();
      pending.clear();
    },
    get size() {
      return entries.size;
    },
    stats: () => ({ hits, misses, size: entries.size, max: options.max }),
  };
}
