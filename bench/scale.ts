/**
 * `npm run bench:scale`: the reader-facing list and search at 1,000, 100,000 and 1,000,000 content
 * items. Items are generated in batches of multi-row inserts (one transaction per batch) into a
 * temporary SQLite database, and also into a fresh PostgreSQL schema when `--pg` is given or
 * `TEST_DATABASE_URL` is set. The library grows from one size to the next (1k, then 99k more, …)
 * and at each size the content and search services are timed in-process, with their caches
 * dropped before every call (what a cache miss costs): p50 and p99 per query, then a table, the
 * ratio of each p50 to the one at the smallest size, and JSON.
 *
 * Text is drawn from a 256-word vocabulary with a skewed (product of two uniforms) distribution,
 * so "prompt" is a common word (in about a quarter of the items) and "quillwort" a rare one.
 *
 * SCALE_SIZES (default 1000,100000,1000000), SCALE_RUNS (most runs per query, default 200),
 * SCALE_SECONDS (time per query, default 3), SCALE_BATCH (rows per insert, default 500),
 * SCALE_KEEP=1 (keep the SQLite database and print where), SCALE_DIALECTS (default "sqlite", plus
 * "postgres" with `--pg` or TEST_DATABASE_URL; e.g. SCALE_DIALECTS=postgres for PostgreSQL only).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import pino from "pino";
import { buildUserContext, visitorContext } from "../core/index.ts";
import { PERSONA_CLAIMS } from "../core/test-personas.ts";
import { createDatabase, type Database } from "../server/db/database.ts";
import { migrateToLatest } from "../server/db/migrate.ts";
import type { DB } from "../server/db/schema.ts";
import { type Actor, actorForCredential } from "../server/modules/actor.ts";
import { contentBodyKeyOf } from "../server/modules/content/body-key.ts";
import { createContentService } from "../server/modules/content/content.service.ts";
import { createSearchService } from "../server/modules/search/search.service.ts";
import { createSearchIndexer } from "../server/modules/search/search-indexer.ts";
import { LocalObjectStore } from "../server/storage/local-store.ts";

const sizes = (process.env.SCALE_SIZES ?? "1000,100000,1000000")
  .split(",")
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0)
  .sort((a, b) => a - b);
const maxRuns = Number(process.env.SCALE_RUNS ?? 200);
const secondsPerQuery = Number(process.env.SCALE_SECONDS ?? 3);
const batchSize = Number(process.env.SCALE_BATCH ?? 500);
const pgUrl =
  process.env.TEST_DATABASE_URL ??
  (process.argv.includes("--pg") ? "postgres://postgres@127.0.0.1:5432/test" : undefined);

// ---------------------------------------------------------------------------------------------
// Generated text

const REAL_WORDS = [
  "guide",
  "model",
  "team",
  "data",
  "agent",
  "workflow",
  "review",
  "policy",
  "course",
  "lesson",
  "writing",
  "summary",
  "prompt",
  "context",
  "evaluation",
  "security",
  "privacy",
  "meeting",
  "customer",
  "report",
  "search",
  "training",
  "automation",
  "assistant",
  "research",
  "design",
  "checklist",
  "example",
  "template",
  "pipeline",
  "governance",
  "quality",
  "retrieval",
  "vision",
  "speech",
  "analysis",
  "planning",
  "support",
  "feedback",
  "benchmark",
];
const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "pe", "so", "du", "fa", "gi", "ho"];
const VOCAB: string[] = [...REAL_WORDS];
for (let n = 0; VOCAB.length < 255; n++) {
  const a = SYLLABLES[n % SYLLABLES.length]!;
  const b = SYLLABLES[Math.floor(n / SYLLABLES.length) % SYLLABLES.length]!;
  const c = SYLLABLES[Math.floor(n / 7) % SYLLABLES.length]!;
  VOCAB.push(`${a}${b}${c}n`);
}
VOCAB.push("quillwort");
const COMMON = "prompt";
const RARE = "quillwort";
/** Twelve common words (the most a search takes): matches are few, each word's list is long. */
const TWELVE_WORDS = REAL_WORDS.slice(0, 12).join(" ");
const SECTIONS = ["ai-education", "workforce-tools", "resources", "ai-news", "documentation"];
const TIERS = ["Free", "Free", "Free", "Free", "Free", "Basic", "Basic", "Basic", "Pro", "Enterprise"];

/** A small deterministic PRNG (mulberry32), seeded per item so every run generates the same text. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function words(next: () => number, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(VOCAB[Math.floor(VOCAB.length * next() * next())]!);
  return out;
}

const BASE_MS = Date.parse("2020-01-01T00:00:00.000Z");

function item(i: number) {
  const next = rng(i * 2654435761);
  const title = words(next, 6).join(" ");
  const excerpt = words(next, 14).join(" ");
  const tags = [...new Set(words(next, 3))];
  const body = words(next, 40).join(" ");
  const slug = `scale-item-${i}`;
  const tier = TIERS[i % TIERS.length]!;
  const section = SECTIONS[i % SECTIONS.length]!;
  const categorySlug = `scale-${section}`;
  const at = new Date(BASE_MS + i * 60_000).toISOString();
  const epoch = BASE_MS + i * 60_000;
  return {
    content: {
      id: `scale-${String(i).padStart(8, "0")}`,
      type: "article",
      title,
      slug,
      status: i % 20 === 0 ? "draft" : "published",
      section,
      categorySlug,
      tier,
      createdAt: at,
      updatedAt: at,
      publishedAt: at,
      createdEpoch: epoch,
      updatedEpoch: epoch,
      publishedEpoch: epoch,
      excerpt,
      tags: JSON.stringify(tags),
      rolesRequired: i % 100 === 7 ? '["content-manager"]' : "[]",
      bodyS3Key: contentBodyKeyOf({ tier, categorySlug, slug }),
      bodySize: body.length * 12,
    },
    search: { title, excerpt, tags: tags.join(", "), body },
  };
}

// ---------------------------------------------------------------------------------------------
// Loading

async function addItems(db: Kysely<DB>, pg: boolean, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += batchSize) {
    const end = Math.min(to, start + batchSize);
    const rows = Array.from({ length: end - start }, (_, k) => item(start + k + 1));
    const indexedAt = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("content")
        .values(rows.map((r) => r.content))
        .execute();
      await trx
        .insertInto("content_search")
        .values(rows.map((r) => ({ contentId: r.content.id, ...r.search, indexedAt })))
        .execute();
    });
    if ((end - from) % 50_000 < batchSize) {
      process.stdout.write(`  ${pg ? "postgres" : "sqlite"}: ${end.toLocaleString("en")} items\r`);
    }
  }
  process.stdout.write("\n");
}

/** PostgreSQL: the GIN indexes are dropped while a large batch loads and built again after. */
async function withoutGin(db: Kysely<DB>, load: () => Promise<void>): Promise<void> {
  await sql`drop index if exists "content_search_metaVector_idx"`.execute(db);
  await sql`drop index if exists "content_search_documentVector_idx"`.execute(db);
  await load();
  await sql`create index "content_search_metaVector_idx" on "content_search" using gin ("metaVector")`.execute(
    db,
  );
  await sql`create index "content_search_documentVector_idx" on "content_search" using gin ("documentVector")`.execute(
    db,
  );
}

// ---------------------------------------------------------------------------------------------
// Timing

interface Row {
  dialect: string;
  items: number;
  query: string;
  runs: number;
  p50Ms: number;
  p99Ms: number;
  found: number | null;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function time(
  name: string,
  dropCaches: () => void,
  run: () => Promise<number | null>,
): Promise<Omit<Row, "dialect" | "items">> {
  let found: number | null = null;
  for (let i = 0; i < 3; i++) {
    dropCaches();
    found = await run();
  }
  const samples: number[] = [];
  const until = performance.now() + secondsPerQuery * 1000;
  while (samples.length < maxRuns && (samples.length < 5 || performance.now() < until)) {
    dropCaches();
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    query: name,
    runs: samples.length,
    p50Ms: round(percentile(samples, 50)),
    p99Ms: round(percentile(samples, 99)),
    found,
  };
}

const person = (name: keyof typeof PERSONA_CLAIMS): Actor =>
  actorForCredential({ kind: "session", context: buildUserContext(PERSONA_CLAIMS[name]), scopes: null });

async function measure(
  database: Database,
  storageDir: string,
  dialect: string,
  items: number,
): Promise<Row[]> {
  const db = database.db;
  const listeners = new Set<() => void>();
  const changes = {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const dropCaches = () => {
    for (const l of listeners) l();
  };
  const logger = pino({ level: "silent" });
  const storage = new LocalObjectStore(storageDir);
  const content = createContentService({ db, storage, changes });
  const indexer = createSearchIndexer({ db, storage, logger });
  const search = createSearchService({
    db,
    indexer,
    summarize: content.summarize,
    changes,
    logger,
  });
  const visitor = actorForCredential({ kind: "visitor", context: visitorContext(), scopes: null });
  const pro = person("pro");
  const second = await content.list(visitor, { publishedOnly: true, limit: 15 });

  const queries: Array<[string, () => Promise<number | null>]> = [
    [
      "list, first page (visitor)",
      async () => (await content.list(visitor, { publishedOnly: true, limit: 15 })).items.length,
    ],
    [
      "list, page 2 (cursor)",
      async () =>
        (await content.list(visitor, { publishedOnly: true, limit: 15, cursor: second.nextCursor })).items
          .length,
    ],
    [
      "list, one section (Pro reader)",
      async () =>
        (await content.list(pro, { publishedOnly: true, limit: 15, section: "ai-news" })).items.length,
    ],
    [`search "${COMMON}" (visitor)`, async () => (await search.search(visitor, { q: COMMON })).total],
    [`search "${COMMON}" (Pro reader)`, async () => (await search.search(pro, { q: COMMON })).total],
    [
      `search "${COMMON} agent" (Pro reader)`,
      async () => (await search.search(pro, { q: `${COMMON} agent` })).total,
    ],
    [`search "${RARE}" (visitor)`, async () => (await search.search(visitor, { q: RARE })).total],
    ['search "promp" (a word being typed)', async () => (await search.search(visitor, { q: "promp" })).total],
    [`search twelve words (Pro reader)`, async () => (await search.search(pro, { q: TWELVE_WORDS })).total],
    [
      'search "nothingmatches" (visitor)',
      async () => (await search.search(visitor, { q: "nothingmatches" })).total,
    ],
  ];
  const rows: Row[] = [];
  for (const [name, run] of queries) rows.push({ dialect, items, ...(await time(name, dropCaches, run)) });
  await search.flushCounts();
  return rows;
}

// ---------------------------------------------------------------------------------------------

/**
 * SCALE_REUSE=<name>: every size gets its own database that is kept and reused by later runs
 * (SQLite: <tmpdir>/lumen-scale-<name>/scale_<name>_<size>.db; PostgreSQL: database
 * scale_<name>_<size> beside the one in the URL),
 * so a change to the queries can be measured again without generating a million items again. A
 * database that already holds the size is not loaded again; remove it by hand when done.
 */
const reuse = process.env.SCALE_REUSE?.replace(/[^a-z0-9_]/gi, "");

async function openDatabase(dialect: "sqlite" | "postgres", dir: string, schema: string): Promise<Database> {
  if (dialect === "postgres" && reuse) {
    // A database of its own: Kysely's migrator finds its tables in any schema of a database.
    const admin = createDatabase(pgUrl!);
    const { rows } = await sql`select 1 from pg_database where datname = ${schema}`.execute(admin.db);
    if (rows.length === 0) await sql`create database ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    const url = new URL(pgUrl!);
    url.pathname = `/${schema}`;
    return createDatabase(url.toString());
  }
  if (dialect === "postgres") {
    const admin = createDatabase(pgUrl!);
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    return createDatabase(pgUrl!, { searchPath: schema });
  }
  return createDatabase(path.join(dir, `${schema}.db`));
}

async function load(database: Database, dialect: "sqlite" | "postgres", have: number, size: number) {
  const started = performance.now();
  const add = () => addItems(database.db, dialect === "postgres", have, size);
  if (dialect === "postgres" && size - have > 10_000) await withoutGin(database.db, add);
  else await add();
  await sql.raw(dialect === "postgres" ? "analyze" : "pragma optimize").execute(database.db);
  console.log(
    `${dialect}: ${size.toLocaleString("en")} items loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function countItems(database: Database): Promise<number> {
  const row = await database.db
    .selectFrom("content")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function runDialect(dialect: "sqlite" | "postgres"): Promise<Row[]> {
  const rows: Row[] = [];
  const report = async (database: Database, dir: string, size: number) => {
    const measured = await measure(database, path.join(dir, "objects"), dialect, size);
    for (const r of measured) {
      console.log(`  ${r.query}: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms (${r.runs} runs, found ${r.found})`);
    }
    rows.push(...measured);
  };
  if (reuse) {
    const dir = path.join(tmpdir(), `lumen-scale-${reuse}`);
    mkdirSync(dir, { recursive: true });
    for (const size of sizes) {
      const database = await openDatabase(dialect, dir, `scale_${reuse}_${size}`);
      try {
        await migrateToLatest(database.db);
        const have = await countItems(database);
        if (have > size) throw new Error(`${dialect} database for ${size} holds ${have} items`);
        if (have < size) await load(database, dialect, have, size);
        else console.log(`${dialect}: ${size.toLocaleString("en")} items reused`);
        await report(database, dir, size);
      } finally {
        await database.close();
      }
    }
    return rows;
  }
  const dir = mkdtempSync(path.join(tmpdir(), "lumen-scale-"));
  const schema = `scale_${process.pid}_${Date.now()}`;
  const database = await openDatabase(dialect, dir, dialect === "postgres" ? schema : "scale");
  try {
    await migrateToLatest(database.db);
    let have = 0;
    for (const size of sizes) {
      await load(database, dialect, have, size);
      have = size;
      await report(database, dir, size);
    }
  } finally {
    if (dialect === "postgres") await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
    await database.close();
    if (process.env.SCALE_KEEP === "1") console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const dialects = (process.env.SCALE_DIALECTS ?? (pgUrl ? "sqlite,postgres" : "sqlite")).split(",");
const all: Row[] = [];
if (dialects.includes("sqlite")) all.push(...(await runDialect("sqlite")));
if (pgUrl && dialects.includes("postgres")) all.push(...(await runDialect("postgres")));

const smallest = new Map<string, number>();
for (const r of all) {
  const key = `${r.dialect}|${r.query}`;
  if (!smallest.has(key)) smallest.set(key, r.p50Ms);
}
const table = all.map((r) => ({
  ...r,
  ratioToSmallest:
    Math.round((r.p50Ms / Math.max(0.01, smallest.get(`${r.dialect}|${r.query}`)!)) * 100) / 100,
}));
console.log("");
console.log(
  ["dialect", "items", "query", "p50 ms", "p99 ms", "× p50 at smallest", "runs", "found"]
    .map((h, i) => (i === 2 ? h.padEnd(36) : h.padStart(i === 0 ? 8 : 10)))
    .join(" "),
);
for (const r of table) {
  console.log(
    [
      r.dialect.padStart(8),
      r.items.toLocaleString("en").padStart(10),
      r.query.padEnd(36),
      r.p50Ms.toFixed(2).padStart(10),
      r.p99Ms.toFixed(2).padStart(10),
      r.ratioToSmallest.toFixed(2).padStart(10),
      String(r.runs).padStart(10),
      String(r.found ?? "").padStart(10),
    ].join(" "),
  );
}
console.log("");
console.log(JSON.stringify({ sizes, rows: table }, null, 2));
