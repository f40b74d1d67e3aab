/**
 * A migration rehearsal (decision 031): this release's migrations run on a copy of the live hub
 * before they run on the hub itself. The copy is restored from a backup (a fresh one unless a
 * backup folder is given) into a scratch database — a temporary SQLite file, or a new database on
 * the same PostgreSQL server — and started once the way a new release starts (both migration
 * sets, no demo seed, no mail or payment provider configured), then checked and dropped. The
 * report names the migrations that were pending, how long they took, and the rows of the main
 * tables before and after, so a migration that loses rows or takes minutes is seen on the copy.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { pino } from "pino";
import { createDatabase } from "../db/database.ts";
import { migrationStatus } from "../db/migrate.ts";
import type { DB } from "../db/schema.ts";
import { type Env, parseEnv } from "../env.ts";
import { createRuntime, databaseUrl } from "../runtime.ts";
import { BackupError, createBackup, type Progress, restoreBackup } from "./backup.ts";

/** Tables whose rows the report counts before and after. */
const COUNTED = ["user", "content", "comment", "user_subscription", "media_object"] as const;

export interface RehearsalReport {
  backup: string;
  dialect: "sqlite" | "postgres";
  /** Migrations of this release the copy had not run. */
  pending: string[];
  migrateMs: number;
  latestMigration: string | null;
  /** SQLite: `PRAGMA integrity_check`'s answer; PostgreSQL: "ok" when every counted table reads. */
  integrity: string;
  rows: Record<string, { before: number | null; after: number | null }>;
}

async function countRows(db: Kysely<DB>): Promise<Record<string, number | null>> {
  const out: Record<string, number | null> = {};
  for (const table of COUNTED) {
    try {
      const { rows } = await sql<{ n: number }>`select count(*) as "n" from ${sql.table(table)}`.execute(db);
      out[table] = Number(rows[0]?.n ?? 0);
    } catch {
      out[table] = null; // not in this schema (yet)
    }
  }
  return out;
}

/** A new, empty database on the PostgreSQL server `url` names; returns its URL and a drop. */
async function scratchPostgres(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `lumen_rehearsal_${Date.now().toString(36)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function rehearseMigrations(
  env: Env,
  options: { from?: string; keep?: boolean; progress?: Progress } = {},
): Promise<RehearsalReport> {
  const progress = options.progress ?? (() => {});
  const work = await mkdtemp(path.join(tmpdir(), "lumen-rehearsal-"));
  let dropScratch: (() => Promise<void>) | null = null;
  try {
    let from = options.from;
    if (!from) {
      progress("backup");
      from = path.join(work, "backup");
      await createBackup(env, from);
    }
    const live = createDatabase(databaseUrl(env));
    const dialect = live.dialect;
    await live.close();
    let scratchUrl = path.join(work, "data", "app.db");
    if (dialect === "postgres") {
      const scratch = await scratchPostgres(databaseUrl(env));
      scratchUrl = scratch.url;
      dropScratch = scratch.drop;
    }
    // The copy's own settings: nothing that reaches a real mail, SMS, payment or GitHub service.
    const copyEnv = parseEnv({
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: path.join(work, "data"),
      DATABASE_URL: scratchUrl,
      STORAGE_URL: path.join(work, "objects"),
      SEED_DEMO: "0",
      LOG_LEVEL: "silent",
      ...(env.AUTH_SECRET ? { AUTH_SECRET: env.AUTH_SECRET } : {}),
    });
    progress("restore");
    await restoreBackup(copyEnv, from, { skipObjects: true });

    const copy = createDatabase(scratchUrl);
    const pending = (await migrationStatus(copy.db)).filter((m) => m.executedAt === null).map((m) => m.name);
    const before = await countRows(copy.db);
    await copy.close();

    progress("migrate");
    const started = performance.now();
    const runtime = await createRuntime(copyEnv, { seed: false, logger: pino({ level: "silent" }) });
    const migrateMs = Math.round(performance.now() - started);
    await runtime.close();

    progress("check");
    const after = createDatabase(scratchUrl);
    try {
      const applied = (await migrationStatus(after.db)).filter((m) => m.executedAt !== null);
      const rowsAfter = await countRows(after.db);
      let integrity = "ok";
      if (dialect === "sqlite") {
        const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(after.db);
        integrity = rows.map((r) => r.integrity_check).join("; ");
      } else if (Object.values(rowsAfter).every((n) => n === null)) {
        integrity = "no table could be read";
      }
      const rows: RehearsalReport["rows"] = {};
      for (const table of COUNTED)
        rows[table] = { before: before[table] ?? null, after: rowsAfter[table] ?? null };
      const lost = COUNTED.filter((t) => (before[t] ?? 0) > (rowsAfter[t] ?? 0));
      if (lost.length > 0)
        integrity = `${integrity === "ok" ? "" : `${integrity}; `}rows lost in ${lost.join(", ")}`;
      return {
        backup: options.from ?? "(a fresh backup, deleted afterwards)",
        dialect,
        pending,
        migrateMs,
        latestMigration: applied.at(-1)?.name ?? null,
        integrity,
        rows,
      };
    } finally {
      await after.close();
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`the rehearsal failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (!options.keep) {
      await dropScratch?.().catch(() => {});
      await rm(work, { recursive: true, force: true });
    }
  }
}
