/**
 * Search queries, one implementation per dialect behind one shape (see migration 009): SQLite FTS5
 * with bm25, PostgreSQL tsvector with ts_rank. No access decisions are made here: the caller says
 * which tiers and roles open a body (`BodyAccess`), and the SQL applies it so that a body match
 * counts only where the body may be read. Every user word reaches SQL as a bound parameter inside
 * a query built by `search-query.ts`, never as syntax of its own.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import { dialectOf } from "../../db/dialect.ts";
import type { DB } from "../../db/schema.ts";
import { type ReaderAccess, readableBy } from "../content/readable-sql.ts";
import { HIT_END, HIT_START, toFts5Query, toTsQuery } from "./search-query.ts";

export interface SearchDocument {
  contentId: string;
  title: string;
  excerpt: string;
  tags: string;
  body: string;
}

/** Which bodies a reader may read: content tiers (exact stored spellings) and the reader's roles. */
/** Who reads: the body counts only where `readableBy` (content/readable-sql.ts) lets this reader in. */
export type BodyAccess = ReaderAccess;

export interface SearchPageQuery {
  words: readonly string[];
  /**
   * SQLite: the last word as typed only, not as a prefix (see `search`, which decides it and
   * returns it; highlights then use the same).
   */
  exact?: boolean;
  section?: string | undefined;
  access: BodyAccess;
  limit: number;
  offset: number;
}

/**
 * The most matches a search looks at (decision 022): the newest this many documents matching every
 * word, by document id (`docId`, the order documents were first indexed, on both dialects) are
 * ranked, filtered by the reader's access and counted. It bounds the work of any term at any size
 * of the library: results past the 500th are not paged to (refine the term instead).
 */
export const SEARCH_MAX_CANDIDATES = 500;

export interface SearchHit {
  contentId: string;
  /** Every word occurs in title, excerpt or tags. */
  metaMatch: boolean;
  /** The SQL reading of the access rule: the body may be read (so body words counted). */
  bodyAllowed: boolean;
  score: number;
}

export interface HighlightedMeta {
  title: string;
  excerpt: string;
  tags: string;
}

/**
 * SQLite scores: per column, the occurrences of the words (t) saturated as bm25 does,
 * t / (t + 1.2), times the column's weight (title 10, excerpt 4, tags 6, body 1). FTS5's bm25 is
 * not used: it counts every document of the whole index that holds each word (its IDF) on every
 * call, which grows with the library (decision 022, later); the occurrences are counted on the
 * candidates only, from `highlight` (each occurrence starts with HIT_START).
 */
const TITLE_WEIGHT = sql.raw("10.0");
const EXCERPT_WEIGHT = sql.raw("4.0");
const TAGS_WEIGHT = sql.raw("6.0");
const BODY_TERM_WEIGHT = sql.raw("1.0");
const TF_K1 = sql.raw("1.2");
/** A column's text with each occurrence marked by HIT_START alone. */
const markedIn = (column: number) =>
  sql`highlight("content_search_fts", ${sql.raw(String(column))}, ${HIT_START}, '')`;
/** The occurrences marked in one of the candidates' columns (`f`). */
const hitsIn = (column: string) =>
  sql`(length(${sql.ref(column)}) - length(replace(${sql.ref(column)}, ${HIT_START}, '')))`;
/** A column's share of the score: occurrences saturated, times the weight. */
const termScore = (weight: RawBuilder<unknown>, column: string) =>
  sql`${weight} * ${hitsIn(column)} / (${hitsIn(column)} + ${TF_K1})`;
const SNIPPET_TOKENS = 24;
/**
 * One scale for every result: the metadata score (title, excerpt, tags), plus this share of the
 * full-document score for items the reader may read. Locked items rank on metadata alone (their
 * body cannot move them), metadata matches come before body-only matches, and among equal
 * metadata matches the ones the reader can open come first.
 */
const BODY_WEIGHT = sql.raw("0.3");
/** How long PostgreSQL may walk newest-first before the GIN plan answers instead (ms). */
export const PG_WALK_TIMEOUT_MS = 100;
/** PostgreSQL's "canceling statement due to statement timeout". */
const PG_QUERY_CANCELED = "57014";

const HEADLINE_ALL = `StartSel=${HIT_START}, StopSel=${HIT_END}, HighlightAll=true`;
const HEADLINE_BODY = `StartSel=${HIT_START}, StopSel=${HIT_END}, MaxFragments=2, MaxWords=24, MinWords=10, ShortWord=2, FragmentDelimiter=" … "`;

export function createSearchRepo(db: Kysely<DB>, options: { walkTimeoutMs?: number } = {}) {
  const pg = dialectOf(db) === "postgres";
  // 0: never walk, the GIN plan always answers.
  const walkTimeoutMs = Math.max(0, Math.trunc(options.walkTimeoutMs ?? PG_WALK_TIMEOUT_MS));

  /**
   * PostgreSQL: the newest-first plan, bounded. The planner picks a backwards walk over "docId"
   * from each word's own frequency; for words that are common apart but rare together (or common
   * only in old documents) that walk can read the whole index. Past `walkTimeoutMs` the statement
   * is cancelled and the candidates come from the GIN index instead (every match, then the newest
   * 500: bounded by the number of matches). JIT compilation is off for these statements (it adds
   * 10-30 ms to a plan that runs in a few).
   */
  async function pgCandidates(build: (walk: boolean) => RawBuilder<HitRow>) {
    if (walkTimeoutMs === 0) {
      return db.transaction().execute(async (trx) => {
        await sql`select set_config('jit', 'off', true)`.execute(trx);
        return build(false).execute(trx);
      });
    }
    try {
      return await db.transaction().execute(async (trx) => {
        await sql`select set_config('statement_timeout', ${String(walkTimeoutMs)}, true), set_config('jit', 'off', true)`.execute(
          trx,
        );
        return build(true).execute(trx);
      });
    } catch (error) {
      if ((error as { code?: unknown })?.code !== PG_QUERY_CANCELED) throw error;
      return db.transaction().execute(async (trx) => {
        await sql`select set_config('jit', 'off', true)`.execute(trx);
        return build(false).execute(trx);
      });
    }
  }

  /**
   * SQLite: the documents' id range as a condition on the full-text table, so a highlight or
   * snippet query walks only the matches between the page's first and last document (a bounded
   * stretch of the candidates) instead of every match of the words.
   */
  const docRange = (ids: RawBuilder<unknown>) => sql`"content_search_fts"."rowid" >= (
      select min("docId") from "content_search" where "contentId" in (${ids}))
    and "content_search_fts"."rowid" <= (
      select max("docId") from "content_search" where "contentId" in (${ids}))`;

  const sectionSql = (section: string | undefined) =>
    section === undefined ? sql`` : sql`and c."section" = ${section}`;

  interface HitRow {
    contentId: string;
    metaMatch: boolean | number;
    bodyAllowed: boolean | number;
    score: number;
    total: number;
    candidates: number;
  }

  /**
   * One page of hits, best first, with the number of hits in all pages (`total`, null past the
   * last page). LIMIT first: only the first `SEARCH_MAX_CANDIDATES` matches are ranked and counted
   * (`totalCapped` when there were that many), so no term scans the whole index.
   */
  /**
   * SQLite: true when the words as typed (the last one not expanded as a prefix) already match
   * `SEARCH_MAX_CANDIDATES` documents. FTS5 reads a prefix's whole posting lists before the first
   * row, while a word's own list is walked from the newest document and stops at the cap; so a
   * complete common word costs the same at any size, and the prefix is only expanded when the
   * word alone finds fewer than the cap (a rare word, or a word still being typed).
   */
  async function typedWordsFillCandidates(words: readonly string[]): Promise<boolean> {
    const { rows } = await sql<{ n: number }>`
      select count(*) as "n" from (
        select "rowid" from "content_search_fts" where "content_search_fts" match ${toFts5Query(words, false)}
        order by "rowid" desc limit ${SEARCH_MAX_CANDIDATES})`.execute(db);
    return Number(rows[0]?.n ?? 0) >= SEARCH_MAX_CANDIDATES;
  }

  async function search(
    q: SearchPageQuery,
  ): Promise<{ hits: SearchHit[]; total: number | null; totalCapped: boolean; exact: boolean }> {
    if (q.words.length === 0) return { hits: [], total: 0, totalCapped: false, exact: false };
    const exact = q.exact ?? (!pg && (await typedWordsFillCandidates(q.words)));
    const match = toFts5Query(q.words, !exact);
    const allowed = readableBy(q.access, pg ? "postgres" : "sqlite", "c");
    const tsQuery = pg ? toTsQuery(q.words) : "";
    const pgQuery = (walk: boolean) => sql<HitRow>`
        with "q" as (select to_tsquery('english', ${tsQuery}) as "q"),
        ${
          walk
            ? sql`"cand" as materialized (
          -- The query inline, not from "q": the planner reads its words' statistics and walks
          -- "docId" backwards for common words (stopping at the cap), the GIN index for rare ones.
          select s."contentId", s."metaVector", s."documentVector"
          from "content_search" s
          where s."documentVector" @@ to_tsquery('english', ${tsQuery})
          order by s."docId" desc
          limit ${SEARCH_MAX_CANDIDATES}
        ),`
            : sql`"matches" as materialized (
          -- Every match from the GIN index (bounded by the matches), then the newest of them.
          select s."docId" from "content_search" s cross join "q" where s."documentVector" @@ "q"."q"
        ),
        "cand" as materialized (
          select s."contentId", s."metaVector", s."documentVector"
          from (select "docId" from "matches" order by "docId" desc limit ${SEARCH_MAX_CANDIDATES}) m
          join "content_search" s on s."docId" = m."docId"
        ),`
        }
        "hits" as (
          select c."id" as "contentId",
            (s."metaVector" @@ "q"."q") as "metaMatch",
            ${allowed} as "bodyAllowed",
            ts_rank(s."metaVector", "q"."q")
              + case when ${allowed} then ${BODY_WEIGHT} * ts_rank(s."documentVector", "q"."q") else 0 end
              as "score"
          from "cand" s
          join "content" c on c."id" = s."contentId"
          cross join "q"
          where c."status" = 'published' and c."publishedAt" is not null ${sectionSql(q.section)}
            and (s."metaVector" @@ "q"."q" or ${allowed})
        )
        select "contentId", "metaMatch", "bodyAllowed", "score", count(*) over () as "total",
          (select count(*) from "cand") as "candidates"
        from "hits" order by "score" desc, "contentId" asc limit ${q.limit} offset ${q.offset}`;
    const query = pg
      ? null
      : sql<HitRow>`
        with "f" as materialized (
          select "rowid" as "docId",
            ${markedIn(0)} as "h0", ${markedIn(1)} as "h1", ${markedIn(2)} as "h2", ${markedIn(3)} as "h3"
          from "content_search_fts" where "content_search_fts" match ${match}
          order by "rowid" desc limit ${SEARCH_MAX_CANDIDATES}
        ), "s" as (
          select "docId",
            ${termScore(TITLE_WEIGHT, "h0")} + ${termScore(EXCERPT_WEIGHT, "h1")}
              + ${termScore(TAGS_WEIGHT, "h2")} as "meta",
            ${termScore(BODY_TERM_WEIGHT, "h3")} as "body"
          from "f"
        ), "m" as materialized (
          select "rowid" as "docId"
          from "content_search_meta_fts" where "content_search_meta_fts" match ${match}
            and "rowid" >= (select min("docId") from "f")
        ), "hits" as (
          select c."id" as "contentId",
            ("m"."docId" is not null) as "metaMatch",
            ${allowed} as "bodyAllowed",
            case when "m"."docId" is not null then "f"."meta" else 0 end
              + case when ${allowed} then ${BODY_WEIGHT} * ("f"."meta" + "f"."body") else 0 end as "score"
          from "s" "f"
          -- cross join: SQLite keeps this order (the candidates outside, by primary key inside)
          -- instead of walking a content index over every published row.
          cross join "content_search" s on s."docId" = "f"."docId"
          cross join "content" c on c."id" = s."contentId"
          left join "m" on "m"."docId" = "f"."docId"
          where c."status" = 'published' and c."publishedAt" is not null ${sectionSql(q.section)}
            and ("m"."docId" is not null or ${allowed})
        )
        select "contentId", "metaMatch", "bodyAllowed", "score", count(*) over () as "total",
          (select count(*) from "f") as "candidates"
        from "hits" order by "score" desc, "contentId" asc limit ${q.limit} offset ${q.offset}`;
    const { rows } = query ? await query.execute(db) : await pgCandidates(pgQuery);
    return {
      hits: rows.map((r) => ({
        contentId: r.contentId,
        metaMatch: Boolean(r.metaMatch),
        bodyAllowed: Boolean(r.bodyAllowed),
        score: Number(r.score),
      })),
      total: rows[0] ? Number(rows[0].total) : q.offset === 0 ? 0 : null,
      totalCapped: rows[0] ? Number(rows[0].candidates) >= SEARCH_MAX_CANDIDATES : false,
      exact,
    };
  }

  /** Title, excerpt and tags of the given items with every word marked (HIT_START … HIT_END). */
  async function highlightMeta(
    words: readonly string[],
    contentIds: readonly string[],
    exact = false,
  ): Promise<Map<string, HighlightedMeta>> {
    if (words.length === 0 || contentIds.length === 0) return new Map();
    const ids = sql.join([...contentIds]);
    const query = pg
      ? sql<HighlightedMeta & { contentId: string }>`
        select s."contentId",
          ts_headline('english', s."title", "q"."q", ${HEADLINE_ALL}) as "title",
          ts_headline('english', s."excerpt", "q"."q", ${HEADLINE_ALL}) as "excerpt",
          ts_headline('english', s."tags", "q"."q", ${HEADLINE_ALL}) as "tags"
        from "content_search" s
        cross join (select to_tsquery('english', ${toTsQuery(words)}) as "q") "q"
        where s."contentId" in (${ids})`
      : sql<HighlightedMeta & { contentId: string }>`
        select s."contentId",
          highlight("content_search_fts", 0, ${HIT_START}, ${HIT_END}) as "title",
          highlight("content_search_fts", 1, ${HIT_START}, ${HIT_END}) as "excerpt",
          highlight("content_search_fts", 2, ${HIT_START}, ${HIT_END}) as "tags"
        from "content_search_fts"
        join "content_search" s on s."docId" = "content_search_fts"."rowid"
        where "content_search_fts" match ${toFts5Query(words, !exact)} and ${docRange(ids)}
          and s."contentId" in (${ids})`;
    const { rows } = await query.execute(db);
    return new Map(rows.map((r) => [r.contentId, { title: r.title, excerpt: r.excerpt, tags: r.tags }]));
  }

  /**
   * A short passage of the body around the words, marked. Call it only with items whose body the
   * reader may read: it is the one query that reads body text.
   */
  async function bodySnippets(
    words: readonly string[],
    readableContentIds: readonly string[],
    exact = false,
  ): Promise<Map<string, string>> {
    if (words.length === 0 || readableContentIds.length === 0) return new Map();
    const ids = sql.join([...readableContentIds]);
    const query = pg
      ? sql<{ contentId: string; body: string }>`
        select s."contentId", ts_headline('english', s."body", "q"."q", ${HEADLINE_BODY}) as "body"
        from "content_search" s
        cross join (select to_tsquery('english', ${toTsQuery(words)}) as "q") "q"
        where s."contentId" in (${ids}) and s."body" <> ''`
      : sql<{ contentId: string; body: string }>`
        select s."contentId",
          snippet("content_search_fts", 3, ${HIT_START}, ${HIT_END}, '…', ${SNIPPET_TOKENS}) as "body"
        from "content_search_fts"
        join "content_search" s on s."docId" = "content_search_fts"."rowid"
        where "content_search_fts" match ${toFts5Query(words, !exact)} and ${docRange(ids)}
          and s."contentId" in (${ids}) and s."body" <> ''`;
    const { rows } = await query.execute(db);
    return new Map(rows.map((r) => [r.contentId, r.body]));
  }

  return {
    search,
    highlightMeta,
    bodySnippets,

    /** Adds or replaces an item's document (unchanged text leaves the index untouched). */
    async upsert(doc: SearchDocument, indexedAt: string, executor: Kysely<DB> = db): Promise<void> {
      await executor
        .insertInto("content_search")
        .values({ ...doc, indexedAt })
        .onConflict((oc) =>
          oc
            .column("contentId")
            .doUpdateSet((eb) => ({
              title: eb.ref("excluded.title"),
              excerpt: eb.ref("excluded.excerpt"),
              tags: eb.ref("excluded.tags"),
              body: eb.ref("excluded.body"),
              indexedAt: eb.ref("excluded.indexedAt"),
            }))
            .where((eb) =>
              eb.or([
                eb("content_search.title", "<>", eb.ref("excluded.title")),
                eb("content_search.excerpt", "<>", eb.ref("excluded.excerpt")),
                eb("content_search.tags", "<>", eb.ref("excluded.tags")),
                eb("content_search.body", "<>", eb.ref("excluded.body")),
              ]),
            ),
        )
        .execute();
    },

    async remove(contentId: string, executor: Kysely<DB> = db): Promise<void> {
      await executor.deleteFrom("content_search").where("contentId", "=", contentId).execute();
    },

    /** True when nothing is indexed although content exists (two single-row look-ups). */
    async needsFullIndex(): Promise<boolean> {
      const indexed = await db.selectFrom("content_search").select("contentId").limit(1).executeTakeFirst();
      if (indexed) return false;
      return Boolean(await db.selectFrom("content").select("id").limit(1).executeTakeFirst());
    },

    /** Content ids in id order after `afterId`; with `missingOnly`, those without a document. */
    async contentIds(afterId: string | null, limit: number, missingOnly = false): Promise<string[]> {
      let query = db.selectFrom("content").select("content.id").orderBy("content.id").limit(limit);
      if (afterId !== null) query = query.where("content.id", ">", afterId);
      if (missingOnly) {
        query = query.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("content_search")
                .select("content_search.contentId")
                .whereRef("content_search.contentId", "=", "content.id"),
            ),
          ),
        );
      }
      return (await query.execute()).map((r) => r.id);
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom("content_search")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type SearchRepo = ReturnType<typeof createSearchRepo>;
