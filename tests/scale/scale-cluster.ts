/**
 * The cluster each `test:scale` file starts (decision 029): three app processes of the production
 * build on a fresh PostgreSQL database (on TEST_DATABASE_URL's server) and an s3rver bucket in a
 * temporary folder, behind the round-robin proxy, every one on a port the system says is free.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type Cluster, SERVER_ENTRY, startCluster } from "../../scripts/cluster/cluster.ts";

export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
/**
 * The clusters run on PostgreSQL: without TEST_DATABASE_URL (a laptop with no services) their
 * files are skipped, as the integration tests' PostgreSQL pass is. `.ci/run` sets it.
 */
export const CLUSTER_DATABASE = Boolean(process.env.TEST_DATABASE_URL);

export interface ScaleCluster extends Cluster {
  dataRoot: string;
  /** A client on the cluster's database (closed with the cluster). */
  db: pg.Pool;
}

export async function startScaleCluster(env: Record<string, string> = {}): Promise<ScaleCluster> {
  if (!existsSync(SERVER_ENTRY))
    throw new Error("The scale suite runs the production build: npm run build first");
  const dataRoot = mkdtempSync(path.join(tmpdir(), "lumen-scale-"));
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/lumen_scale_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const start = () =>
    startCluster({
      size: 3,
      databaseUrl: url.toString(),
      dataRoot,
      port: 0,
      appPort: 0,
      s3Port: 0,
      env: { LOG_LEVEL: "warn", ...env },
      dropDatabaseOnStop: true,
    });
  // A free port asked of the system may be taken by a connection before a process binds it (rare).
  let cluster: Cluster | null = null;
  for (let attempt = 1; !cluster; attempt++) {
    try {
      cluster = await start();
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String((error as Error).message))) {
        rmSync(dataRoot, { recursive: true, force: true });
        throw error;
      }
      await sleep(1000);
    }
  }
  const db = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    ...cluster,
    dataRoot,
    db,
    async stop(graceMs?: number) {
      await db.end();
      await cluster.stop(graceMs);
      // SCALE_KEEP=1 keeps the processes' logs (pN/server.log) and the bucket's folder.
      if (process.env.SCALE_KEEP === "1") process.stdout.write(`scale cluster data kept in ${dataRoot}\n`);
      else rmSync(dataRoot, { recursive: true, force: true });
    },
  };
}

/** One row of a query's first column as a number. */
export async function scalar(db: pg.Pool, text: string, values: unknown[] = []): Promise<number> {
  const result = await db.query(text, values);
  const row = result.rows[0] as Record<string, unknown> | undefined;
  return Number(row ? Object.values(row)[0] : 0);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
