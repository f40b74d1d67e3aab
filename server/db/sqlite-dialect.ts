/**
 * Kysely dialect for Node's built-in `node:sqlite` (`DatabaseSync`).
 *
 * Kysely's `SqliteDialect` expects a better-sqlite3-like object; `NodeSqliteDatabase` adapts
 * `DatabaseSync` to it. On top of the plain adaptation it:
 * - applies the durability pragmas (WAL, synchronous=FULL, foreign keys, busy timeout) on open;
 * - binds booleans as 0/1, Dates as ISO-8601 strings and `undefined` as NULL;
 * - caches prepared statements (Kysely prepares every query; preparing is the costly part);
 * - turns Kysely's `begin` into `begin immediate`, so a transaction takes the write lock up front
 *   and a second process waits (busy_timeout) instead of failing on a lock upgrade;
 * - declares transactional DDL, so the migrator runs all pending migrations in one transaction.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import {
  type DialectAdapter,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
} from "kysely";

export interface NodeSqliteOptions {
  /** How many prepared statements to keep (least recently used are dropped). Default 500. */
  statementCacheSize?: number;
  /** busy_timeout in milliseconds. Default 5000. */
  busyTimeoutMs?: number;
}

function bindValue(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

function bindAll(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  const out = new Array<SQLInputValue>(parameters.length);
  for (let i = 0; i < parameters.length; i++) out[i] = bindValue(parameters[i]);
  return out;
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #stmt: StatementSync;

  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
    this.reader = stmt.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#stmt.all(...bindAll(parameters));
  }

  run(parameters: ReadonlyArray<unknown>): { changes: number | bigint; lastInsertRowid: number | bigint } {
    const { changes, lastInsertRowid } = this.#stmt.run(...bindAll(parameters));
    return { changes, lastInsertRowid };
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#stmt.iterate(...bindAll(parameters)) as IterableIterator<unknown>;
  }
}

/** A `DatabaseSync` shaped the way Kysely's `SqliteDialect` wants it. */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #cache = new Map<string, NodeSqliteStatement>();
  readonly #cacheSize: number;
  #open = true;

  constructor(path: string, options: NodeSqliteOptions = {}) {
    this.path = path;
    this.#cacheSize = options.statementCacheSize ?? 500;
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.#db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: busyTimeoutMs });
    this.#db.exec(`PRAGMA busy_timeout=${Math.trunc(busyTimeoutMs)}`);
    this.#db.exec("PRAGMA journal_mode=WAL");
    this.#db.exec("PRAGMA synchronous=FULL");
    this.#db.exec("PRAGMA foreign_keys=ON");
  }

  get isOpen(): boolean {
    return this.#open;
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#cache.get(sql);
    if (cached) {
      // Move to the most-recently-used end.
      this.#cache.delete(sql);
      this.#cache.set(sql, cached);
      return cached;
    }
    const text = sql === "begin" ? "begin immediate" : sql;
    const statement = new NodeSqliteStatement(this.#db.prepare(text));
    if (this.#cacheSize > 0) {
      if (this.#cache.size >= this.#cacheSize) {
        const oldest = this.#cache.keys().next();
        if (!oldest.done) this.#cache.delete(oldest.value);
      }
      this.#cache.set(sql, statement);
    }
    return statement;
  }

  /** Reads one pragma's value (for diagnostics and tests), e.g. `pragma("journal_mode")`. */
  pragma(name: string): unknown {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`invalid pragma name: ${name}`);
    const row = this.#db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }

  /** Runs SQL without results (several statements allowed). Outside Kysely's connection lock: use with care. */
  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /** Idempotent: Kysely's `destroy()` and our own `close()` may both call it. */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#cache.clear();
    try {
      this.#db.exec("PRAGMA optimize");
    } catch {
      // best effort
    }
    this.#db.close();
  }
}

class NodeSqliteAdapter extends SqliteAdapter {
  // SQLite does support transactional DDL; Kysely's adapter plays it safe for other drivers.
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class NodeSqliteDialect extends SqliteDialect {
  constructor(database: NodeSqliteDatabase) {
    super({ database });
  }

  override createAdapter(): DialectAdapter {
    return new NodeSqliteAdapter();
  }
}
