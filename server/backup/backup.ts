/**
 * Backups and restores of a whole hub (decision 031): the database, the object store and the
 * files of DATA_DIR the database needs (the generated auth secret, the local repositories), into
 * one folder, and back.
 *
 * Consistency while the app keeps running: the database is copied first, as one snapshot (SQLite:
 * `node:sqlite`'s online backup API, page by page, restarted by SQLite when a writer changes a
 * page it copied; PostgreSQL: `pg_dump`, one repeatable-read transaction). Objects are copied
 * after it: every object the snapshot names existed when the snapshot was taken (objects are
 * written before the rows that name them, decision 011), so only an object deleted in between can
 * be missing, and the manifest lists each such key.
 *
 * Layout of a backup folder (mode 0700, files 0600: it holds personal data and the auth secret):
 *   manifest.json                      what is inside, with a SHA-256 per file
 *   database.sqlite | database.pgdump  the snapshot (pg_dump custom format)
 *   objects/<sha256 of key>            each object, named by its key's hash (keys never become paths)
 *   objects.json                       key → file, content type, metadata, size, SHA-256
 *   data/secrets/…, data/repositories/…  files of DATA_DIR
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { chmod, cp, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync, backup as sqliteBackup } from "node:sqlite";
import { type Kysely, sql } from "kysely";
import { createDatabase, type Database } from "../db/database.ts";
import { migrationStatus } from "../db/migrate.ts";
import type { DB } from "../db/schema.ts";
import type { Env } from "../env.ts";
import { databaseUrl } from "../runtime.ts";
import { createObjectStore, type ObjectStore } from "../storage/index.ts";
import { VERSION } from "../version.ts";

export const BACKUP_FORMAT = "lumen-hub-backup/1";
/** DATA_DIR folders a hub needs besides its database and objects. */
const DATA_FOLDERS = ["secrets", "repositories"] as const;
/** A process whose heartbeat is younger than this is taken as running. */
const RUNNING_WITHIN_MS = 15_000;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  appVersion: string;
  database: {
    dialect: "sqlite" | "postgres";
    file: string;
    bytes: number;
    sha256: string;
    /** The newest migration applied in the snapshot, and how many were. */
    latestMigration: string | null;
    migrations: number;
  };
  objects: { count: number; bytes: number };
  /** Keys the database names that were gone when the objects were copied. */
  missingObjects: string[];
  /** Files under data/, relative, with their SHA-256. */
  dataFiles: Array<{ path: string; bytes: number; sha256: string }>;
  /** The auth secret was generated into DATA_DIR and is in this backup (AUTH_SECRET was not set). */
  secretIncluded: boolean;
}

export interface ObjectEntry {
  key: string;
  file: string;
  contentType: string;
  metadata: Record<string, string>;
  size: number;
  sha256: string;
}

export type Progress = (step: string, done?: number, total?: number) => void;

export class BackupError extends Error {
  override name = "BackupError";
}

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");

async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Runs a PostgreSQL client tool; rejects with its stderr when it fails or is missing. */
function runTool(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === "ENOENT"
            ? `${command} was not found: install the PostgreSQL client tools of your server's major version (Debian: postgresql-client)`
            : `${command} could not start: ${error.message}`,
        ),
      ),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim().slice(0, 2000)}`)),
    );
  });
}

/** The processes that wrote a heartbeat in the last 15 s (a running hub on this database). */
export async function runningProcesses(db: Kysely<DB>, now = Date.now()): Promise<string[]> {
  try {
    const rows = await db.selectFrom("process_heartbeat").select(["processId", "lastSeenEpoch"]).execute();
    return rows.filter((r) => now - Number(r.lastSeenEpoch) < RUNNING_WITHIN_MS).map((r) => r.processId);
  } catch {
    return []; // no such table yet: nothing has run on it
  }
}

async function migrationsOf(db: Kysely<DB>) {
  const applied = (await migrationStatus(db)).filter((m) => m.executedAt !== null);
  return { latest: applied.at(-1)?.name ?? null, count: applied.length };
}

/** Object keys the database names (content bodies, media), to check the copy against. */
async function referencedKeys(db: Kysely<DB>): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const table of ["content", "content_item"] as const) {
    const rows = await db.selectFrom(table).select("bodyS3Key").where("bodyS3Key", "is not", null).execute();
    for (const r of rows) if (r.bodyS3Key) keys.add(r.bodyS3Key);
  }
  for (const r of await db.selectFrom("media_object").select("key").execute()) keys.add(r.key);
  return keys;
}

async function listFiles(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(root, full)));
    else if (entry.isFile()) out.push(path.relative(root, full));
  }
  return out.sort();
}

export interface HubParts {
  env: Env;
  database: Database;
  storage: ObjectStore;
}

/** Opens the database and object store `env` names, without starting a server. */
export async function openHub(env: Env): Promise<HubParts> {
  const database = createDatabase(databaseUrl(env));
  const secretFile = path.join(env.DATA_DIR, "secrets", "auth-secret");
  const secret =
    env.AUTH_SECRET || (existsSync(secretFile) ? (await readFile(secretFile, "utf8")).trim() : "");
  const storage = await createObjectStore({
    storageUrl: env.STORAGE_URL,
    dataDir: env.DATA_DIR,
    secret: secret || undefined,
    publicUrl: env.PUBLIC_URL,
  });
  return { env, database, storage };
}

/**
 * Writes a backup of the hub `env` names into `outDir` (which must not exist or be empty),
 * while the hub may keep running.
 */
export async function createBackup(
  env: Env,
  outDir: string,
  options: { progress?: Progress } = {},
): Promise<BackupManifest> {
  const progress = options.progress ?? (() => {});
  if (existsSync(outDir) && (await readdir(outDir)).length > 0) {
    throw new BackupError(`${outDir} is not empty: give a new folder for the backup`);
  }
  await mkdir(path.join(outDir, "objects"), { recursive: true, mode: 0o700 });
  await chmod(outDir, 0o700);
  const hub = await openHub(env);
  try {
    const { database, storage } = hub;
    // 1. The database, as one snapshot.
    progress("database");
    const dialect = database.dialect;
    const dbFile = dialect === "postgres" ? "database.pgdump" : "database.sqlite";
    const dbPath = path.join(outDir, dbFile);
    if (dialect === "postgres") {
      await runTool("pg_dump", [
        "--format=custom",
        "--no-owner",
        "--no-privileges",
        `--file=${dbPath}`,
        `--dbname=${databaseUrl(env)}`,
      ]);
    } else {
      if (!database.file) throw new BackupError("An in-memory database cannot be backed up.");
      const source = new DatabaseSync(database.file, { readOnly: true, timeout: 5000 });
      try {
        await sqliteBackup(source, dbPath);
      } finally {
        source.close();
      }
    }
    await chmod(dbPath, 0o600);
    // What the snapshot names, read from the snapshot itself (a SQLite copy) or from the live
    // database right after the dump (PostgreSQL: a key added since is simply not checked).
    let snapshot: Database | null = null;
    if (dialect === "sqlite") snapshot = createDatabase(dbPath);
    const snapshotDb = (snapshot ?? database).db;
    const migrations = await migrationsOf(snapshotDb);
    const wanted = await referencedKeys(snapshotDb);
    await snapshot?.close();

    // 2. The objects.
    progress("objects");
    const listed = await storage.list("");
    const entries: ObjectEntry[] = [];
    let bytes = 0;
    for (const [i, props] of listed.entries()) {
      const object = await storage.get(props.key);
      if (!object) continue; // deleted since the listing
      const file = sha256(props.key);
      await writeFile(path.join(outDir, "objects", file), object.body, { mode: 0o600 });
      entries.push({
        key: props.key,
        file,
        contentType: object.properties.contentType,
        metadata: object.properties.metadata,
        size: object.body.byteLength,
        sha256: sha256(object.body),
      });
      bytes += object.body.byteLength;
      progress("objects", i + 1, listed.length);
    }
    await writeFile(path.join(outDir, "objects.json"), `${JSON.stringify(entries, null, 1)}\n`, {
      mode: 0o600,
    });
    const copied = new Set(entries.map((e) => e.key));
    const missingObjects = [...wanted].filter((k) => !copied.has(k)).sort();

    // 3. DATA_DIR's own files.
    progress("data");
    const dataFiles: BackupManifest["dataFiles"] = [];
    for (const folder of DATA_FOLDERS) {
      const from = path.join(env.DATA_DIR, folder);
      if (folder === "secrets" && env.AUTH_SECRET) continue;
      if (!existsSync(from)) continue;
      const to = path.join(outDir, "data", folder);
      await cp(from, to, { recursive: true, preserveTimestamps: true });
      for (const rel of await listFiles(to)) {
        const full = path.join(to, rel);
        await chmod(full, 0o600);
        dataFiles.push({
          path: path.join(folder, rel),
          bytes: (await stat(full)).size,
          sha256: await sha256File(full),
        });
      }
    }

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      appVersion: VERSION,
      database: {
        dialect,
        file: dbFile,
        bytes: (await stat(dbPath)).size,
        sha256: await sha256File(dbPath),
        latestMigration: migrations.latest,
        migrations: migrations.count,
      },
      objects: { count: entries.length, bytes },
      missingObjects,
      dataFiles,
      secretIncluded: !env.AUTH_SECRET && dataFiles.some((f) => f.path.startsWith(`secrets${path.sep}`)),
    };
    await writeFile(path.join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    return manifest;
  } finally {
    await hub.database.close();
  }
}

/** Reads a backup's manifest and checks every file against its SHA-256. */
export async function verifyBackup(
  dir: string,
): Promise<{ manifest: BackupManifest; objects: ObjectEntry[] }> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as BackupManifest;
  } catch {
    throw new BackupError(`${dir} holds no readable manifest.json: is it a backup folder?`);
  }
  if (manifest.format !== BACKUP_FORMAT) {
    throw new BackupError(`${dir}: unknown backup format ${JSON.stringify(manifest.format)}`);
  }
  const dbPath = path.join(dir, manifest.database.file);
  if (!existsSync(dbPath) || (await sha256File(dbPath)) !== manifest.database.sha256) {
    throw new BackupError(`${manifest.database.file} is missing or damaged (its SHA-256 does not match)`);
  }
  const objects = JSON.parse(await readFile(path.join(dir, "objects.json"), "utf8")) as ObjectEntry[];
  for (const entry of objects) {
    if (!/^[0-9a-f]{64}$/.test(entry.file))
      throw new BackupError(`objects.json: bad file name for ${entry.key}`);
    const body = await readFile(path.join(dir, "objects", entry.file)).catch(() => null);
    if (!body || sha256(body) !== entry.sha256) {
      throw new BackupError(`the object ${entry.key} is missing or damaged in the backup`);
    }
  }
  for (const file of manifest.dataFiles) {
    const full = path.resolve(dir, "data", file.path);
    if (!full.startsWith(path.resolve(dir, "data") + path.sep)) {
      throw new BackupError(`manifest.json: ${file.path} is outside the backup`);
    }
    if (!existsSync(full) || (await sha256File(full)) !== file.sha256) {
      throw new BackupError(`data/${file.path} is missing or damaged`);
    }
  }
  return { manifest, objects };
}

async function isEmptyDatabase(database: Database): Promise<boolean> {
  if (database.dialect === "postgres") {
    const { rows } = await sql<{ n: number }>`
      select count(*) as "n" from information_schema.tables where table_schema = current_schema()`.execute(
      database.db,
    );
    return Number(rows[0]?.n ?? 0) === 0;
  }
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as "n" from sqlite_master where type = 'table'`.execute(database.db);
  return Number(rows[0]?.n ?? 0) === 0;
}

export interface RestoreReport {
  dialect: "sqlite" | "postgres";
  objects: number;
  dataFiles: number;
  /** Objects already in the target store that the backup does not hold (left in place). */
  strayObjects: number;
}

/**
 * Restores the backup in `fromDir` into the hub `env` names. Refuses a database that has tables
 * or an object store that holds objects unless `force`; always refuses while a process of the hub
 * is running on that database (its heartbeat is fresh). The backup is verified first, so a damaged
 * backup changes nothing.
 */
export async function restoreBackup(
  env: Env,
  fromDir: string,
  options: { force?: boolean; progress?: Progress; skipObjects?: boolean } = {},
): Promise<RestoreReport> {
  const progress = options.progress ?? (() => {});
  progress("verify");
  const { manifest, objects } = await verifyBackup(fromDir);
  const hub = await openHub(env);
  try {
    const { database, storage } = hub;
    if (database.dialect !== manifest.database.dialect) {
      throw new BackupError(
        `this backup is of a ${manifest.database.dialect} database; DATABASE_URL names a ${database.dialect} one`,
      );
    }
    const running = await runningProcesses(database.db);
    if (running.length > 0) {
      throw new BackupError(
        `${running.length} process(es) of the hub are running on this database (${running.join(", ")}): stop them first`,
      );
    }
    const empty = await isEmptyDatabase(database);
    const existing = await storage.list("");
    if (!options.force && (!empty || existing.length > 0)) {
      throw new BackupError(
        `the target is not empty (${empty ? "" : "the database has tables"}${!empty && existing.length ? "; " : ""}${existing.length ? `${existing.length} objects in the store` : ""}): restore into an empty one, or pass --force to replace it`,
      );
    }
    // 1. The database.
    progress("database");
    const dbPath = path.join(fromDir, manifest.database.file);
    if (database.dialect === "postgres") {
      if (!empty) await sql`drop schema if exists public cascade; create schema public`.execute(database.db);
      await database.close();
      await runTool("pg_restore", [
        "--no-owner",
        "--no-privileges",
        "--exit-on-error",
        "--single-transaction",
        `--dbname=${databaseUrl(env)}`,
        dbPath,
      ]);
    } else {
      const target = database.file;
      if (!target) throw new BackupError("An in-memory database cannot be restored into.");
      await database.close();
      for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(`${target}${suffix}`, { force: true });
      // Copied through SQLite's backup API too, so the file is complete before anything opens it.
      const source = new DatabaseSync(dbPath, { readOnly: true });
      try {
        await sqliteBackup(source, target);
      } finally {
        source.close();
      }
    }
    // The snapshot's heartbeats describe the backed-up hub's processes, not this one's.
    const restored = createDatabase(databaseUrl(env));
    try {
      await restored.db.deleteFrom("process_heartbeat").execute();
    } finally {
      await restored.close();
    }
    // 2. The objects (a migration rehearsal needs none).
    const keys = new Set(objects.map((o) => o.key));
    for (const [i, entry] of (options.skipObjects ? [] : objects).entries()) {
      const body = await readFile(path.join(fromDir, "objects", entry.file));
      await storage.put(entry.key, body, { contentType: entry.contentType, metadata: entry.metadata });
      progress("objects", i + 1, objects.length);
    }
    // 3. DATA_DIR's files.
    progress("data");
    for (const file of manifest.dataFiles) {
      const to = path.join(env.DATA_DIR, file.path);
      await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
      await cp(path.join(fromDir, "data", file.path), to, { preserveTimestamps: true });
    }
    return {
      dialect: manifest.database.dialect,
      objects: options.skipObjects ? 0 : objects.length,
      dataFiles: manifest.dataFiles.length,
      strayObjects: existing.filter((o) => !keys.has(o.key)).length,
    };
  } finally {
    await hub.database.close();
  }
}
