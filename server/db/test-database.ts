/**
 * Test support (imported by integration tests only): a migrated database per dialect.
 *
 * SQLite always (in memory, or a file when asked); PostgreSQL when TEST_DATABASE_URL is set, in a
 * fresh schema with a random name (search_path set on every pooled connection), dropped on close,
 * so parallel runs and other test files never see each other's rows.
 *
 *   describe.each(testDialects())("%s", (dialect) => {
 *     let t: TestDatabase;
 *     beforeAll(async () => { t = await openTestDatabase(dialect); });
 *     afterAll(() => t.close());
 *   });
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createDatabase, type Database, type Dialect } from "./database.ts";
import { migrateToLatest } from "./migrate.ts";

export interface TestDatabase extends Database {
  /** PostgreSQL: the schema holding this database's tables. */
  schema?: string;
  /** SQLite file databases: the file path. */
  path?: string;
}

/**
 * The dialects to run on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. `TEST_DIALECTS`
 * (a comma list, e.g. `postgres`) narrows it, so the two database passes can run side by side in
 * separate processes (`scripts/test-integration.ts`).
 */
export function testDialects(): Dialect[] {
  const available: Dialect[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
  const only = process.env.TEST_DIALECTS?.split(",").map((d) => d.trim());
  return only ? available.filter((d) => only.includes(d)) : available;
}

export interface OpenTestDatabaseOptions {
  /** Run the migrations (default true). */
  migrate?: boolean;
  /** SQLite: use a file in a fresh temporary folder instead of `:memory:`. */
  file?: boolean;
}

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function openTestDatabase(
  dialect: Dialect,
  options: OpenTestDatabaseOptions = {},
): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;

  if (dialect === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("TEST_DATABASE_URL is not set");
    const schema = `test_${randomBytes(6).toString("hex")}`;
    await withAdminClient(url, (c) => c.query(`create schema "${schema}"`));
    const database = createDatabase(url, { searchPath: schema, maxConnections: 5 });
    const close = async () => {
      await database.close();
      await withAdminClient(url, (c) => c.query(`drop schema if exists "${schema}" cascade`));
    };
    try {
      if (migrate) await migrateToLatest(database.db);
    } catch (error) {
      await close();
      throw error;
    }
    return { ...database, schema, close };
  }

  let dir: string | undefined;
  let path = ":memory:";
  if (options.file) {
    dir = mkdtempSync(join(tmpdir(), "lumen-db-"));
    path = join(dir, "nested", "app.db");
  }
  const database = createDatabase(path);
  const close = async () => {
    await database.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (migrate) await migrateToLatest(database.db);
  } catch (error) {
    await close();
    throw error;
  }
  return { ...database, ...(options.file ? { path } : {}), close };
}
