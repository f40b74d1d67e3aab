/** `reindex`: rebuilds the search index of every content item. */
import { createSearchIndexer } from "../../modules/search/search-indexer.ts";
import type { CliCommand } from "../command.ts";
import { noMorePositionals } from "../operator.ts";

const BATCH = 200;
const CONCURRENCY = 4;

class ReindexFailedError extends Error {
  override name = "ReindexFailedError";
}

export const reindexCommand: CliCommand = {
  name: "reindex",
  summary: "Rebuild the search index of the whole library",
  usage: `Usage: npm run hub -- reindex

  Indexes every content item again (title, summary, tags and body text) through the search
  index's own indexing; documents whose text is unchanged are left alone. Exit 1 when an item
  could not be indexed (the others are).`,
  async run(ctx, args) {
    noMorePositionals(args, 0);
    const runtime = await ctx.runtime();
    const db = runtime.database.db;
    const search = createSearchIndexer({ db, storage: runtime.storage, logger: runtime.logger });
    const total = Number(
      (await db.selectFrom("content").select(db.fn.countAll<number | string>().as("n")).executeTakeFirst())
        ?.n ?? 0,
    );
    const started = Date.now();
    let indexed = 0;
    const failures: Array<{ id: string; error: string }> = [];
    let after: string | null = null;
    ctx.progress("Indexing", 0, total);
    for (;;) {
      let query = db.selectFrom("content").select("id").orderBy("id").limit(BATCH);
      if (after !== null) query = query.where("id", ">", after);
      const ids = (await query.execute()).map((r) => r.id);
      if (ids.length === 0) break;
      let next = 0;
      const worker = async () => {
        while (next < ids.length) {
          const id = ids[next++]!;
          try {
            await search.index(id);
            indexed++;
          } catch (error) {
            failures.push({ id, error: error instanceof Error ? error.message : String(error) });
          }
          ctx.progress("Indexing", indexed + failures.length, Math.max(total, indexed + failures.length));
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
      after = ids[ids.length - 1]!;
    }
    const seconds = Number(((Date.now() - started) / 1000).toFixed(1));
    if (failures.length > 0) {
      throw new ReindexFailedError(
        `${failures.length} item(s) could not be indexed (${failures
          .slice(0, 5)
          .map((f) => `${f.id}: ${f.error}`)
          .join("; ")}); ${indexed} indexed.`,
      );
    }
    ctx.out(`Indexed ${indexed} items in ${seconds} s.`);
    return { indexed, failed: 0, seconds };
  },
};
