import { getMigrations } from "better-auth/db/migration";
import { organization, username } from "better-auth/plugins";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BadInputError } from "../errors.ts";
import { createDatabase, type Dialect, dialectFromUrl, dialectOf } from "./database.ts";
import { fromJson, stringListSchema, toJson } from "./json.ts";
import { migrateToLatest, migrationStatus } from "./migrate.ts";
import { migrations } from "./migrations/index.ts";
import { clampLimit, decodeCursor, encodeCursor, timeCursorSchema } from "./pagination.ts";
import { TABLE_NAMES } from "./schema.ts";
import { NodeSqliteDatabase } from "./sqlite-dialect.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "./test-database.ts";

/** Every index the migrations create: name → [table, leading columns, unique]. */
const EXPECTED_INDEXES: Record<string, [string, string[], boolean]> = {
  content_slug_uidx: ["content", ["slug"], true],
  content_status_updatedAt_idx: ["content", ["status", "updatedAt"], false],
  content_categoryTier_publishedAt_idx: ["content", ["categoryTier", "publishedAt"], false],
  content_section_publishedAt_idx: ["content", ["section", "publishedAt"], false],
  content_tier_publishedAt_idx: ["content", ["tier", "publishedAt"], false],
  content_authorId_updatedAt_idx: ["content", ["authorId", "updatedAt"], false],
  content_categoryId_publishedAt_idx: ["content", ["categoryId", "publishedAt"], false],
  content_categorySlug_publishedAt_idx: ["content", ["categorySlug", "publishedAt"], false],
  content_featured_publishedAt_idx: ["content", ["featured", "publishedAt"], false],
  content_publishedAt_idx: ["content", ["publishedAt", "id"], false],
  // The scheduling job's look-up of due items and an item's workflow history (migration 021).
  content_scheduled_idx: ["content", ["workflowStatus", "publishedEpoch"], false],
  content_workflow_event_contentId_at_idx: ["content_workflow_event", ["contentId", "at"], false],
  content_category_slug_uidx: ["content_category", ["slug"], true],
  content_item_contentId_idx: ["content_item", ["contentId"], false],
  content_item_slug_idx: ["content_item", ["slug"], false],
  user_subscription_userId_idx: ["user_subscription", ["userId"], false],
  user_subscription_tenantId_tier_idx: ["user_subscription", ["tenantId", "tier"], false],
  comment_contentId_createdAt_idx: ["comment", ["contentId", "createdAt"], false],
  comment_authorId_createdAt_idx: ["comment", ["authorId", "createdAt"], false],
  github_repository_owner_idx: ["github_repository", ["owner"], false],
  github_repository_slug_uidx: ["github_repository", ["slug"], true],
  github_repository_category_sortOrder_idx: ["github_repository", ["category", "sortOrder"], false],
  repository_category_slug_uidx: ["repository_category", ["slug"], true],
  repository_file_repositoryId_path_uidx: ["repository_file", ["repositoryId", "path"], true],
  repository_branch_repositoryId_name_uidx: ["repository_branch", ["repositoryId", "name"], true],
  session_userId_idx: ["session", ["userId"], false],
  account_userId_idx: ["account", ["userId"], false],
  verification_identifier_idx: ["verification", ["identifier"], false],
  user_group_groupName_idx: ["user_group", ["groupName"], false],
  audit_log_at_idx: ["audit_log", ["at"], false],
  audit_log_actorId_at_idx: ["audit_log", ["actorId", "at"], false],
};

interface IndexInfo {
  table: string;
  columns: string[];
  unique: boolean;
}

async function listTables(t: TestDatabase): Promise<string[]> {
  if (t.dialect === "postgres") {
    const r = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.db);
    return r.rows.map((x) => x.name);
  }
  const r = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(t.db);
  return r.rows.map((x) => x.name);
}

async function listIndexes(t: TestDatabase): Promise<Map<string, IndexInfo>> {
  const out = new Map<string, IndexInfo>();
  if (t.dialect === "postgres") {
    const r = await sql<{ table: string; name: string; unique: boolean; column: string; position: number }>`
      select t.relname as "table", i.relname as name, ix.indisunique as "unique",
             a.attname as "column", k.ord as position
      from pg_index ix
      join pg_class i on i.oid = ix.indexrelid
      join pg_class t on t.oid = ix.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      cross join lateral unnest(ix.indkey) with ordinality as k(attnum, ord)
      join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
      where n.nspname = current_schema()
      order by i.relname, k.ord`.execute(t.db);
    for (const row of r.rows) {
      const entry = out.get(row.name) ?? { table: row.table, columns: [], unique: row.unique };
      entry.columns.push(row.column);
      out.set(row.name, entry);
    }
    return out;
  }
  const r = await sql<{ table: string; name: string; unique: number; column: string; position: number }>`
    select m.name as "table", il.name as name, il."unique" as "unique", ii.name as "column", ii.seqno as position
    from sqlite_master m
    join pragma_index_list(m.name) il
    join pragma_index_info(il.name) ii
    where m.type = 'table'
    order by il.name, ii.seqno`.execute(t.db);
  for (const row of r.rows) {
    const entry = out.get(row.name) ?? { table: row.table, columns: [], unique: row.unique === 1 };
    entry.columns.push(row.column);
    out.set(row.name, entry);
  }
  return out;
}

describe.each(testDialects())("database on %s", (dialect: Dialect) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await openTestDatabase(dialect, { migrate: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("applies every migration on an empty database, and a second run changes nothing", async () => {
    expect(dialectOf(t.db)).toBe(dialect);
    const before = await migrationStatus(t.db);
    expect(before.every((m) => m.executedAt === null)).toBe(true);

    const first = await migrateToLatest(t.db);
    expect(first.map((r) => r.migrationName)).toEqual(Object.keys(migrations));
    expect(first.every((r) => r.status === "Success")).toBe(true);

    const second = await migrateToLatest(t.db);
    expect(second).toEqual([]);
    const after = await migrationStatus(t.db);
    expect(after.map((m) => m.name)).toEqual(Object.keys(migrations));
    expect(after.every((m) => m.executedAt !== null)).toBe(true);
  });

  it("creates every table", async () => {
    const tables = await listTables(t);
    for (const table of TABLE_NAMES) expect(tables, table).toContain(table);
  });

  it("creates every index with its columns and uniqueness", async () => {
    const indexes = await listIndexes(t);
    for (const [name, [table, columns, unique]] of Object.entries(EXPECTED_INDEXES)) {
      const found = indexes.get(name);
      expect(found, name).toBeDefined();
      expect(found?.table, name).toBe(table);
      expect(found?.columns.slice(0, columns.length), name).toEqual(columns);
      expect(found?.unique, name).toBe(unique);
    }
    // unique columns declared inline (Better Auth's style)
    const uniqueColumns = [...indexes.values()]
      .filter((i) => i.unique)
      .map((i) => `${i.table}.${i.columns.join(",")}`);
    for (const column of ["user.email", "user.username", "session.token", "organization.slug"]) {
      expect(uniqueColumns, column).toContain(column);
    }
  });

  it("leaves nothing for Better Auth to change in its core tables (nor in the username/organization columns)", async () => {
    const warnings: string[] = [];
    const logger = {
      level: "warn" as const,
      log: (level: string, message: string) => {
        if (level === "warn" || level === "error") warnings.push(message);
      },
    };
    const core = await getMigrations({
      database: { db: t.db, type: dialect },
      emailAndPassword: { enabled: true },
      secret: "a".repeat(40),
      logger,
    });
    expect(core.toBeCreated).toEqual([]);
    expect(core.toBeAdded).toEqual([]);
    expect(core.toBeAddedIndexes).toEqual([]);
    expect(core.schemaProblems).toEqual([]);

    const withPlugins = await getMigrations({
      database: { db: t.db, type: dialect },
      emailAndPassword: { enabled: true },
      secret: "a".repeat(40),
      logger,
      plugins: [username(), organization()],
    });
    expect(withPlugins.toBeCreated.map((c) => c.table)).not.toContain("organization");
    expect(withPlugins.toBeAdded.map((a) => a.table)).not.toContain("user");
    expect(withPlugins.toBeAdded.map((a) => a.table)).not.toContain("organization");
    expect(warnings).toEqual([]);
  });

  it("answers ping", async () => {
    const ping = await t.ping();
    expect(ping.ok).toBe(true);
    expect(ping.latencyMs).toBeGreaterThanOrEqual(0);
    expect(ping.error).toBeUndefined();
  });
});

describe("SQLite specifics", () => {
  it("opens a file database in WAL mode with foreign keys, synchronous=FULL and a busy timeout", async () => {
    const t = await openTestDatabase("sqlite", { file: true });
    try {
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`PRAGMA ${name}`).execute(t.db)).rows[0] as Record<string, unknown>)[0];
      expect(String(await pragma("journal_mode")).toLowerCase()).toBe("wal");
      expect(Number(await pragma("foreign_keys"))).toBe(1);
      expect(Number(await pragma("synchronous"))).toBe(2); // FULL
      expect(Number(await pragma("busy_timeout"))).toBe(5000);
    } finally {
      await t.close();
    }
  });

  it("creates the parent folders of the database file and can be closed twice", async () => {
    const t = await openTestDatabase("sqlite", { file: true });
    expect(t.path).toMatch(/nested[/\\]app\.db$/);
    await t.close();
    await t.close();
  });

  it("binds booleans as 0/1 and Dates as ISO strings", () => {
    const database = new NodeSqliteDatabase(":memory:");
    try {
      const stmt = database.prepare("select ? as t, ? as f, ? as d, ? as n");
      expect(stmt.reader).toBe(true);
      const when = new Date("2026-03-04T05:06:07.089Z");
      expect(stmt.all([true, false, when, undefined])).toEqual([
        { t: 1, f: 0, d: "2026-03-04T05:06:07.089Z", n: null },
      ]);
      const write = database.prepare("create table x (a integer)");
      expect(write.reader).toBe(false);
      write.run([]);
      expect(database.prepare("insert into x values (?)").run([true])).toMatchObject({ changes: 1 });
      expect([...database.prepare("select a from x").iterate([])]).toEqual([{ a: 1 }]);
    } finally {
      database.close();
      database.close();
    }
  });

  it("runs Kysely transactions with begin immediate and rolls back on error", async () => {
    const database = createDatabase(":memory:");
    try {
      await sql`create table t (v integer)`.execute(database.db);
      await expect(
        database.db.transaction().execute(async (trx) => {
          await sql`insert into t values (1)`.execute(trx);
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(database.db);
      expect(rows.rows[0]?.n).toBe(0);
    } finally {
      await database.close();
    }
  });

  it("reports a failed ping without throwing", async () => {
    const database = createDatabase(":memory:");
    await database.close();
    const ping = await database.ping();
    expect(ping.ok).toBe(false);
    expect(typeof ping.error).toBe("string");
  });

  it("names the failing migration", async () => {
    const database = createDatabase(":memory:");
    try {
      await sql`create table "user" (id text)`.execute(database.db);
      await expect(migrateToLatest(database.db)).rejects.toThrow(
        /migration failed in migration "001-identity"/,
      );
    } finally {
      await database.close();
    }
  });
});

describe.runIf(testDialects().includes("postgres"))("PostgreSQL replicas", () => {
  it("migrate once when several start together on an empty schema", async () => {
    const t = await openTestDatabase("postgres", { migrate: false });
    const url = process.env.TEST_DATABASE_URL ?? "";
    const replicas = [1, 2, 3].map(() => createDatabase(url, { searchPath: t.schema, maxConnections: 2 }));
    try {
      const results = await Promise.all([t, ...replicas].map((d) => migrateToLatest(d.db)));
      const applied = results.map((r) => r.length).sort();
      expect(applied).toEqual([0, 0, 0, Object.keys(migrations).length]);
      expect((await migrationStatus(t.db)).every((m) => m.executedAt !== null)).toBe(true);
    } finally {
      for (const r of replicas) await r.close();
      await t.close();
    }
  });
});

describe("PostgreSQL URLs", () => {
  it("choose the pg dialect, and an unreachable server gives a failed ping, not an exception", async () => {
    expect(dialectFromUrl("postgresql://u@h/db")).toBe("postgres");
    expect(dialectFromUrl("POSTGRES://u@h/db")).toBe("postgres");
    expect(dialectFromUrl("./data/app.db")).toBe("sqlite");
    expect(dialectFromUrl(":memory:")).toBe("sqlite");
    const database = createDatabase("postgres://nobody@127.0.0.1:1/none");
    try {
      expect(database.dialect).toBe("postgres");
      expect(dialectOf(database.db)).toBe("postgres");
      const ping = await database.ping();
      expect(ping.ok).toBe(false);
      expect(ping.error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await database.close();
    }
  });

  it("refuse a search path that is not a plain schema name", () => {
    expect(() => createDatabase("postgres://u@127.0.0.1:1/db", { searchPath: "x; drop table y" })).toThrow(
      /plain schema name/,
    );
  });
});

describe("helpers", () => {
  it("validates JSON with zod on write and on read", () => {
    expect(toJson(stringListSchema, ["a", "b"], "tags")).toBe('["a","b"]');
    expect(() => toJson(stringListSchema, [1] as unknown as string[], "tags")).toThrow(BadInputError);
    expect(fromJson(stringListSchema, '["x"]', "tags")).toEqual(["x"]);
    expect(() => fromJson(stringListSchema, "{not json", "tags")).toThrow(/not JSON/);
    expect(() => fromJson(stringListSchema, '{"a":1}', "tags")).toThrow(/unexpected shape/);
  });

  it("clamps limits to 1..100", () => {
    expect(clampLimit(undefined)).toBe(20);
    expect(clampLimit(0)).toBe(1);
    expect(clampLimit(-5)).toBe(1);
    expect(clampLimit(1000)).toBe(100);
    expect(clampLimit(Number.NaN)).toBe(20);
    expect(clampLimit(7.9)).toBe(7);
  });

  it("round-trips cursors and rejects malformed ones with BAD_USER_INPUT", () => {
    const schema = timeCursorSchema("publishedAt");
    const cursor = encodeCursor({ publishedAt: "2026-01-02T03:04:05.000Z", id: "abc" });
    expect(decodeCursor(schema, cursor)).toEqual({ publishedAt: "2026-01-02T03:04:05.000Z", id: "abc" });
    for (const bad of [
      "!!!",
      "bm90IGpzb24",
      encodeCursor({ publishedAt: "yesterday", id: "x" }),
      encodeCursor({ id: "x" }),
      encodeCursor({ publishedAt: "2026-01-02T03:04:05.000Z", id: "x", extra: 1 }),
      "a".repeat(5000),
    ]) {
      expect(() => decodeCursor(schema, bad), bad.slice(0, 20)).toThrow(BadInputError);
      try {
        decodeCursor(schema, bad);
      } catch (error) {
        expect((error as BadInputError).code).toBe("BAD_USER_INPUT");
      }
    }
  });
});
