/**
 * Full-text search over published content, one operation for pages and REST: `search(actor, …)`.
 *
 * The access rule (SECURITY.md §11: search results and snippets answer like every other channel):
 * an item whose body the reader may not read (core `canAccessContent`, the content service's lock
 * flag) is found by its title, excerpt and tags only, ranked on them only, and shown locked with
 * its excerpt as the snippet. Its body never decides whether it is found, where it ranks, or what
 * is shown. The SQL applies the rule (so pagination and totals are right); the lock flag computed
 * by the content service from the core rule is checked again before anything from a body is read.
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { z } from "zod";
import { decodeCursor, encodeCursor } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { BadInputError, NotFoundError } from "../../errors.ts";
import { type Actor, requireReadScope } from "../actor.ts";
import { addSearch, normaliseSearchQuery } from "../analytics/analytics-recorder.ts";
import { audienceKey, createAudienceCache } from "../content/audience-cache.ts";
import { type ContentSummaryRow, createContentRepo } from "../content/content.repo.ts";
import type { ContentSummary } from "../content/content.types.ts";
import { createSearchRepo, SEARCH_MAX_CANDIDATES } from "./search.repo.ts";
import type { SearchIndexer } from "./search-indexer.ts";
import { hasHit, parseSearchQuery, type SnippetPart, splitHighlighted } from "./search-query.ts";

export type { SnippetPart } from "./search-query.ts";

export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 50;
/**
 * Results past this position are not paged to (refine the term instead): only the first
 * `SEARCH_MAX_CANDIDATES` matches are ranked (search.repo.ts, decision 022).
 */
export const SEARCH_MAX_OFFSET = SEARCH_MAX_CANDIDATES;

export type SearchField = "title" | "excerpt" | "tags" | "body";

export interface SearchQuery {
  /** The user's term (trimmed, cut to 200 characters; no words → no results). */
  q: string;
  /** A section slug (ai-education …); unknown sections find nothing. */
  section?: string;
  limit?: number;
  cursor?: string | null;
}

export interface SearchResultItem extends ContentSummary {
  /** The title with the matched words marked. */
  titleParts: SnippetPart[];
  /**
   * A passage of the body around the words when the reader may read the body and it matched;
   * otherwise the excerpt (the only text shown for a locked item). Render as text, `hit` as <mark>.
   */
  snippet: SnippetPart[];
  /** Where the words were found; never "body" for a locked item. */
  matchedIn: SearchField[];
}

export interface SearchResults {
  /** The term as searched (trimmed and cut). */
  query: string;
  items: SearchResultItem[];
  /**
   * Number of results in all pages (null past the last page). Counted among the first
   * `SEARCH_MAX_CANDIDATES` matches only: when `totalCapped` is true there are at least that many.
   */
  total: number | null;
  /** True when `total` stopped at the cap (show "1,000+"); refine the term to see the rest. */
  totalCapped: boolean;
  nextCursor: string | null;
}

/** What a search answers while the `search` feature flag is off. */
export const SEARCH_DISABLED_MESSAGE = "Search is turned off on this site.";

export interface SearchService {
  search(actor: Actor, query: SearchQuery): Promise<SearchResults>;
  /**
   * The same answer as `search`, as its JSON text: a cached page is serialised once and reused
   * by every reader of its audience (absent in test doubles).
   */
  searchJson?(actor: Actor, query: SearchQuery): Promise<string>;
  /** Writes the search counts not yet written (analytics are written in batches). */
  flushCounts?(): Promise<void>;
  /** The per-audience result cache's figures (absent in test doubles). */
  cacheStats?(): { hits: number; misses: number; size: number; max: number };
}

const offsetCursorSchema = z.strictObject({ o: z.number().int().min(0).max(SEARCH_MAX_OFFSET) });

export interface SearchServiceDeps {
  db: Kysely<DB>;
  indexer: SearchIndexer;
  /** Summaries with the lock flag, as the content service builds them for lists. */
  summarize(actor: Actor, items: readonly ContentSummaryRow[]): Promise<ContentSummary[]>;
  /** The live `search` feature flag (system settings); off: every search is NOT_FOUND. Default on. */
  enabled?: () => boolean;
  /** The clock (epoch ms) of the search analytics' day. Default Date.now. */
  now?: () => number;
  /** Where a failed analytics write is reported (it never fails the search). */
  logger?: Pick<Logger, "warn">;
  /** Content writes from any process (the polled content revision): cached results are dropped. */
  changes?: { subscribe(listener: () => void): () => void };
}

/** Cached result pages (per audience, words, section and page; decision 022). */
const RESULT_CACHE_LIMIT = 2_000;
/**
 * Longest a cached result page is reused: another process's index write follows its content write
 * (and revision) closely, and this bounds the window in which a page read between the two lives.
 */
const RESULT_CACHE_TTL_MS = 5_000;
/** How long counted searches wait to be written together (analytics, not access: may lag). */
export const ANALYTICS_FLUSH_MS = 200;

/** A page size in 1..50 (default 20); anything else is a BadInputError. */
function pageSize(limit: number | undefined): number {
  if (limit === undefined) return SEARCH_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_MAX_LIMIT) {
    throw new BadInputError(`limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}`);
  }
  return limit;
}

export function createSearchService(deps: SearchServiceDeps) {
  const repo = createSearchRepo(deps.db);
  const content = createContentRepo(deps.db);
  const now = deps.now ?? Date.now;

  /**
   * Result pages shared by the readers of one audience (./content/audience-cache.ts): what a search
   * finds, ranks and shows depends on the reader's tier and roles only, and no result carries
   * anything bound to one reader. Dropped when content or the index changes.
   */
  const results = createAudienceCache<Omit<SearchResults, "query">>({
    max: RESULT_CACHE_LIMIT,
    ttlMs: RESULT_CACHE_TTL_MS,
    now,
  });
  deps.changes?.subscribe(() => results.clear());
  deps.indexer.subscribe?.(() => results.clear());

  /**
   * Searches counted but not yet written: one transaction every `ANALYTICS_FLUSH_MS` writes them
   * all (SQLite commits are synchronous and durable, so one per search would stall every request).
   * A search answers without waiting for its count; `flushCounts` writes what is pending (on close).
   */
  let pendingCounts: Array<{ day: string; query: string; found: number }> = [];
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  let flushing: Promise<void> = Promise.resolve();

  function flushCounts(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    const batch = pendingCounts;
    pendingCounts = [];
    if (batch.length === 0) return flushing;
    flushing = flushing.then(async () => {
      try {
        await inTransaction(deps.db, async (trx) => {
          for (const count of batch) await addSearch(trx, count.day, count.query, count.found);
        });
      } catch (error) {
        deps.logger?.warn({ err: error }, "search analytics: counting searches failed");
      }
    });
    return flushing;
  }

  /** Counts a search in the daily analytics (written with the next batch; never fails the search). */
  function countSearch(text: string, found: number): void {
    const normal = normaliseSearchQuery(text);
    if (normal === null) return;
    const day = new Date(now()).toISOString().slice(0, 10);
    pendingCounts.push({ day, query: normal, found });
    if (!flushTimer) {
      flushTimer = setTimeout(() => void flushCounts(), ANALYTICS_FLUSH_MS);
      flushTimer.unref?.();
    }
  }

  async function search(actor: Actor, query: SearchQuery): Promise<SearchResults> {
    const { text, found } = await searchPage(actor, query);
    return { query: text, ...found };
  }

  /** Each cached page's JSON (without the term), made on first use: pages are shared and frozen. */
  const pageJson = new WeakMap<object, string>();
  async function searchJson(actor: Actor, query: SearchQuery): Promise<string> {
    const { text, found } = await searchPage(actor, query);
    let body = pageJson.get(found);
    if (body === undefined) {
      body = JSON.stringify(found);
      pageJson.set(found, body);
    }
    // The key order of `search`'s answer: the term first, then the page's fields.
    return body === "{}"
      ? JSON.stringify({ query: text })
      : `{"query":${JSON.stringify(text)},${body.slice(1)}`;
  }

  async function searchPage(
    actor: Actor,
    query: SearchQuery,
  ): Promise<{ text: string; found: Omit<SearchResults, "query"> }> {
    if (deps.enabled && !deps.enabled()) throw new NotFoundError(SEARCH_DISABLED_MESSAGE);
    requireReadScope(actor, "content:read");
    const limit = pageSize(query.limit);
    const offset = query.cursor ? decodeCursor(offsetCursorSchema, query.cursor).o : 0;
    const parsed = parseSearchQuery(query.q);
    if (parsed.words.length === 0) {
      return { text: parsed.text, found: { items: [], total: 0, totalCapped: false, nextCursor: null } };
    }
    const key = JSON.stringify([audienceKey(actor), parsed.words, query.section, limit, offset]);
    const found = await results.get(key, () => findPage(actor, parsed.words, query.section, limit, offset));
    // Analytics: the first page of a search counts it (later pages are the same search).
    if (offset === 0) countSearch(parsed.text, found.total ?? 0);
    return { text: parsed.text, found };
  }

  /** One page of results for the actor (uncached). */
  async function findPage(
    actor: Actor,
    words: string[],
    section: string | undefined,
    limit: number,
    offset: number,
  ): Promise<Omit<SearchResults, "query">> {
    const access = actor.access;
    const { hits, total, totalCapped, exact } = await repo.search({
      words,
      section,
      access: { tier: access.tier, roles: access.roles },
      limit: limit + 1,
      offset,
    });
    const page = hits.slice(0, limit);
    if (page.length === 0) return { items: [], total, totalCapped, nextCursor: null };

    const rows = new Map(
      (await content.getSummariesByIds(page.map((h) => h.contentId))).map((c) => [c.id, c]),
    );
    const published = page.flatMap((h) => {
      const item = rows.get(h.contentId);
      return item && item.status === "published" ? [{ hit: h, item }] : [];
    });
    const summaries = await deps.summarize(
      actor,
      published.map((p) => p.item),
    );
    const readable = published.flatMap(({ hit }, i) => {
      const summary = summaries[i]!;
      // Both readings of the rule must allow the body (the SQL one ranked and found the item).
      const bodyReadable = hit.bodyAllowed && !summary.locked;
      if (!bodyReadable && !hit.metaMatch) return [];
      return [{ hit, summary, bodyReadable }];
    });

    const ids = readable.map((r) => r.summary.id);
    const [meta, bodies] = await Promise.all([
      repo.highlightMeta(words, ids, exact),
      repo.bodySnippets(
        words,
        readable.filter((r) => r.bodyReadable).map((r) => r.summary.id),
        exact,
      ),
    ]);

    const items: SearchResultItem[] = readable.map(({ summary, bodyReadable }) => {
      const marked = meta.get(summary.id);
      const titleParts = marked ? splitHighlighted(marked.title) : [{ text: summary.title, hit: false }];
      const excerptParts = marked
        ? splitHighlighted(marked.excerpt)
        : summary.excerpt
          ? [{ text: summary.excerpt, hit: false }]
          : [];
      const bodyParts = bodyReadable ? splitHighlighted(bodies.get(summary.id) ?? "") : [];
      const matchedIn: SearchField[] = [];
      if (hasHit(titleParts)) matchedIn.push("title");
      if (hasHit(excerptParts)) matchedIn.push("excerpt");
      if (marked && hasHit(splitHighlighted(marked.tags))) matchedIn.push("tags");
      if (hasHit(bodyParts)) matchedIn.push("body");
      return {
        ...summary,
        titleParts,
        snippet: hasHit(bodyParts) ? bodyParts : excerptParts,
        matchedIn,
      };
    });

    const nextOffset = offset + limit;
    return {
      items,
      total,
      totalCapped,
      nextCursor:
        hits.length > limit && nextOffset <= SEARCH_MAX_OFFSET ? encodeCursor({ o: nextOffset }) : null,
    };
  }

  return {
    search,
    searchJson,
    /** The per-audience result cache's figures (/super-admin/infrastructure). */
    cacheStats: () => results.stats(),
    /** Writes the searches counted but not yet written (the runtime calls it on close). */
    flushCounts,
    /** (Re)indexes one item (after a write that bypassed the content repository's hooks). */
    index: (contentId: string) => deps.indexer.index(contentId),
    remove: (contentId: string) => deps.indexer.remove(contentId),
    reindexAll: (options?: { signal?: AbortSignal }) => deps.indexer.reindexAll(options),
  };
}
