/**
 * One Kysely instance per process, on SQLite (`node:sqlite`, the embedded default) or PostgreSQL
 * (`pg`, scale-out), chosen by the URL.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { BadInputError } from "../errors.ts";
import { type Dialect, dialectFromUrl } from "./dialect.ts";
import type { DB } from "./schema.ts";
import { NodeSqliteDatabase, NodeSqliteDialect } from "./sqlite-dialect.ts";

export { type Dialect, dialectFromUrl, dialectOf } from "./dialect.ts";
export type { DB } from "./schema.ts";

export interface PingResult {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** SQLite: the database file (null for `:memory:`); PostgreSQL: null. For backups and checks. */
  file: string | null;
  /** Closes the pool or the SQLite file. Safe to call more than once. */
  close(): Promise<void>;
  /** A `select 1` round trip, failed after `timeoutMs` (default 3000); never throws. */
  ping(timeoutMs?: number): Promise<PingResult>;
  /** PostgreSQL: the pool's connections now (metrics); SQLite: null (one connection). */
  poolStats(): PoolStats | null;
}

export interface PoolStats {
  /** Connections open (idle or lent out). */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

export interface CreateDatabaseOptions {
  /** PostgreSQL: the `search_path` every pooled connection starts with (used for test isolation). */
  searchPath?: string;
  /** PostgreSQL: pool size. Default 10. */
  maxConnections?: number;
  /** PostgreSQL: application_name shown in pg_stat_activity. Default "lumen-hub". */
  applicationName?: string;
}

const PG_INT8_OID = 20;
const PING_TIMEOUT_MS = 3000;

/**
 * Per-pool type parsers (the global `pg.types` is left alone): int8 (bigint columns, count(*))
 * becomes a JS number. Epoch milliseconds and counters stay far below 2^53.
 */
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === PG_INT8_OID && format !== "binary") return (value: string) => Number(value);
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads do not accept a union format
    return pg.types.getTypeParser(oid, format as any);
  },
};

/**
 * PostgreSQL text cannot hold the NUL character: a parameter with one would fail as a server error
 * ("invalid byte sequence for encoding UTF8: 0x00"). It is bad input, whatever it came from (a
 * slug, a search term, a JSON field), so such a query is refused before it is sent, as a
 * `BadInputError` (HTTP 400, GraphQL BAD_USER_INPUT). SQLite stores it; no check there.
 */
class NulRefusingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; only (text, values) is checked
  override query(...args: any[]): any {
    const values = args[1];
    if (Array.isArray(values) && values.some((v) => typeof v === "string" && v.includes("\u0000"))) {
      const error = new BadInputError("text may not contain the NUL character (\\0)");
      if (typeof args[2] === "function") {
        process.nextTick(args[2], error);
        return undefined;
      }
      return Promise.reject(error);
    }
    // biome-ignore lint/suspicious/noExplicitAny: forwarded as given
    return (super.query as (...a: any[]) => any)(...args);
  }
}

function sqlitePath(url: string): string {
  if (url === ":memory:") return url;
  if (url.startsWith("file:")) return fileURLToPath(url);
  if (url.startsWith("sqlite:")) return url.slice("sqlite:".length).replace(/^\/\//, "");
  return url;
}

function safeMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

export function createDatabase(url: string, options: CreateDatabaseOptions = {}): Database {
  const dialect = dialectFromUrl(url);
  let db: Kysely<DB>;
  let closeExtra: () => void = () => {};
  let file: string | null = null;
  let poolStats: () => PoolStats | null = () => null;

  if (dialect === "postgres") {
    if (options.searchPath !== undefined && !/^[A-Za-z_][A-Za-z0-9_$]*$/.test(options.searchPath)) {
      throw new Error("searchPath must be a plain schema name");
    }
    const pool = new pg.Pool({
      Client: NulRefusingClient,
      connectionString: url,
      max: options.maxConnections ?? 10,
      // Fail instead of hanging when the server is unreachable (health checks, start-up).
      connectionTimeoutMillis: 5000,
      application_name: options.applicationName ?? "lumen-hub",
      types: pgTypes,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on("error", () => {});
    const max = options.maxConnections ?? 10;
    poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max });
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  } else {
    const path = sqlitePath(url);
    if (path !== ":memory:" && path !== "") {
      mkdirSync(dirname(resolve(path)), { recursive: true });
      file = resolve(path);
    }
    const database = new NodeSqliteDatabase(path);
    closeExtra = () => database.close();
    db = new Kysely<DB>({ dialect: new NodeSqliteDialect(database) });
  }

  let closed: Promise<void> | undefined;
  return {
    db,
    dialect,
    file,
    poolStats: () => poolStats(),
    close() {
      closed ??= (async () => {
        try {
          await db.destroy();
        } finally {
          closeExtra();
        }
      })();
      return closed;
    },
    async ping(timeoutMs = PING_TIMEOUT_MS) {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        });
        await Promise.race([sql`select 1`.execute(db), timeout]);
        return { ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
      } catch (error) {
        return {
          ok: false,
          latencyMs: Math.round((performance.now() - started) * 100) / 100,
          error: safeMessage(error),
        };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
