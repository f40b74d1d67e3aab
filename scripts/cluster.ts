/**
 * `npm run cluster`: the multi-process deployment on one machine without containers (decision
 * 029). CLUSTER_SIZE app processes (default 3) of the production bundle (built first if missing or
 * stale) on one PostgreSQL database (DATABASE_URL, created if missing) and one S3 bucket served by
 * s3rver from ./data/cluster/s3, behind a round-robin proxy on PORT (default 3000). Process N
 * listens on PORT + N with DATA_DIR ./data/cluster/pN and writes its log to
 * ./data/cluster/pN/server.log. Ctrl-C or SIGTERM stops the processes (SIGTERM, then waits).
 *
 * Environment: CLUSTER_SIZE, PORT, HOST (the proxy's, default 127.0.0.1), DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/lumen_cluster), CLUSTER_DATA_DIR (default ./data/cluster),
 * AUTH_SECRET (default: one generated into the data folder), LOG_LEVEL (default warn); any other
 * server variable (RATE_LIMIT_*, SMTP_URL …) is passed on to every process.
 */
import path from "node:path";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../server/db/seed/accounts.ts";
import { ensureBuild, ROOT, startCluster } from "./cluster/cluster.ts";

const size = Number(process.env.CLUSTER_SIZE ?? 3);
if (!Number.isInteger(size) || size < 1 || size > 32) {
  process.stderr.write(`CLUSTER_SIZE=${process.env.CLUSTER_SIZE}: expected a whole number from 1 to 32\n`);
  process.exit(1);
}
const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 1 || port + size > 65535) {
  process.stderr.write(`PORT=${process.env.PORT}: expected a port number with ${size} free ports above it\n`);
  process.exit(1);
}
const databaseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/lumen_cluster";
if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
  process.stderr.write("DATABASE_URL: the cluster needs PostgreSQL (postgres://user@host:port/database)\n");
  process.exit(1);
}
const dataRoot = path.resolve(ROOT, process.env.CLUSTER_DATA_DIR ?? "data/cluster");
const say = (line: string) => process.stdout.write(`${line}\n`);

ensureBuild(say);
say(`Starting ${size} app processes on ${databaseUrl.replace(/(\/\/[^/:@]*:)[^@/]*@/, "$1***@")}…`);
const env: Record<string, string> = {};
if (process.env.AUTH_SECRET) env.AUTH_SECRET = process.env.AUTH_SECRET;
const cluster = await startCluster({
  size,
  databaseUrl,
  dataRoot,
  port,
  host: process.env.HOST || "127.0.0.1",
  inheritEnv: true,
  env: { LOG_LEVEL: process.env.LOG_LEVEL || "warn", ...env },
  log: (line) => say(`[cluster] ${line}`),
}).catch((error: Error) => {
  process.stderr.write(`The cluster could not start: ${error.message}\n`);
  process.exit(1);
});

say(`\nLumen Hub cluster listening on ${cluster.url}`);
for (const p of cluster.processes) say(`  process ${p.index + 1}: ${p.url} (pid ${p.pid}), log ${p.logFile}`);
say(`  storage: s3rver bucket in ${path.join(dataRoot, "s3")}`);
say(
  `Demo accounts (password ${DEMO_PASSWORD}): ${DEMO_ACCOUNTS.map((a) => a.email).join(", ")}; staff sign in with a code of their TOTP secret (server/db/seed/accounts.ts).`,
);
say("Ctrl-C stops every process.\n");

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  say(`\n${signal}: stopping the app processes…`);
  cluster.stop().then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  );
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
