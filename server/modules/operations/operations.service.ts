/**
 * The installation's operations (issue 14): /super-admin/infrastructure (every app process from
 * the heartbeat table, database and storage latency measured now, background jobs) and
 * /super-admin/database (migrations, tables with row counts and sizes, an integrity check on
 * demand, a consistent backup download on SQLite and pg_dump guidance on PostgreSQL).
 *
 * Access: the platform owner only (`operations.read`, `database.check`, `database.backup`, owner
 * scope; core/admin-scope.ts). Integrity checks and backup downloads are audited with the actor.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync, backup as sqliteBackup } from "node:sqlite";
import { Worker } from "node:worker_threads";
import { type Kysely, sql } from "kysely";
import { type AdminOperationName, adminAccess } from "../../../core/index.ts";
import { migrationStatus } from "../../db/migrate.ts";
import type { DB } from "../../db/schema.ts";
import { ConflictError, ForbiddenError, UnauthenticatedError } from "../../errors.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { GONE_AFTER_MS, HEARTBEAT_INTERVAL_MS, type Heartbeat, PRUNE_AFTER_MS } from "./heartbeat.ts";
import type { JobRegistry, JobStatus } from "./job-registry.ts";
import type { CacheFigures, ProcessMetrics } from "./process-metrics.ts";

/** The longest an integrity check may take before its answer says "timed out". */
export const INTEGRITY_TIMEOUT_MS = 60_000;
/** Tables with more rows than this (PostgreSQL's estimate) show the estimate instead of a count. */
export const EXACT_COUNT_LIMIT = 1_000_000;

export interface ProcessView {
  processId: string;
  hostname: string;
  pid: number;
  version: string;
  startedAt: string;
  lastSeenAt: string;
  /** Seconds since its last heartbeat. */
  lastSeenAgoS: number;
  uptimeS: number;
  status: "live" | "gone";
  current: boolean;
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  lagP50Ms: number;
  lagP99Ms: number;
  requestsLastMinute: number;
  pageCacheHits: number;
  pageCacheMisses: number;
  /** Hits / (hits + misses) since the process started; null before any anonymous page. */
  pageCacheHitRate: number | null;
  /** The process's in-memory caches: entries and estimated bytes against their bounds. */
  caches: CacheFigures[];
  jobs: JobStatus[];
}

export interface Probe {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

export interface JobAcrossProcesses extends JobStatus {
  /** The process whose run is shown (the most recent start among live processes). */
  processId: string;
  /** How many live processes run this job. */
  processes: number;
  /** Failures added up over the live processes. */
  failuresAllProcesses: number;
}

export interface InfrastructureView {
  generatedAt: string;
  currentProcessId: string;
  heartbeatIntervalS: number;
  goneAfterS: number;
  processes: ProcessView[];
  latency: {
    database: Probe & { kind: string; query: string };
    storage: Probe & { kind: string; steps: Record<"put" | "head" | "get" | "delete", number | null> };
  };
  jobs: JobAcrossProcesses[];
}

export interface TableView {
  name: string;
  rows: number;
  /** False when `rows` is PostgreSQL's planner estimate (very large tables). */
  rowsExact: boolean;
  /** Table and its indexes, in bytes (null when the engine cannot tell per table). */
  bytes: number | null;
}

export interface IntegrityResult {
  ok: boolean;
  engine: "sqlite" | "postgresql";
  checkedAt: string;
  durationMs: number;
  timedOut: boolean;
  checks: Array<{ name: string; ok: boolean; detail: string }>;
  /** Up to 100 problems found. */
  problems: string[];
}

export interface DatabaseView {
  generatedAt: string;
  engine: "sqlite" | "postgresql";
  migrations: {
    applied: Array<{ name: string; appliedAt: string }>;
    pending: string[];
  };
  tables: TableView[];
  totalBytes: number | null;
  /** How sizes and counts were measured, for the screen. */
  sizeMethod: string;
  lastIntegrityCheck: (IntegrityResult & { actorEmail: string | null }) | null;
  integrityTimeoutS: number;
  backup:
    | { kind: "download"; method: string }
    | { kind: "pg_dump"; command: string; restore: string; notes: string[] };
}

export interface BackupFile {
  path: string;
  filename: string;
  bytes: number;
  /** Deletes the temporary file (call when the download ends or fails). */
  cleanup(): Promise<void>;
}

export interface OperationsDeps {
  db: Kysely<DB>;
  dialect: "sqlite" | "postgres";
  /** SQLite's database file (null on PostgreSQL or `:memory:`). */
  file: string | null;
  /** The configured DATABASE_URL (PostgreSQL): its password is never shown. */
  databaseUrl: string;
  storage: ObjectStore;
  heartbeat: Heartbeat;
  jobs: JobRegistry;
  /** This process's live figures (its caches are shown as of now, others' as of their last beat). */
  metrics?: ProcessMetrics;
  pingDatabase(): Promise<Probe>;
  now?: () => number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A JSON list column of the heartbeat row ([] when unreadable). */
function parseList<T>(text: string): T[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

/** Errors reduced to a class of failure so no path or connection string leaks. */
function safeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/ECONNREFUSED|connect/i.test(message)) return "connection refused";
  if (/timeout|timed out/i.test(message)) return "timed out";
  if (/EACCES|permission|denied/i.test(message)) return "permission denied";
  if (/ENOSPC|no space/i.test(message)) return "no space left";
  return "unavailable";
}

function requireAccess(actor: Actor, operation: AdminOperationName): string {
  if (actor.kind === "visitor") throw new UnauthenticatedError("Sign in as the platform owner.");
  if (actor.kind !== "user" || !actor.userId) {
    throw new ForbiddenError("Operations are for the signed-in platform owner; API keys are refused.");
  }
  const decision = adminAccess(operation, actor.access);
  if (decision.kind !== "allowed") {
    if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
    throw new ForbiddenError(decision.message);
  }
  return actor.userId;
}

/** `postgres://user:secret@host/db?x` → the same without the password (and without options that may hold one). */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    const keep = new URLSearchParams();
    const ssl = parsed.searchParams.get("sslmode");
    if (ssl) keep.set("sslmode", ssl);
    parsed.search = keep.toString();
    return parsed.toString();
  } catch {
    return "postgres://USER@HOST:5432/DATABASE";
  }
}

const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** The integrity check on SQLite: a worker thread with its own read-only connection (the server keeps serving). */
const SQLITE_CHECK_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { DatabaseSync } = require("node:sqlite");
const db = new DatabaseSync(workerData.file, { readOnly: true, timeout: 5000 });
try {
  const integrity = db.prepare("PRAGMA integrity_check(100)").all().map((r) => String(Object.values(r)[0]));
  const foreignKeys = db.prepare("PRAGMA foreign_key_check").all().slice(0, 100)
    .map((r) => r.table + " row " + r.rowid + " points to a missing " + r.parent + " (constraint " + r.fkid + ")");
  parentPort.postMessage({ integrity, foreignKeys });
} finally {
  db.close();
}
`;

export function createOperationsService(deps: OperationsDeps) {
  const now = deps.now ?? Date.now;
  const engine = deps.dialect === "postgres" ? ("postgresql" as const) : ("sqlite" as const);
  const audit = createAuditRepo(deps.db);
  let checking = false;
  let backingUp = false;

  async function probeStorage(): Promise<InfrastructureView["latency"]["storage"]> {
    const key = `system/probe/${deps.heartbeat.processId}.txt`;
    const steps: Record<"put" | "head" | "get" | "delete", number | null> = {
      put: null,
      head: null,
      get: null,
      delete: null,
    };
    const timed = async <T>(step: keyof typeof steps, fn: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      const result = await fn();
      steps[step] = round2(performance.now() - t0);
      return result;
    };
    const t0 = performance.now();
    try {
      const body = `probe ${new Date(now()).toISOString()}`;
      await timed("put", () => deps.storage.put(key, body, { contentType: "text/plain" }));
      const head = await timed("head", () => deps.storage.head(key));
      if (!head) throw new Error("the probe object was not found after it was written");
      const got = await timed("get", () => deps.storage.get(key));
      if (!got || new TextDecoder().decode(got.body) !== body)
        throw new Error("the probe object read back differently");
      await timed("delete", () => deps.storage.delete(key));
      return { ok: true, latencyMs: round2(performance.now() - t0), kind: deps.storage.kind, steps };
    } catch (error) {
      await deps.storage.delete(key).catch(() => {});
      return {
        ok: false,
        latencyMs: round2(performance.now() - t0),
        error: safeError(error),
        kind: deps.storage.kind,
        steps,
      };
    }
  }

  async function readProcesses(): Promise<ProcessView[]> {
    const at = now();
    // Rows past PRUNE_AFTER_MS are deleted by one process a minute (heartbeat-prune); never shown.
    const rows = await deps.db
      .selectFrom("process_heartbeat")
      .selectAll()
      .where("lastSeenEpoch", ">=", at - PRUNE_AFTER_MS)
      .orderBy("startedAt")
      .execute();
    return rows.map((r) => {
      const hits = Number(r.pageCacheHits);
      const misses = Number(r.pageCacheMisses);
      const current = r.processId === deps.heartbeat.processId;
      let jobs: JobStatus[] = [];
      if (current) jobs = deps.jobs.snapshot();
      else jobs = parseList<JobStatus>(r.jobs);
      const lastSeen = Number(r.lastSeenEpoch);
      return {
        processId: r.processId,
        hostname: r.hostname,
        pid: Number(r.pid),
        version: r.version,
        startedAt: r.startedAt,
        lastSeenAt: r.lastSeenAt,
        lastSeenAgoS: Math.max(0, Math.round((at - lastSeen) / 1000)),
        uptimeS: Math.max(0, Math.round((lastSeen - Date.parse(r.startedAt)) / 1000)),
        status: at - lastSeen > GONE_AFTER_MS ? "gone" : "live",
        current,
        rssBytes: Number(r.rssBytes),
        heapUsedBytes: Number(r.heapUsedBytes),
        heapTotalBytes: Number(r.heapTotalBytes),
        lagP50Ms: round2(Number(r.lagP50Us) / 1000),
        lagP99Ms: round2(Number(r.lagP99Us) / 1000),
        requestsLastMinute: Number(r.requestsLastMinute),
        pageCacheHits: hits,
        pageCacheMisses: misses,
        pageCacheHitRate: hits + misses > 0 ? round2(hits / (hits + misses)) : null,
        caches: current && deps.metrics ? deps.metrics.caches() : parseList<CacheFigures>(r.caches),
        jobs,
      } satisfies ProcessView;
    });
  }

  function jobsAcross(processes: ProcessView[]): JobAcrossProcesses[] {
    const byName = new Map<string, JobAcrossProcesses>();
    for (const p of processes) {
      if (p.status !== "live") continue;
      for (const job of p.jobs) {
        const seen = byName.get(job.name);
        if (!seen) {
          byName.set(job.name, {
            ...job,
            processId: p.processId,
            processes: 1,
            failuresAllProcesses: job.failures,
          });
          continue;
        }
        const processesCount = seen.processes + 1;
        const failures = seen.failuresAllProcesses + job.failures;
        const fresher = (job.lastStartedAt ?? "") > (seen.lastStartedAt ?? "");
        byName.set(
          job.name,
          fresher
            ? { ...job, processId: p.processId, processes: processesCount, failuresAllProcesses: failures }
            : { ...seen, processes: processesCount, failuresAllProcesses: failures },
        );
      }
    }
    return [...byName.values()];
  }

  async function integrityFromAudit(): Promise<DatabaseView["lastIntegrityCheck"]> {
    const row = await deps.db
      .selectFrom("audit_log")
      .leftJoin("user", "user.id", "audit_log.actorId")
      .select(["audit_log.details", "user.email"])
      .where("audit_log.action", "=", "database_integrity_checked")
      .orderBy("audit_log.at", "desc")
      .orderBy("audit_log.id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!row?.details) return null;
    try {
      const details = JSON.parse(row.details) as { result?: IntegrityResult };
      return details.result ? { ...details.result, actorEmail: row.email ?? null } : null;
    } catch {
      return null;
    }
  }

  async function sqliteTables(): Promise<Pick<DatabaseView, "tables" | "totalBytes" | "sizeMethod">> {
    const names = (
      await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(
        deps.db,
      )
    ).rows.map((r) => r.name);
    let sizes: Map<string, number> | null = null;
    let totalBytes: number | null = null;
    let sizeMethod: string;
    try {
      const rows = (
        await sql<{ name: string; bytes: number }>`
          select coalesce(m.tbl_name, d.name) as name, sum(d.pgsize) as bytes
          from dbstat d left join sqlite_master m on m.name = d.name
          group by coalesce(m.tbl_name, d.name)`.execute(deps.db)
      ).rows;
      sizes = new Map(rows.map((r) => [r.name, Number(r.bytes)]));
      totalBytes = rows.reduce((sum, r) => sum + Number(r.bytes), 0);
      sizeMethod =
        "SQLite: exact row counts (count(*)); sizes are the pages each table and its indexes use, read from the dbstat virtual table.";
    } catch {
      const pages = (
        await sql<{
          bytes: number;
        }>`select (select page_count from pragma_page_count()) * (select page_size from pragma_page_size()) as bytes`.execute(
          deps.db,
        )
      ).rows[0];
      totalBytes = pages ? Number(pages.bytes) : null;
      sizeMethod =
        "SQLite: exact row counts (count(*)); this SQLite build has no dbstat table, so only the file's total (page_count × page_size) is known.";
    }
    const tables: TableView[] = [];
    for (const name of names) {
      const count = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`
        .execute(deps.db)
        .then((r) => Number(r.rows[0]?.n ?? 0))
        .catch(() => -1);
      tables.push({ name, rows: count, rowsExact: count >= 0, bytes: sizes ? (sizes.get(name) ?? 0) : null });
    }
    return { tables, totalBytes, sizeMethod };
  }

  async function postgresTables(): Promise<Pick<DatabaseView, "tables" | "totalBytes" | "sizeMethod">> {
    const rows = (
      await sql<{ name: string; estimate: number; bytes: number }>`
        select c.relname as name, c.reltuples::bigint as estimate, pg_total_relation_size(c.oid) as bytes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p')
        order by c.relname`.execute(deps.db)
    ).rows;
    const tables: TableView[] = [];
    for (const r of rows) {
      const estimate = Number(r.estimate);
      if (estimate >= 0 && estimate > EXACT_COUNT_LIMIT) {
        tables.push({ name: r.name, rows: estimate, rowsExact: false, bytes: Number(r.bytes) });
        continue;
      }
      const count = await sql<{ n: number }>`select count(*) as n from ${sql.table(r.name)}`
        .execute(deps.db)
        .then((x) => Number(x.rows[0]?.n ?? 0));
      tables.push({ name: r.name, rows: count, rowsExact: true, bytes: Number(r.bytes) });
    }
    return {
      tables,
      totalBytes: (
        await sql<{ bytes: number }>`select pg_database_size(current_database()) as bytes`.execute(deps.db)
      ).rows.map((r) => Number(r.bytes))[0]!,
      sizeMethod: `PostgreSQL: sizes are pg_total_relation_size (table, indexes and TOAST); row counts are exact (count(*)) up to ${EXACT_COUNT_LIMIT.toLocaleString("en")} rows and the planner's estimate (pg_class.reltuples) above; the total is pg_database_size.`,
    };
  }

  async function checkSqlite(): Promise<Omit<IntegrityResult, "checkedAt" | "durationMs" | "engine">> {
    if (!deps.file) {
      return {
        ok: false,
        timedOut: false,
        checks: [{ name: "integrity_check", ok: false, detail: "an in-memory database cannot be checked" }],
        problems: [],
      };
    }
    const worker = new Worker(SQLITE_CHECK_WORKER, { eval: true, workerData: { file: deps.file } });
    let timer: NodeJS.Timeout | undefined;
    try {
      const outcome = await new Promise<{ integrity: string[]; foreignKeys: string[] } | "timeout">(
        (resolve, reject) => {
          timer = setTimeout(() => resolve("timeout"), INTEGRITY_TIMEOUT_MS);
          worker.once("message", resolve);
          worker.once("error", reject);
          worker.once("exit", (code) => reject(new Error(`the check stopped (exit ${code})`)));
        },
      );
      if (outcome === "timeout") {
        return {
          ok: false,
          timedOut: true,
          checks: [
            {
              name: "integrity_check",
              ok: false,
              detail: `no answer within ${INTEGRITY_TIMEOUT_MS / 1000} s: stopped`,
            },
          ],
          problems: [],
        };
      }
      const integrityOk = outcome.integrity.length === 1 && outcome.integrity[0] === "ok";
      const fkOk = outcome.foreignKeys.length === 0;
      return {
        ok: integrityOk && fkOk,
        timedOut: false,
        checks: [
          {
            name: "PRAGMA integrity_check",
            ok: integrityOk,
            detail: integrityOk
              ? "every page, index entry, constraint (NOT NULL, UNIQUE, CHECK) and the file structure are consistent"
              : `${outcome.integrity.length} problem(s)`,
          },
          {
            name: "PRAGMA foreign_key_check",
            ok: fkOk,
            detail: fkOk
              ? "every foreign key points to an existing row"
              : `${outcome.foreignKeys.length} row(s) point to missing rows`,
          },
        ],
        problems: [...(integrityOk ? [] : outcome.integrity), ...outcome.foreignKeys].slice(0, 100),
      };
    } finally {
      clearTimeout(timer);
      worker.removeAllListeners("exit");
      await worker.terminate();
    }
  }

  async function checkPostgres(): Promise<Omit<IntegrityResult, "checkedAt" | "durationMs" | "engine">> {
    try {
      return await deps.db.transaction().execute(async (trx) => {
        // Bounded: every statement of this read-only transaction stops after the timeout.
        await sql.raw(`set local statement_timeout = ${INTEGRITY_TIMEOUT_MS}`).execute(trx);
        await sql`set transaction read only`.execute(trx).catch(() => {});
        const checks: IntegrityResult["checks"] = [];
        const problems: string[] = [];
        const invalidIndexes = (
          await sql<{ name: string }>`
            select ic.relname as name from pg_index i
            join pg_class ic on ic.oid = i.indexrelid
            join pg_namespace n on n.oid = ic.relnamespace
            where n.nspname = current_schema() and (not i.indisvalid or not i.indisready)`.execute(trx)
        ).rows;
        checks.push({
          name: "indexes valid (pg_index.indisvalid)",
          ok: invalidIndexes.length === 0,
          detail: invalidIndexes.length
            ? `${invalidIndexes.length} invalid index(es), e.g. left by a failed CREATE INDEX CONCURRENTLY`
            : "every index is valid and ready",
        });
        for (const r of invalidIndexes) problems.push(`index ${r.name} is not valid: REINDEX it`);
        const unvalidated = (
          await sql<{ name: string; tbl: string }>`
            select c.conname as name, t.relname as tbl from pg_constraint c
            join pg_class t on t.oid = c.conrelid
            join pg_namespace n on n.oid = t.relnamespace
            where n.nspname = current_schema() and not c.convalidated`.execute(trx)
        ).rows;
        checks.push({
          name: "constraints validated (pg_constraint.convalidated)",
          ok: unvalidated.length === 0,
          detail: unvalidated.length
            ? `${unvalidated.length} constraint(s) added NOT VALID and never validated`
            : "every foreign key and check constraint has been validated against all rows",
        });
        for (const r of unvalidated) problems.push(`constraint ${r.name} on ${r.tbl} is NOT VALID`);
        const amcheck = (
          await sql<{ n: number }>`select count(*) as n from pg_extension where extname = 'amcheck'`.execute(
            trx,
          )
        ).rows[0];
        if (Number(amcheck?.n ?? 0) > 0) {
          const indexes = (
            await sql<{ oid: number; name: string }>`
              select ic.oid::int8 as oid, ic.relname as name from pg_index i
              join pg_class ic on ic.oid = i.indexrelid
              join pg_am am on am.oid = ic.relam
              join pg_namespace n on n.oid = ic.relnamespace
              where n.nspname = current_schema() and am.amname = 'btree' and i.indisvalid`.execute(trx)
          ).rows;
          let bad = 0;
          for (const index of indexes) {
            try {
              await sql`select bt_index_check(${index.oid}::oid)`.execute(trx);
            } catch (error) {
              bad++;
              problems.push(`index ${index.name}: ${(error as Error).message.slice(0, 200)}`);
              break; // the transaction is aborted after an error
            }
          }
          checks.push({
            name: "B-tree structure (amcheck bt_index_check)",
            ok: bad === 0,
            detail: bad ? "an index is corrupt" : `${indexes.length} B-tree index(es) verified`,
          });
        } else {
          checks.push({
            name: "B-tree structure (amcheck)",
            ok: true,
            detail:
              "not checked: the amcheck extension is not installed (CREATE EXTENSION amcheck; as a superuser enables it)",
          });
        }
        return { ok: checks.every((c) => c.ok), timedOut: false, checks, problems: problems.slice(0, 100) };
      });
    } catch (error) {
      const timedOut = /statement timeout|canceling statement/i.test((error as Error).message);
      return {
        ok: false,
        timedOut,
        checks: [
          {
            name: "integrity check",
            ok: false,
            detail: timedOut
              ? `no answer within ${INTEGRITY_TIMEOUT_MS / 1000} s: stopped`
              : safeError(error),
          },
        ],
        problems: [],
      };
    }
  }

  return {
    /** Refuses anyone but the platform owner (before a request body is read). */
    requireOwner(actor: Actor, operation: "operations.read" | "database.check" | "database.backup"): string {
      return requireAccess(actor, operation);
    },

    async infrastructure(actor: Actor): Promise<InfrastructureView> {
      requireAccess(actor, "operations.read");
      // This process's row is written now, so its figures are current.
      await deps.heartbeat.beat().catch(() => {});
      const [processes, database, storage] = await Promise.all([
        readProcesses(),
        deps.pingDatabase(),
        probeStorage(),
      ]);
      return {
        generatedAt: new Date(now()).toISOString(),
        currentProcessId: deps.heartbeat.processId,
        heartbeatIntervalS: HEARTBEAT_INTERVAL_MS / 1000,
        goneAfterS: GONE_AFTER_MS / 1000,
        processes,
        latency: {
          database: {
            ok: database.ok,
            latencyMs: round2(database.latencyMs),
            ...(database.ok ? {} : { error: safeError(database.error) }),
            kind: engine,
            query: "select 1",
          },
          storage,
        },
        jobs: jobsAcross(processes),
      };
    },

    async database(actor: Actor): Promise<DatabaseView> {
      requireAccess(actor, "operations.read");
      const status = await migrationStatus(deps.db);
      const sizes = deps.dialect === "postgres" ? await postgresTables() : await sqliteTables();
      const backup: DatabaseView["backup"] =
        deps.dialect === "postgres"
          ? (() => {
              const url = redactDatabaseUrl(deps.databaseUrl);
              return {
                kind: "pg_dump" as const,
                command: `pg_dump --format=custom --no-owner --file=lumen-hub-$(date +%Y%m%d-%H%M%S).dump ${shellQuote(url)}`,
                restore: `pg_restore --no-owner --clean --if-exists --dbname=${shellQuote(url)} lumen-hub-YYYYMMDD-HHMMSS.dump`,
                notes: [
                  "pg_dump takes a consistent snapshot while the app keeps running; run it from a machine that can reach the database, with the same major version of the PostgreSQL client tools.",
                  "The password is not shown: give it in PGPASSWORD or a ~/.pgpass file.",
                  "Back up the object storage (uploaded media) separately.",
                ],
              };
            })()
          : {
              kind: "download" as const,
              method:
                "SQLite online backup (node:sqlite backup()) into a temporary file, which is streamed to you and then deleted; the live file is never read directly, so the copy is consistent while the app keeps writing.",
            };
      return {
        generatedAt: new Date(now()).toISOString(),
        engine,
        migrations: {
          applied: status.flatMap((m) => (m.executedAt ? [{ name: m.name, appliedAt: m.executedAt }] : [])),
          pending: status.filter((m) => !m.executedAt).map((m) => m.name),
        },
        ...sizes,
        lastIntegrityCheck: await integrityFromAudit(),
        integrityTimeoutS: INTEGRITY_TIMEOUT_MS / 1000,
        backup,
      };
    },

    /** Runs the integrity check (one at a time per process, at most INTEGRITY_TIMEOUT_MS), audited. */
    async integrityCheck(actor: Actor, meta: { ip?: string | null } = {}): Promise<IntegrityResult> {
      const userId = requireAccess(actor, "database.check");
      if (checking) throw new ConflictError("An integrity check is already running; wait for its result.");
      checking = true;
      try {
        const started = now();
        const t0 = performance.now();
        const outcome = deps.dialect === "postgres" ? await checkPostgres() : await checkSqlite();
        const result: IntegrityResult = {
          ...outcome,
          engine,
          checkedAt: new Date(started).toISOString(),
          durationMs: round2(performance.now() - t0),
        };
        await audit.append({
          action: "database_integrity_checked",
          actorId: userId,
          targetType: "database",
          targetId: engine,
          ip: meta.ip ?? null,
          // The result as plain JSON (the audit details schema).
          details: { ok: result.ok, result: JSON.parse(JSON.stringify(result)) },
        });
        return result;
      } finally {
        checking = false;
      }
    },

    /**
     * SQLite: a consistent online copy in a temporary file (audited); the caller streams it and
     * calls `cleanup`. PostgreSQL: null (the screen shows pg_dump guidance).
     */
    async backup(actor: Actor, meta: { ip?: string | null } = {}): Promise<BackupFile | null> {
      const userId = requireAccess(actor, "database.backup");
      if (deps.dialect === "postgres") return null;
      if (!deps.file) throw new ConflictError("An in-memory database cannot be backed up.");
      if (backingUp) throw new ConflictError("A backup is already being prepared; wait for it to finish.");
      backingUp = true;
      const dir = await mkdtemp(path.join(tmpdir(), "lumen-backup-"));
      const cleanup = () => rm(dir, { recursive: true, force: true });
      try {
        const stamp = new Date(now()).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
        const filename = `lumen-hub-${stamp}.db`;
        const target = path.join(dir, `${randomBytes(6).toString("hex")}.db`);
        const source = new DatabaseSync(deps.file, { readOnly: true, timeout: 5000 });
        try {
          await sqliteBackup(source, target);
        } finally {
          source.close();
        }
        const bytes = (await stat(target)).size;
        await audit.append({
          action: "database_backup_downloaded",
          actorId: userId,
          targetType: "database",
          targetId: engine,
          ip: meta.ip ?? null,
          details: { filename, bytes },
        });
        return { path: target, filename, bytes, cleanup };
      } catch (error) {
        await cleanup();
        throw error;
      } finally {
        backingUp = false;
      }
    },
  };
}

export type OperationsService = ReturnType<typeof createOperationsService>;
