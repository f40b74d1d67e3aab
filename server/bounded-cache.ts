/**
 * An in-process cache bounded by entries and by bytes, least recently used first out, with the
 * figures /super-admin/infrastructure shows for it (`stats`). Every cache that keeps values
 * between requests uses this (or reports the same figures), so no cache grows with traffic.
 *
 * `sizeOf` estimates an entry's bytes (strings count two bytes a character, as V8 may hold them);
 * an entry larger than a quarter of `maxBytes` is not kept at all, so one huge value cannot flush
 * the rest.
 */
export interface CacheStats {
  entries: number;
  maxEntries: number;
  /** Estimated bytes held (null when the cache cannot tell). */
  bytes: number | null;
  maxBytes: number | null;
  /** Lookups answered and not (when the cache counts them). */
  hits?: number;
  misses?: number;
  /** Entries pushed out to stay within the bounds (when the cache counts them). */
  evictions?: number;
}

export interface BoundedCacheOptions<K, V> {
  maxEntries: number;
  maxBytes: number;
  sizeOf(value: V, key: K): number;
  /** Entries older than this are misses (default: no age limit). */
  ttlMs?: number;
  now?: () => number;
}

export interface BoundedCache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  clear(): void;
  readonly size: number;
  stats(): CacheStats;
}

/** Bytes of a string as V8 may hold it (two per UTF-16 unit), for `sizeOf`. */
export const stringBytes = (value: string) => value.length * 2;

export function createBoundedCache<K, V>(options: BoundedCacheOptions<K, V>): BoundedCache<K, V> {
  const now = options.now ?? Date.now;
  const entries = new Map<K, { value: V; bytes: number; at: number }>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  let evictions = 0;

  function remove(key: K) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  }

  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry || (options.ttlMs !== undefined && now() - entry.at >= options.ttlMs)) {
        if (entry) remove(key);
        misses += 1;
        return undefined;
      }
      hits += 1;
      // Most recently used last: the first key is the one to evict.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      remove(key);
      const size = Math.max(0, Math.ceil(options.sizeOf(value, key)));
      if (size > options.maxBytes / 4) return;
      entries.set(key, { value, bytes: size, at: now() });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (entries.size <= options.maxEntries && bytes <= options.maxBytes) break;
        remove(oldest);
        evictions += 1;
      }
    },
    delete: remove,
    clear() {
      entries.clear();
      bytes = 0;
    },
    get size() {
      return entries.size;
    },
    stats() {
      return {
        entries: entries.size,
        maxEntries: options.maxEntries,
        bytes,
        maxBytes: options.maxBytes,
        hits,
        misses,
        evictions,
      };
    },
  };
}
