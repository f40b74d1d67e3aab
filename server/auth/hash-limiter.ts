/**
 * Bounds the password hashes (scrypt, N=2^17: ~128 MiB and 100+ ms of CPU each) one process runs
 * at once. Hashes run on the libuv thread pool (async scrypt), which file-system calls share: an
 * unbounded burst of sign-ins would fill every pool thread and stall everything else (health
 * checks, static files, the object store on disk). At most `concurrency` hashes run; the next
 * `maxQueue` wait in order; beyond that a request is refused at once with `HashBusyError`
 * (answered 503 with Retry-After) instead of waiting without bound.
 */
import { availableParallelism } from "node:os";

/** libuv's thread pool size (UV_THREADPOOL_SIZE, default 4). */
const THREAD_POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;
/** Hashes at once: one per spare core, and always leave two pool threads for everything else. */
export const HASH_CONCURRENCY = Math.max(1, Math.min(availableParallelism() - 1, THREAD_POOL_SIZE - 2));
/** Hashes that may wait for a slot before further ones are refused. */
export const HASH_QUEUE_MAX = 32;

export const HASH_BUSY_MESSAGE = "The server is busy checking passwords. Please try again in a few seconds.";

export class HashBusyError extends Error {
  override name = "HashBusyError";
  readonly retryAfterS: number;
  constructor(retryAfterS: number) {
    super(HASH_BUSY_MESSAGE);
    this.retryAfterS = retryAfterS;
  }
}

export interface HashLimiterStats {
  concurrency: number;
  maxQueue: number;
  active: number;
  queued: number;
  /** Highest `active` / `queued` seen since the last `resetPeaks`. */
  peakActive: number;
  peakQueued: number;
  /** Hashes refused because the queue was full. */
  refused: number;
}

export function createHashLimiter(concurrency: number, maxQueue: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  let peakActive = 0;
  let peakQueued = 0;
  let refused = 0;

  return {
    /** Runs `work` when a slot is free; throws HashBusyError when too many already wait. */
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (active >= concurrency) {
        if (waiting.length >= maxQueue) {
          refused += 1;
          throw new HashBusyError(Math.max(1, Math.ceil(waiting.length / concurrency / 5)));
        }
        // The finishing hash hands its slot straight to the first waiter (`active` unchanged).
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          peakQueued = Math.max(peakQueued, waiting.length);
        });
      } else {
        active += 1;
      }
      peakActive = Math.max(peakActive, active);
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else active -= 1;
      }
    },

    stats(): HashLimiterStats {
      return { concurrency, maxQueue, active, queued: waiting.length, peakActive, peakQueued, refused };
    },

    resetPeaks(): void {
      peakActive = active;
      peakQueued = waiting.length;
      refused = 0;
    },
  };
}

export type HashLimiter = ReturnType<typeof createHashLimiter>;

/** The process-wide limiter every password hash and verification goes through. */
export const hashLimiter = createHashLimiter(HASH_CONCURRENCY, HASH_QUEUE_MAX);
