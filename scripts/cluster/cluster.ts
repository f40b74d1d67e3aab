/**
 * Several app processes on one PostgreSQL database and one S3 bucket behind a round-robin proxy
 * (decision 029): what `npm run cluster` starts, and what the `test:scale` suite starts for each
 * of its files. The processes run the production bundle (`build/bundle/server.js`), each with its
 * own port and data folder (mail outbox, logs) and the same AUTH_SECRET and PUBLIC_URL (the
 * proxy's). The bucket is served by s3rver from a folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import S3rver from "s3rver";
import { type RunningProxy, startProxy } from "./proxy.ts";

export { ensureBuild } from "../ensure-build.ts";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const SERVER_ENTRY = path.join(ROOT, "build", "bundle", "server.js");
export const BUCKET = "lumen-cluster";
/** The readiness route the cluster waits on before it sends a process requests. */
const READY_PATH = "/api/health";

export interface ClusterOptions {
  /** App processes (default 3). */
  size?: number;
  /** PostgreSQL database shared by every process; created when missing. */
  databaseUrl: string;
  /** Holds `pN/` (each process's DATA_DIR), `s3/` (the bucket's folder) and `auth-secret`. */
  dataRoot: string;
  /** The proxy's port (0: any free port). */
  port?: number;
  host?: string;
  /** First app process port; process N listens on appPort + N - 1 (default: port + 1; 0 → any free). */
  appPort?: number;
  /** s3rver's port (default 0: any free port). */
  s3Port?: number;
  /** Extra environment for every app process (rate limits, LOG_LEVEL …). */
  env?: Record<string, string>;
  /** Pass the caller's environment on to the app processes (the script does; tests do not). */
  inheritEnv?: boolean;
  /**
   * Start the first process alone and wait for it to be ready before the others. Default false:
   * all start together, and the start-up lock (decision 027) lets one migrate and seed while the
   * others wait for it.
   */
  staggered?: boolean;
  /** Where the app processes' stdout and stderr go: a file per process (default) or this process's. */
  output?: "files" | "inherit";
  /** Drop the database when the cluster stops (tests). */
  dropDatabaseOnStop?: boolean;
  /** Lines about the cluster (a process exited, an upstream went down). */
  log?: (line: string) => void;
}

export interface AppProcess {
  index: number;
  port: number;
  url: string;
  dataDir: string;
  logFile: string;
  child: ChildProcess | null;
  /** The process id of the running process (null when stopped). */
  pid: number | null;
}

export interface Cluster {
  /** The proxy's URL (every process's PUBLIC_URL). */
  url: string;
  proxy: RunningProxy;
  processes: AppProcess[];
  databaseUrl: string;
  storageUrl: string;
  authSecret: string;
  /** Sends a signal to process `index` (0-based) and waits for it to exit. */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts process `index` again on its port and data folder; resolves when it is ready. */
  restart(index: number): Promise<void>;
  /** SIGTERM to every process (SIGKILL after `graceMs`), then the proxy and s3rver. */
  stop(graceMs?: number): Promise<void>;
}

/** Creates the database of `databaseUrl` when it does not exist (connecting to `postgres`). */
export async function ensureDatabase(databaseUrl: string): Promise<{ created: boolean }> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new Error(`DATABASE_URL: expected a database name of letters, digits and _ (got "${name}")`);
  }
  url.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount) return { created: false };
    await admin.query(`create database "${name}"`);
    return { created: true };
  } finally {
    await admin.end();
  }
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

/** The secret every process signs sessions and keys with: AUTH_SECRET, else one kept in the data folder. */
function sharedAuthSecret(dataRoot: string, given: string | undefined): string {
  if (given) return given;
  const file = path.join(dataRoot, "auth-secret");
  if (existsSync(file)) {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  }
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the process's readiness route until it answers 200; throws if the process exits first. */
export async function waitReady(proc: AppProcess, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const child = proc.child!;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = existsSync(proc.logFile) ? readFileSync(proc.logFile, "utf8").slice(-2000) : "";
      throw new Error(
        `app process ${proc.index + 1} exited (${child.exitCode ?? child.signalCode}) before it was ready${tail ? `:\n${tail}` : ""}`,
      );
    }
    try {
      const res = await fetch(`${proc.url}${READY_PATH}`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  throw new Error(`app process ${proc.index + 1} was not ready within ${timeoutMs / 1000} s`);
}

/**
 * Starts the production bundle as process `proc` (its PORT, HOST and DATA_DIR set here, the rest
 * from `env`), its output appended to `proc.logFile` or shared with this process.
 */
export function spawnApp(
  proc: AppProcess,
  env: Record<string, string>,
  output: "files" | "inherit" = "files",
): ChildProcess {
  const toFiles = output === "files";
  mkdirSync(proc.dataDir, { recursive: true });
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: { ...env, HOST: "127.0.0.1", PORT: String(proc.port), DATA_DIR: proc.dataDir },
    stdio: toFiles ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
  });
  if (toFiles) {
    const out = createWriteStream(proc.logFile, { flags: "a" });
    child.stdout!.pipe(out, { end: false });
    child.stderr!.pipe(out, { end: false });
    child.once("exit", () => setTimeout(() => out.end(), 50));
  }
  proc.child = child;
  proc.pid = child.pid ?? null;
  child.once("exit", () => {
    if (proc.child === child) proc.pid = null;
  });
  return child;
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const size = options.size ?? 3;
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? (() => {});
  const dataRoot = path.resolve(options.dataRoot);
  mkdirSync(dataRoot, { recursive: true });
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run npm run build`);

  await ensureDatabase(options.databaseUrl);
  const authSecret = sharedAuthSecret(dataRoot, options.env?.AUTH_SECRET);

  // One bucket for every process.
  const s3Dir = path.join(dataRoot, "s3");
  mkdirSync(s3Dir, { recursive: true });
  const s3 = new S3rver({
    address: "127.0.0.1",
    port: options.s3Port ?? 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const s3Address = await s3.run();
  const s3Endpoint = `http://127.0.0.1:${s3Address.port}`;
  const storageUrl = `s3://${BUCKET}?endpoint=${encodeURIComponent(s3Endpoint)}&region=us-east-1&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`;

  const proxyPort = options.port ?? 0;
  const firstAppPort = options.appPort ?? (proxyPort === 0 ? 0 : proxyPort + 1);
  const processes: AppProcess[] = [];
  for (let i = 0; i < size; i++) {
    const port = firstAppPort === 0 ? await freePort() : firstAppPort + i;
    const dataDir = path.join(dataRoot, `p${i + 1}`);
    mkdirSync(dataDir, { recursive: true });
    processes.push({
      index: i,
      port,
      url: `http://127.0.0.1:${port}`,
      dataDir,
      logFile: path.join(dataDir, "server.log"),
      child: null,
      pid: null,
    });
  }

  let stopping = false;
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      upstreams: processes.map((p) => p.url),
      port: proxyPort,
      host,
      onStateChange: (upstream, up) => {
        if (!stopping) log(`${upstream} is ${up ? "back" : "down"}`);
      },
      onUpstreamError: (upstream, request, error, retried) => {
        if (!stopping)
          log(`${request} to ${upstream} failed: ${error}${retried ? ", tried on the next process" : ""}`);
      },
    });
  } catch (error) {
    await s3.close();
    if (options.dropDatabaseOnStop) await dropDatabase(options.databaseUrl).catch(() => {});
    throw error;
  }

  const baseEnv: Record<string, string> = {};
  if (options.inheritEnv) {
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) baseEnv[k] = v;
  } else {
    for (const k of ["PATH", "HOME", "LANG", "TZ", "TMPDIR"]) {
      const v = process.env[k];
      if (v !== undefined) baseEnv[k] = v;
    }
  }

  function spawnProcess(proc: AppProcess): void {
    const child = spawnApp(
      proc,
      {
        ...baseEnv,
        NODE_ENV: "production",
        SEED_DEMO: "1",
        LOG_LEVEL: "warn",
        ...options.env,
        DATABASE_URL: options.databaseUrl,
        STORAGE_URL: storageUrl,
        AUTH_SECRET: authSecret,
        PUBLIC_URL: proxy.url,
        TRUST_PROXY: "1",
      },
      options.output ?? "files",
    );
    child.once("exit", (code, signal) => {
      if (!stopping) log(`app process ${proc.index + 1} (pid ${child.pid}) exited (${code ?? signal})`);
    });
  }

  async function stopAll(graceMs = 15_000): Promise<void> {
    stopping = true;
    await Promise.all(
      processes.map(async (p) => {
        const child = p.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        await exited(child);
        clearTimeout(timer);
      }),
    );
    await proxy.close();
    await s3.close();
    if (options.dropDatabaseOnStop) await dropDatabase(options.databaseUrl);
  }

  try {
    const staggered = options.staggered ?? false;
    const [first, ...rest] = processes;
    if (staggered) {
      spawnProcess(first!);
      await waitReady(first!);
      for (const p of rest) spawnProcess(p);
      await Promise.all(rest.map((p) => waitReady(p)));
    } else {
      for (const p of processes) spawnProcess(p);
      await Promise.all(processes.map((p) => waitReady(p)));
    }
  } catch (error) {
    await stopAll(2000).catch(() => {});
    throw error;
  }

  return {
    url: proxy.url,
    proxy,
    processes,
    databaseUrl: options.databaseUrl,
    storageUrl,
    authSecret,
    async kill(index, signal = "SIGKILL") {
      const child = processes[index]!.child;
      if (!child) return;
      child.kill(signal);
      await exited(child);
    },
    async restart(index) {
      const proc = processes[index]!;
      if (proc.child && proc.child.exitCode === null && proc.child.signalCode === null) {
        throw new Error(`app process ${index + 1} is still running`);
      }
      spawnProcess(proc);
      await waitReady(proc);
    },
    stop: stopAll,
  };
}

/** A free TCP port on 127.0.0.1 (asked of the system, then released). */
export async function freePort(): Promise<number> {
  const net = await import("node:net");
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
