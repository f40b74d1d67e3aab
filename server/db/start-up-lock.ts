/**
 * The start-up lock (decision 027): one process at a time migrates, runs Better Auth's migrations
 * and seeds an empty database; the others wait, then find a migrated, seeded database and skip.
 *
 * - PostgreSQL: a session-level advisory lock on a connection of its own (not the pool's), held
 *   until `release`. A process that dies while holding it ends its session, which frees the lock.
 * - SQLite: an exclusive SQLite transaction on a lock file beside the database file
 *   (`<database>.start-lock`). The lock is the operating system's file lock on that file, which it
 *   drops when the process ends however it ends: no stale lock to clean up, and it holds for every
 *   process on the host that shares the database file (the only ones that can: WAL needs them on
 *   one host). A separate file, because holding the database's own write lock would stop the
 *   holder's migrations.
 *
 * Waiting does not block the event loop: SQLite retries every 50 ms; PostgreSQL waits in the
 * server. Neither gives up: another process's migration of a large table may take minutes.
 */
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import type { Logger } from "pino";
import { dialectFromUrl } from "./dialect.ts";

/** The advisory lock key ("LumenStu"): distinct from Kysely's migration lock. */
export const START_UP_LOCK_KEY = "5509430001567757429";
const SQLITE_RETRY_MS = 50;

export interface StartUpLock {
  /** Frees the lock. Safe to call more than once. */
  release(): Promise<void>;
}

export interface StartUpLockOptions {
  logger?: Pick<Logger, "info" | "warn">;
}

const noLock: StartUpLock = { release: async () => {} };

/**
 * Takes the start-up lock of the database at `url` (a PostgreSQL URL, or the SQLite file path the
 * runtime opens: `file` is its resolved path, null for `:memory:`, which no other process shares).
 */
export async function acquireStartUpLock(
  url: string,
  file: string | null,
  options: StartUpLockOptions = {},
): Promise<StartUpLock> {
  if (dialectFromUrl(url) === "postgres") return acquirePostgres(url, options);
  if (!file) return noLock;
  return acquireSqlite(`${file}.start-lock`, options);
}

async function acquirePostgres(url: string, { logger }: StartUpLockOptions): Promise<StartUpLock> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5000,
    application_name: "lumen-hub start-up",
  });
  // A connection lost while waiting or holding must not crash the process: the lock goes with the
  // session, and the migrations keep their own transaction-level lock.
  client.on("error", (error) => logger?.warn({ err: error }, "start-up lock: the connection failed"));
  await client.connect();
  try {
    const tried = await client.query<{ locked: boolean }>(
      "select pg_try_advisory_lock($1::bigint) as locked",
      [START_UP_LOCK_KEY],
    );
    if (!tried.rows[0]?.locked) {
      logger?.info("start-up: waiting for another process to finish migrating and seeding");
      await client.query("select pg_advisory_lock($1::bigint)", [START_UP_LOCK_KEY]);
    }
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  let released: Promise<void> | undefined;
  return {
    release() {
      released ??= (async () => {
        try {
          await client.query("select pg_advisory_unlock($1::bigint)", [START_UP_LOCK_KEY]);
        } catch {
          // The session is gone, and the lock with it.
        } finally {
          await client.end().catch(() => {});
        }
      })();
      return released;
    },
  };
}

async function acquireSqlite(lockFile: string, { logger }: StartUpLockOptions): Promise<StartUpLock> {
  // timeout 0: a busy lock answers at once and the wait happens here, between event-loop turns.
  const lock = new DatabaseSync(lockFile, { timeout: 0 });
  let logged = false;
  try {
    for (;;) {
      try {
        lock.exec("BEGIN EXCLUSIVE");
        break;
      } catch (error) {
        if (!/locked|busy/i.test((error as Error).message)) throw error;
        if (!logged) {
          logged = true;
          logger?.info("start-up: waiting for another process to finish migrating and seeding");
        }
        await new Promise((resolve) => setTimeout(resolve, SQLITE_RETRY_MS));
      }
    }
  } catch (error) {
    lock.close();
    throw error;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        lock.exec("ROLLBACK");
      } finally {
        lock.close();
      }
    },
  };
}
