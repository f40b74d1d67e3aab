/**
 * `npm run bench`: start the production build on a temporary data folder (demo data seeded),
 * then drive autocannon at each target for a fixed duration, next to a bare `node:http`
 * baseline that serves the same response bytes. Prints a table and JSON. Loopback only.
 *
 * BENCH_DURATION (seconds per target, default 10), BENCH_CONNECTIONS (default 50).
 *
 * "users search" (/admin/users, issue 14): 100,000 users are added to the bench database in SQL
 * (bench/seed-users.ts) and the list queries the users admin service runs (search, filters, sorts,
 * deep pages, each with its total) are timed in-process: at most BENCH_USERS_RUNS runs (default
 * 200) or 3 s per query.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createDatabase } from "../server/db/database.ts";
import { createUsersAdminRepo, type ListFilter } from "../server/modules/users-admin/users-admin.repo.ts";
import { seedScaleUsers } from "./seed-users.ts";

const root = path.resolve(import.meta.dirname, "..");
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const port = Number(process.env.BENCH_PORT ?? 3299);
const base = `http://127.0.0.1:${port}`;

if (!existsSync(path.join(root, "build", "server", "index.js"))) {
  const r = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), "lumen-bench-"));
const serverEnv = {
  ...process.env,
  PORT: String(port),
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
  // One client address drives every target: the API rate limits (decision 014) still count every
  // request here, but are raised so they measure the limiter's cost instead of refusing.
  RATE_LIMIT_READS_PER_USER: "1000000",
  RATE_LIMIT_READS_PER_ADDRESS: "1000000",
  RATE_LIMIT_WRITES_PER_USER: "1000000",
  RATE_LIMIT_WRITES_PER_ADDRESS: "1000000",
  RATE_LIMIT_GRAPHQL_COST_PER_USER: "1000000",
  RATE_LIMIT_GRAPHQL_COST_PER_ADDRESS: "1000000",
};
// First start: migrate and seed the demo data (not part of the cold-start figure).
const seeding = spawn(process.execPath, ["scripts/seed.ts"], { cwd: root, env: serverEnv, stdio: "ignore" });
await new Promise((r) => seeding.once("exit", r));

interface UsersRow {
  query: string;
  runs: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
}
/** The users search at 100,000 users (see the file comment). */
async function benchUsersSearch(): Promise<UsersRow[]> {
  const database = createDatabase(path.join(dataDir, "app.db"));
  try {
    await seedScaleUsers(database.db, database.dialect, 100_000);
    const repo = createUsersAdminRepo(database.db);
    const base: ListFilter = {
      scopeOrgs: null,
      sort: "name",
      dir: "asc",
      offset: 0,
      limit: 25,
      now: Date.now(),
    };
    const queries: Array<[string, Partial<ListFilter>]> = [
      ["search e-mail prefix 'person123'", { q: "person123" }],
      ["search name prefix 'person 4'", { q: "person 4" }],
      ["sort by name, page 1", {}],
      ["sort by last sign-in, page 2000", { sort: "lastLogin", dir: "desc", offset: 50_000 }],
      ["group individual-pro", { group: "individual-pro" }],
      ["organisation admin's scope (2,000 members)", { scopeOrgs: ["scale"] }],
      ["status suspended", { status: "suspended" }],
      ["MFA on, newest first", { mfa: "on", sort: "created", dir: "desc" }],
      ["tier pro (effective)", { tier: "pro" }],
    ];
    const maxRuns = Number(process.env.BENCH_USERS_RUNS ?? 200);
    const rows: UsersRow[] = [];
    for (const [name, f] of queries) {
      const times: number[] = [];
      let total = 0;
      const until = performance.now() + 3_000;
      while (times.length < maxRuns && performance.now() < until) {
        const t0 = performance.now();
        total = (await repo.list({ ...base, ...f })).total;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const at = (q: number) =>
        Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
      rows.push({ query: name, runs: times.length, p50Ms: at(0.5), p99Ms: at(0.99), total });
    }
    return rows;
  } finally {
    await database.close();
  }
}
const usersRows = await benchUsersSearch();
const started = performance.now();
const server = spawn(process.execPath, ["server/main.ts"], {
  cwd: root,
  env: serverEnv,
  stdio: ["ignore", "ignore", "inherit"],
});

async function waitHealthy(): Promise<number> {
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.ok) return performance.now() - started;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("server did not become healthy in 30 s");
}

interface Row {
  target: string;
  path: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  baselineRequestsPerSec?: number;
  ratioToBaseline?: number;
}

async function run(
  url: string,
  request: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string } = {},
): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration, pipelining: 1, ...request });
}

/** Signs a demo account in; the session is bound to this user agent, so every request sends it. */
async function signedInHeaders(email: string): Promise<Record<string, string>> {
  const headers = { "user-agent": "lumen-bench", "accept-language": "en" };
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password: "Demo-Passw0rd!" }),
  });
  if (!res.ok) throw new Error(`bench sign-in failed: ${res.status}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { ...headers, cookie };
}

/** A bare node:http server answering every request with the given bytes. */
async function baseline(body: Buffer, contentType: string): Promise<{ url: string; close(): Promise<void> }> {
  const s = createServer((_req, res) => {
    res.writeHead(200, { "content-type": contentType, "content-length": body.length });
    res.end(body);
  });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const addr = s.address() as AddressInfo;
  return { url: `http://127.0.0.1:${addr.port}/`, close: () => new Promise((r) => s.close(() => r())) };
}

try {
  const coldStartMs = await waitHealthy();
  const list = (await (await fetch(`${base}/api/content?limit=50`)).json()) as {
    items: Array<{ slug: string; tier: string }>;
  };
  const free = list.items.find((i) => i.tier === "Free");
  const pro = list.items.find((i) => i.tier === "Pro");
  if (!free || !pro) throw new Error("no Free or Pro item in the demo data");
  const proHeaders = await signedInHeaders("pro@demo.local");
  const slugQuery = JSON.stringify({
    query: "query ($slug: String!) { listContentBySlug(slug: $slug) { items { id slug title tier } } }",
    variables: { slug: free.slug },
  });
  const targets: Array<{
    target: string;
    path: string;
    headers?: Record<string, string>;
    method?: "GET" | "POST";
    body?: string;
  }> = [
    { target: "home page (anonymous)", path: "/" },
    { target: "content page (anonymous)", path: `/content/${free.slug}` },
    { target: "content page (signed-in Pro)", path: `/content/${pro.slug}`, headers: proHeaders },
    { target: "GET /api/content?limit=15", path: "/api/content?limit=15" },
    { target: "GET /api/content/{slug}", path: `/api/content/${free.slug}` },
    { target: "GET /api/search?q=prompt", path: "/api/search?q=prompt" },
    {
      target: "GraphQL listContentBySlug",
      path: "/graphql",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: slugQuery,
    },
  ];
  const rows: Row[] = [];
  for (const t of targets) {
    const headers = t.headers ?? {};
    const request = { method: t.method ?? "GET", headers, body: t.body };
    const probe = await fetch(base + t.path, request);
    if (probe.status === 404) {
      console.log(`skipping ${t.target}: ${t.path} answers 404`);
      continue;
    }
    // warm-up
    await autocannon({ url: base + t.path, connections: 10, duration: 2, ...request });
    const r = await run(base + t.path, request);
    const sample = await fetch(base + t.path, request);
    const bytes = Buffer.from(await sample.arrayBuffer());
    const b = await baseline(bytes, sample.headers.get("content-type") ?? "text/plain");
    await autocannon({ url: b.url, connections: 10, duration: 1 });
    const rb = await run(b.url);
    await b.close();
    rows.push({
      target: t.target,
      path: t.path,
      requestsPerSec: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      errors: r.errors,
      non2xx: r.non2xx,
      baselineRequestsPerSec: Math.round(rb.requests.average),
      ratioToBaseline: Math.round((r.requests.average / rb.requests.average) * 1000) / 1000,
    });
  }
  const rssMb = Number(
    spawnSync("ps", ["-o", "rss=", "-p", String(server.pid)], { encoding: "utf8" }).stdout.trim() || 0,
  );
  console.log(
    `\nCold start to healthy: ${Math.round(coldStartMs)} ms; server RSS after load: ${Math.round(rssMb / 1024)} MB`,
  );
  console.log(`${connections} connections, ${duration} s per target\n`);
  console.table(
    rows.map((r) => ({
      target: r.target,
      "req/s": r.requestsPerSec,
      "p50 ms": r.p50Ms,
      "p99 ms": r.p99Ms,
      "baseline req/s": r.baselineRequestsPerSec,
      ratio: r.ratioToBaseline,
      errors: r.errors + r.non2xx,
    })),
  );
  console.log("\nusers search (/admin/users list queries with their total, 100,000 users, in-process)\n");
  console.table(usersRows);
  console.log(
    JSON.stringify(
      {
        coldStartMs: Math.round(coldStartMs),
        rssMb: Math.round(rssMb / 1024),
        connections,
        duration,
        rows,
        usersSearch: usersRows,
      },
      null,
      2,
    ),
  );
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });
}
