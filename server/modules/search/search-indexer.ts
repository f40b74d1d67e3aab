/**
 * Keeps the search index in step with content: one document per item with its title, excerpt,
 * tags and the body as plain text (read from object storage, markdown stripped). Every status is
 * indexed; searches join the content row and keep published items only, so publishing and
 * unpublishing need no re-index. A deleted item's document goes with it (foreign key cascade).
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { fromJson, storedStringListSchema } from "../../db/json.ts";
import type { DB } from "../../db/schema.ts";
import { nowIso } from "../../db/values.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { ownBodyKey } from "../content/body-key.ts";
import type { ContentWriteHooks } from "../content/content.repo.ts";
import { markdownToText } from "./markdown-text.ts";
import { createSearchRepo, type SearchDocument } from "./search.repo.ts";
import { stripSentinels } from "./search-query.ts";

/** Body text kept per item (characters): about 15,000 words, far above any article. */
export const MAX_BODY_TEXT = 100_000;
const BATCH = 200;
const READ_CONCURRENCY = 8;

export interface SearchIndexerDeps {
  db: Kysely<DB>;
  storage: ObjectStore;
  logger: Logger;
}

export interface ReindexSummary {
  indexed: number;
  failed: number;
}

/** Runs `fn` over `items` with at most `limit` running at once. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const clean = (text: string | null | undefined) => stripSentinels(text ?? "").trim();

export function createSearchIndexer(deps: SearchIndexerDeps) {
  const repo = createSearchRepo(deps.db);
  /** Told after any document is written or removed (cached search results are dropped). */
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };

  async function bodyText(contentId: string, key: string | null): Promise<string> {
    if (!key) return "";
    const object = await deps.storage.get(key);
    if (!object) {
      deps.logger.warn({ contentId, key }, "search: content body object missing; indexed without body");
      return "";
    }
    return markdownToText(clean(new TextDecoder().decode(object.body)), MAX_BODY_TEXT);
  }

  /** (Re)indexes one item; an id with no content removes its document. */
  async function index(contentId: string, executor: Kysely<DB> = deps.db): Promise<void> {
    const row = await executor
      .selectFrom("content")
      .select(["id", "title", "excerpt", "tags", "bodyS3Key", "tier", "categorySlug", "slug"])
      .where("id", "=", contentId)
      .executeTakeFirst();
    if (!row) {
      await repo.remove(contentId, executor);
      return;
    }
    let tags: string[] = [];
    try {
      tags = fromJson(storedStringListSchema, row.tags, "tags");
    } catch {
      // unreadable tags are left out of the index
    }
    const doc: SearchDocument = {
      contentId: row.id,
      title: clean(row.title),
      excerpt: clean(row.excerpt),
      tags: clean(tags.join(", ")),
      // Only the item's own body is indexed (decision 011): a foreign key is never read.
      body: await bodyText(row.id, ownBodyKey(row)),
    };
    await repo.upsert(doc, nowIso(), executor);
    changed();
  }

  async function remove(contentId: string, executor: Kysely<DB> = deps.db): Promise<void> {
    await repo.remove(contentId, executor);
    changed();
  }

  async function indexAll(missingOnly: boolean, signal?: AbortSignal): Promise<ReindexSummary> {
    const summary: ReindexSummary = { indexed: 0, failed: 0 };
    let after: string | null = null;
    for (;;) {
      if (signal?.aborted) break;
      const ids = await repo.contentIds(after, BATCH, missingOnly);
      if (ids.length === 0) break;
      await eachLimited(ids, READ_CONCURRENCY, async (id) => {
        if (signal?.aborted) return;
        try {
          await index(id);
          summary.indexed++;
        } catch (error) {
          summary.failed++;
          deps.logger.error({ err: error, contentId: id }, "search: indexing failed");
        }
      });
      after = ids[ids.length - 1]!;
    }
    return summary;
  }

  return {
    index,
    remove,

    /** Calls `listener` after every document written or removed by this process. */
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Indexes every content item again (documents whose text is unchanged are left alone). */
    reindexAll: (options: { signal?: AbortSignal } = {}) => indexAll(false, options.signal),

    /** Indexes the items that have no document yet (the seed ends with it). */
    indexMissing: (options: { signal?: AbortSignal } = {}) => indexAll(true, options.signal),

    /**
     * Start-up check: when content exists but nothing is indexed (a database from before search),
     * indexes everything. Two single-row look-ups otherwise.
     */
    async ensureIndexed(options: { signal?: AbortSignal } = {}): Promise<ReindexSummary | null> {
      if (!(await repo.needsFullIndex())) return null;
      deps.logger.info("search: the index is empty; indexing every content item");
      const summary = await indexAll(false, options.signal);
      deps.logger.info(summary, "search: index built");
      return summary;
    },

    /**
     * Hooks for the content repository: every create and update re-indexes the item, a delete
     * removes it, on the same executor (inside the writer's transaction when it has one). A failure
     * is logged and does not undo the content write; `reindexAll` repairs.
     */
    contentHooks: {
      async afterWrite(change, executor) {
        try {
          if (change.kind === "delete") await remove(change.id, executor);
          else await index(change.id, executor);
        } catch (error) {
          deps.logger.error(
            { err: error, contentId: change.id },
            "search: indexing after a content write failed",
          );
        }
      },
    } satisfies ContentWriteHooks,

    count: () => repo.count(),
  };
}

export type SearchIndexer = ReturnType<typeof createSearchIndexer>;
