/**
 * This process's live figures for the heartbeat (/super-admin/infrastructure): requests in the
 * last minute (a per-second ring of counters, cheap enough for every request), event-loop delay
 * (`perf_hooks.monitorEventLoopDelay`, read and reset at each heartbeat, so p50/p99 describe the
 * last few seconds), memory, the page cache's hit and miss counters (a source the HTTP app
 * attaches; none until it does), and the figures of every in-memory cache registered with
 * `registerCache` (entries, estimated bytes, their bounds, hits and misses).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { CacheStats } from "../../bounded-cache.ts";

const WINDOW_S = 60;

export interface LoopLag {
  /** Microseconds. */
  p50Us: number;
  p99Us: number;
}

export interface PageCacheCounters {
  hits: number;
  misses: number;
}

/** One in-memory cache's figures as the heartbeat carries them. */
export interface CacheFigures extends CacheStats {
  name: string;
  label: string;
}

export interface ProcessMetrics {
  /** Counts one HTTP request (the app's first middleware calls it). */
  countRequest(): void;
  /** Requests this process answered in the last 60 seconds. */
  requestsLastMinute(): number;
  /** The event-loop delay percentiles since the last call; resets the histogram. */
  takeLoopLag(): LoopLag;
  /** The page cache's counters (zeros when no cache is attached). */
  pageCache(): PageCacheCounters;
  attachPageCache(source: () => PageCacheCounters): void;
  /** Adds a cache to the figures (a name used once per process); returns its removal. */
  registerCache(name: string, label: string, stats: () => CacheStats): () => void;
  /** Every registered cache's figures now, in registration order. */
  caches(): CacheFigures[];
  stop(): void;
}

export function createProcessMetrics(now: () => number = Date.now): ProcessMetrics {
  const seconds = new Float64Array(WINDOW_S);
  const counts = new Uint32Array(WINDOW_S);
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let cacheSource: (() => PageCacheCounters) | null = null;
  const caches = new Map<string, { label: string; stats: () => CacheStats }>();
  return {
    countRequest() {
      const second = Math.floor(now() / 1000);
      const slot = second % WINDOW_S;
      if (seconds[slot] !== second) {
        seconds[slot] = second;
        counts[slot] = 0;
      }
      counts[slot]! += 1;
    },
    requestsLastMinute() {
      const second = Math.floor(now() / 1000);
      let total = 0;
      for (let i = 0; i < WINDOW_S; i++) {
        if (second - seconds[i]! < WINDOW_S) total += counts[i]!;
      }
      return total;
    },
    takeLoopLag() {
      // The histogram is in nanoseconds; it starts at the resolution, so an idle loop reads ~10 ms
      // minus the timer's own period: report the excess over the sampling period.
      const toUs = (ns: number) => (Number.isFinite(ns) ? Math.max(0, Math.round(ns / 1000 - 10_000)) : 0);
      const lag =
        histogram.count > 0
          ? { p50Us: toUs(histogram.percentile(50)), p99Us: toUs(histogram.percentile(99)) }
          : { p50Us: 0, p99Us: 0 };
      histogram.reset();
      return lag;
    },
    pageCache() {
      return cacheSource ? cacheSource() : { hits: 0, misses: 0 };
    },
    attachPageCache(source) {
      cacheSource = source;
    },
    registerCache(name, label, stats) {
      const entry = { label, stats };
      caches.set(name, entry);
      return () => {
        if (caches.get(name) === entry) caches.delete(name);
      };
    },
    caches() {
      return [...caches].map(([name, { label, stats }]) => ({ name, label, ...stats() }));
    },
    stop() {
      histogram.disable();
    },
  };
}
