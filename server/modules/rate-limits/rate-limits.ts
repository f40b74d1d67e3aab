/**
 * The API rate limits of the product (SECURITY.md §2, decision 014): per caller (a signed-in user,
 * an API key or a service client) and per client address, in one-minute windows, shared by every
 * server process through the database.
 *
 * - reads: REST GET requests, page data (`.data`) and every `/graphql` request (batched);
 * - writes: REST POST/PUT/PATCH/DELETE, page actions and each GraphQL mutation field (exact);
 * - comments: each comment created (exact, stricter);
 * - GraphQL cost: the rows a query may return (`server/graphql/cost.ts`), mutations weighted
 *   (batched).
 * A request is charged to the user's and the address's bucket at once; either one over its limit
 * refuses it (429 with Retry-After).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { JobRegistry, JobTrack } from "../operations/job-registry.ts";
import { type CounterStore, createDatabaseCounterStore } from "./counter-store.ts";
import { createRateLimiter, type RateCharge, type RateRule, type RateVerdict } from "./rate-limiter.ts";

export const RATE_WINDOW_MS = 60_000;

/** Units per minute (the defaults are in `server/env.ts` and the README). */
export interface RateLimitSettings {
  readsPerUser: number;
  readsPerAddress: number;
  writesPerUser: number;
  writesPerAddress: number;
  commentsPerUser: number;
  graphqlCostPerUser: number;
  graphqlCostPerAddress: number;
}

/**
 * Who is charged: `user` names a verified caller (`u:<userId>`, `k:<api key hash>`,
 * `s:<service client id>`, `t:<token hash>`), null for a visitor; `address` is the normalised
 * client address (IPv6 by /64).
 */
export interface RateCaller {
  user: string | null;
  address: string;
}

export interface RateUnits {
  read?: number;
  write?: number;
  comment?: number;
  graphqlCost?: number;
}

export type { RateVerdict };

export interface RateLimitsOptions {
  db: Kysely<DB>;
  settings: RateLimitSettings;
  now?: () => number;
  onError?: (error: unknown) => void;
  syncIntervalMs?: number;
  /** Where the counters live: the database by default, Redis when REDIS_URL is set (decision 033). */
  store?: CounterStore;
  /** The background jobs registry (/super-admin/infrastructure): the sync and purge passes are recorded. */
  jobs?: Pick<JobRegistry, "register" | "registerExclusive">;
}

export function createRateLimits(options: RateLimitsOptions) {
  const { settings } = options;
  const rule = (name: string, limit: number, mode: RateRule["mode"]): RateRule => ({
    name,
    limit,
    windowMs: RATE_WINDOW_MS,
    mode,
  });
  const rules = {
    readUser: rule("r:u", settings.readsPerUser, "batched"),
    readAddress: rule("r:a", settings.readsPerAddress, "batched"),
    writeUser: rule("w:u", settings.writesPerUser, "exact"),
    writeAddress: rule("w:a", settings.writesPerAddress, "exact"),
    commentUser: rule("c:u", settings.commentsPerUser, "exact"),
    costUser: rule("q:u", settings.graphqlCostPerUser, "batched"),
    costAddress: rule("q:a", settings.graphqlCostPerAddress, "batched"),
  };
  const limiter = createRateLimiter({
    store: options.store ?? createDatabaseCounterStore(options.db),
    now: options.now,
    onError: options.onError,
  });

  const direct: JobTrack = (pass) => pass();
  const syncIntervalMs = options.syncIntervalMs ?? 250;
  const purgeIntervalMs = RATE_WINDOW_MS * 3 + Math.floor(Math.random() * RATE_WINDOW_MS);
  const trackSync =
    options.jobs?.register({
      name: "rate-limit-sync",
      label: "Adds this process's API rate-limit counts to the shared counters",
      intervalMs: syncIntervalMs,
    }) ?? direct;
  const trackPurge =
    options.jobs?.registerExclusive({
      name: "rate-limit-purge",
      label: "Deletes the rate-limit counters of windows that ended",
      intervalMs: purgeIntervalMs,
      leaseMs: 60_000,
    }) ?? direct;
  const syncTimer = setInterval(() => {
    trackSync(() => limiter.flush()).catch(options.onError ?? (() => {}));
  }, syncIntervalMs);
  syncTimer.unref();
  // Counters of windows that ended are of no use: deleted every few minutes (one process per tick).
  const purgeTimer = setInterval(() => {
    trackPurge(() => limiter.purge(RATE_WINDOW_MS * 2)).catch(options.onError ?? (() => {}));
  }, purgeIntervalMs);
  purgeTimer.unref();

  return {
    settings,

    /** Charges the units to the caller's buckets (user and address), all or nothing. */
    charge(caller: RateCaller, units: RateUnits): Promise<RateVerdict> {
      const charges: RateCharge[] = [];
      const add = (r: RateRule, subject: string | null, cost: number | undefined) => {
        if (subject !== null && cost !== undefined && cost > 0) charges.push({ rule: r, subject, cost });
      };
      add(rules.readUser, caller.user, units.read);
      add(rules.readAddress, caller.address, units.read);
      add(rules.writeUser, caller.user, units.write);
      add(rules.writeAddress, caller.address, units.write);
      add(rules.commentUser, caller.user ?? `a:${caller.address}`, units.comment);
      add(rules.costUser, caller.user, units.graphqlCost);
      add(rules.costAddress, caller.address, units.graphqlCost);
      return limiter.charge(charges);
    },

    /** Sends pending counts to the database now (tests, shutdown). */
    flush: () => limiter.flush(),

    async close(): Promise<void> {
      clearInterval(syncTimer);
      clearInterval(purgeTimer);
      await limiter.flush().catch(() => {});
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

/** The message of a refusal, naming the bucket that is full and when to try again. */
export function rateLimitMessage(verdict: Extract<RateVerdict, { ok: false }>): string {
  const what: Record<string, string> = {
    "r:u": "requests from this account",
    "r:a": "requests from this address",
    "w:u": "changes from this account",
    "w:a": "changes from this address",
    "c:u": "comments from this account",
    "q:u": "GraphQL query cost from this account",
    "q:a": "GraphQL query cost from this address",
  };
  return `Too many ${what[verdict.rule] ?? "requests"} (at most ${verdict.limit} a minute). Try again in ${verdict.retryAfterS} s.`;
}
