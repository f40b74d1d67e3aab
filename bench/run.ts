/**
 * `npm run bench`: the production build on a temporary data folder (demo data seeded), measured
 * on loopback only.
 *
 * - load: `wrk` (Debian's, installed with apt-get when missing and running as root) at each target,
 *   BENCH_CONNECTIONS (50) connections on BENCH_THREADS (2) threads, after a BENCH_WARMUP (2 s)
 *   warm-up, in BENCH_ROUNDS (3) interleaved rounds of BENCH_DURATION (10) seconds, next to a bare
 *   `node:http` server in its own process sending the same content-page bytes (and nginx sending
 *   them when nginx is installed). Each row: the medians over the rounds of req/s, p50 and p99 (wrk's
 *   latency histogram), the ratio to the bare server, and the CPU the server, wrk and everything
 *   else on the machine used meanwhile, so a reader sees which one was the limit.
 * - cold start: spawn of the server (the `serve` script's entry, or BENCH_SERVER_ENTRY) to a 200
 *   from /api/health, BENCH_COLD_RUNS (5) runs on the seeded data, median; RSS after the loads.
 * - front end: the JavaScript a content page's first load fetches (count, gzip size), the
 *   Content-Encoding of a page, a JSON API, a CSS and a JS asset asked with `br, gzip`.
 * - lighthouse: bench/lighthouse.ts on home, a free article and /pricing (mobile).
 * - users: the /admin/users list queries at 100,000 users (bench/seed-users.ts), in-process, at
 *   most BENCH_USERS_RUNS (200) runs or 3 s per query.
 *
 * `npm run bench -- --only=load,lighthouse` (or BENCH_ONLY) runs some sections only, BENCH_TARGETS
 * (e.g. `pro,search`) some load targets only; BENCH_CPU_PROF=1 profiles one more load of each
 * target and prints the functions with the most self time. Ports:
 * BENCH_PORT (3611) for the app, 3612 the bare server, the next nginx, BENCH_PORT + 4 Chromium's
 * debugging port.
 * Prints tables and a JSON blob, also written to bench/results/latest.json.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase } from "../server/db/database.ts";
import { DEMO_ACCOUNTS } from "../server/db/seed/accounts.ts";
import { createUsersAdminRepo, type ListFilter } from "../server/modules/users-admin/users-admin.repo.ts";
import { type LighthouseRow, printLighthouse, runLighthouse } from "./lighthouse.ts";
import { compressionChecks, type EncodingCheck, type FirstLoadJs, firstLoadJs, rawGet } from "./page.ts";
import { clockTicksPerSec, machineCpuSec, rssMb, treeCpuSec } from "./proc.ts";
import { InspectorProfiler, type SelfTimeRow, topSelfTime } from "./profile.ts";
import { seedScaleUsers } from "./seed-users.ts";
import { ensureWrk, errorCount, runWrk, type WrkRequest, type WrkResult } from "./wrk.ts";

const SECTIONS = ["users", "cold", "frontend", "load", "lighthouse"] as const;
type Section = (typeof SECTIONS)[number];

const root = path.resolve(import.meta.dirname, "..");
const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(`${name} must be a non-negative number, got "${raw}"\n`);
    process.exit(2);
  }
  return n;
};
const duration = num("BENCH_DURATION", 10);
const rounds = Math.max(1, Math.round(num("BENCH_ROUNDS", 3)));
const connections = Math.max(1, Math.round(num("BENCH_CONNECTIONS", 50)));
const threads = Math.max(1, Math.round(num("BENCH_THREADS", 2)));
const warmup = num("BENCH_WARMUP", 2);
const coldRuns = Math.max(1, Math.round(num("BENCH_COLD_RUNS", 5)));
const port = num("BENCH_PORT", 3611);
const barePort = port + 1;
const nginxPort = port + 2;
const base = `http://127.0.0.1:${port}`;

function parseOnly(): Set<Section> {
  const arg = process.argv.slice(2).find((a) => a.startsWith("--only="));
  const raw = arg ? arg.slice("--only=".length) : process.env.BENCH_ONLY;
  if (!raw) return new Set(SECTIONS);
  const picked = raw.split(",").map((s) => s.trim());
  const unknown = picked.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (unknown.length > 0) {
    process.stderr.write(`unknown bench section(s): ${unknown.join(", ")}; known: ${SECTIONS.join(", ")}\n`);
    process.exit(2);
  }
  return new Set(picked as Section[]);
}
const only = parseOnly();

const TARGET_KEYS = ["nginx", "anon", "pro", "pro-me", "pro-engagement", "list", "item", "graphql", "search"];
/** BENCH_TARGETS=pro,search loads only those targets (the bare server always runs, for the ratio). */
function parseTargets(): Set<string> | null {
  const raw = process.env.BENCH_TARGETS?.trim();
  if (!raw) return null;
  const picked = raw.split(",").map((s) => s.trim());
  const unknown = picked.filter((k) => !TARGET_KEYS.includes(k));
  if (unknown.length > 0) {
    process.stderr.write(`unknown BENCH_TARGETS: ${unknown.join(", ")}; known: ${TARGET_KEYS.join(", ")}\n`);
    process.exit(2);
  }
  return new Set(picked);
}
const pickedTargets = parseTargets();
/**
 * BENCH_CPU_PROF=1: after the rounds, one more load per app target under the V8 profiler (the
 * server listens for the inspector on 127.0.0.1, BENCH_PORT + 5); each profile is written to
 * bench/results/profiles/<target>.cpuprofile (for DevTools) and its top self times printed.
 */
const cpuProf = process.env.BENCH_CPU_PROF === "1";
const profileDir = path.join(root, "bench", "results", "profiles");

/**
 * The Node arguments `npm run serve` runs (`node [flags] <file>`), so a bundled server build is
 * what gets measured; BENCH_SERVER_ENTRY (a file) overrides it.
 */
function serverArgs(): string[] {
  if (process.env.BENCH_SERVER_ENTRY) return [process.env.BENCH_SERVER_ENTRY];
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  const words = (pkg.scripts?.serve ?? "").trim().split(/\s+/);
  const simple =
    words[0] === "node" && words.length > 1 && words.slice(1).every((w) => /^[\w@./=:-]+$/.test(w));
  return simple ? words.slice(1) : ["server/main.ts"];
}
const entryArgs = serverArgs();
const entry = entryArgs.join(" ");

if (!existsSync(path.join(root, "build", "server", "index.js"))) {
  const r = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const wrkBin = only.has("load") ? ensureWrk() : "";

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
  // A query costs its objects (about 20 here): at 10,000 queries a second a million would run out.
  RATE_LIMIT_GRAPHQL_COST_PER_USER: "100000000",
  RATE_LIMIT_GRAPHQL_COST_PER_ADDRESS: "100000000",
};
const children = new Set<ChildProcess>();
const benchStarted = performance.now();
const log = (line: string) =>
  process.stderr.write(`[bench ${Math.round((performance.now() - benchStarted) / 1000)}s] ${line}\n`);

function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv = serverEnv): ChildProcess {
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for a 200 from `url`, polling every 10 ms; the time from `since` to it, in ms. */
async function waitOk(url: string, since: number, child: ChildProcess, limitMs = 60_000): Promise<number> {
  while (performance.now() - since < limitMs) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      const r = await rawGet(url);
      if (r.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`${url} did not answer 200 within ${limitMs / 1000} s`);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? Number.NaN
    : s.length % 2
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

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
    const first: ListFilter = {
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
    const maxRuns = num("BENCH_USERS_RUNS", 200);
    const rows: UsersRow[] = [];
    for (const [name, f] of queries) {
      const times: number[] = [];
      let total = 0;
      const until = performance.now() + 3_000;
      while (times.length < maxRuns && performance.now() < until) {
        const t0 = performance.now();
        total = (await repo.list({ ...first, ...f })).total;
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

/** Signs a demo account in; the session is bound to this user agent, so every request sends it. */
async function signedInHeaders(
  email: string,
  headers: Record<string, string>,
): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password: "Demo-Passw0rd!" }),
  });
  if (!res.ok) throw new Error(`bench sign-in of ${email} failed: ${res.status}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { ...headers, cookie };
}

interface Target extends WrkRequest {
  /** The name BENCH_TARGETS picks it by. */
  key: string;
  target: string;
  url: string;
  /** The server process whose CPU this target costs. */
  pid: number;
  budget?: { minRps?: number; minRatio?: number; maxP99Ms?: number; text: string };
}
interface LoadRow {
  target: string;
  path: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  ratioToBare: number | null;
  /** Average response size on the wire, headers included (from wrk's byte count). */
  bytesPerResponse: number;
  errors: number;
  /** CPU of the server, of wrk and of everything else on the machine, % of one core (2 cores = 200 %). */
  serverCpuPct: number;
  /** Server CPU time per request (ms): the figure least moved by other work on the machine. */
  serverCpuMsPerRequest: number | null;
  wrkCpuPct: number | null;
  otherCpuPct: number;
  budget: string;
  meetsBudget: boolean | null;
  /** Which one ran out of CPU: the server (a Node process is one core), wrk, or other work. */
  likelyLimit: "server" | "wrk" | "other processes" | "none (waiting)";
  rounds: Array<{ requestsPerSec: number; p50Ms: number; p99Ms: number; errors: number }>;
}

/**
 * The resource that ran out, from CPU shares (1 = one core): the server's JavaScript runs on one
 * core, wrk has `threads` cores at most, and what the machine has left goes to other work.
 */
function limitOf(server: number, wrk: number, other: number): LoadRow["likelyLimit"] {
  if (server >= 0.9) return "server";
  if (wrk >= 0.9 * threads) return "wrk";
  if (other >= 0.5) return "other processes";
  return "none (waiting)";
}

interface Measured {
  result: WrkResult;
  serverCpuSec: number;
  machineBusySec: number;
  wallSec: number;
}
async function measure(t: Target, seconds: number): Promise<Measured> {
  const cpu0 = treeCpuSec(t.pid);
  const m0 = machineCpuSec();
  const w0 = performance.now();
  const result = await runWrk(
    wrkBin,
    {
      url: t.url,
      connections,
      threads,
      durationSec: seconds,
      method: t.method,
      headers: t.headers,
      body: t.body,
    },
    clockTicksPerSec(),
  );
  const wallSec = (performance.now() - w0) / 1000;
  return {
    result,
    serverCpuSec: treeCpuSec(t.pid) - cpu0,
    machineBusySec: machineCpuSec().busy - m0.busy,
    wallSec,
  };
}

/** Serves `file` with nginx (one worker) when nginx is installed; never installs it. */
async function startNginx(
  file: string,
  contentType: string,
): Promise<{ child: ChildProcess; dir: string } | null> {
  const bin = spawnSync("sh", ["-c", "command -v nginx || ls /usr/sbin/nginx 2>/dev/null"], {
    encoding: "utf8",
  })
    .stdout.trim()
    .split("\n")[0];
  if (!bin) return null;
  const dir = mkdtempSync(path.join(tmpdir(), "lumen-bench-nginx-"));
  writeFileSync(path.join(dir, "page"), readFileSync(file));
  writeFileSync(
    path.join(dir, "nginx.conf"),
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${dir};
    location / { default_type "${contentType}"; try_files /page =404; }
  }
}
`,
  );
  const child = startProcess(bin, ["-p", dir, "-c", path.join(dir, "nginx.conf")], process.env);
  try {
    await waitOk(`http://127.0.0.1:${nginxPort}/`, performance.now(), child, 10_000);
    return { child, dir };
  } catch (e) {
    log(`nginx did not start (${(e as Error).message}); no nginx row`);
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

const report: Record<string, unknown> = {
  date: new Date().toISOString(),
  method: {
    loadGenerator: "wrk",
    connections,
    threads,
    durationSec: duration,
    rounds,
    acceptEncoding: process.env.BENCH_ACCEPT_ENCODING?.trim() || "none (identity)",
    loadAverageAtStart: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
    warmupSec: warmup,
    serverEntry: entry,
    node: process.version,
    cpus: Number(spawnSync("nproc", { encoding: "utf8" }).stdout.trim()) || null,
  },
};
let server: ChildProcess | undefined;
try {
  log("seeding the demo data");
  const seeding = startProcess(process.execPath, ["scripts/seed.ts"]);
  await new Promise((r) => seeding.once("exit", r));
  if (seeding.exitCode !== 0) throw new Error(`seeding failed (${seeding.exitCode})`);

  let usersRows: UsersRow[] | undefined;
  if (only.has("users")) {
    log("users search at 100,000 users");
    usersRows = await benchUsersSearch();
  }

  let cold: { runsMs: number[]; medianMs: number } | undefined;
  if (only.has("cold")) {
    log(`cold start × ${coldRuns}`);
    const runsMs: number[] = [];
    for (let i = 0; i < coldRuns; i++) {
      const t0 = performance.now();
      const child = startProcess(process.execPath, entryArgs);
      runsMs.push(Math.round(await waitOk(`${base}/api/health`, t0, child)));
      await stopProcess(child);
    }
    cold = { runsMs, medianMs: median(runsMs) };
  }

  const needServer = only.has("frontend") || only.has("load") || only.has("lighthouse");
  let rss: { afterLoadsMb: number | null } | undefined;
  let frontend: { firstLoadJs: FirstLoadJs; compression: EncodingCheck[] } | undefined;
  let loadRows: LoadRow[] | undefined;
  let profiles: Array<{ target: string; file: string; top: SelfTimeRow[] }> | undefined;
  let lighthouseRows: LighthouseRow[] | undefined;
  if (needServer) {
    const t0 = performance.now();
    if (cpuProf) mkdirSync(profileDir, { recursive: true });
    const profFlags = cpuProf ? [`--inspect=127.0.0.1:${port + 5}`] : [];
    server = startProcess(process.execPath, [...profFlags, ...entryArgs]);
    await waitOk(`${base}/api/health`, t0, server);
    const agent = { "user-agent": "lumen-bench", "accept-language": "en" };
    const list = JSON.parse((await rawGet(`${base}/api/content?limit=50`, agent)).body.toString("utf8")) as {
      items: Array<{ slug: string; tier: string }>;
    };
    const free = list.items.find((i) => i.tier.toLowerCase() === "free");
    const pro = list.items.find((i) => i.tier.toLowerCase() === "pro");
    if (!free || !pro) throw new Error("no Free or Pro item in the demo data");
    const freePage = `/content/${free.slug}`;

    if (only.has("frontend")) {
      log("first-load JavaScript and compression");
      const js = await firstLoadJs(base + freePage, agent);
      const page = await rawGet(base + freePage, { ...agent, "accept-encoding": "identity" });
      const html = page.body.toString("utf8");
      const css = /<link\b[^>]*rel=["']?stylesheet["']?[^>]*href=["']([^"']+)["']/i.exec(html)?.[1];
      // The largest script: a file of a few hundred bytes is sent as it is (below the size worth
      // compressing), which says nothing about compression.
      const anyJs = [...js.files].sort((a, b) => b.bytes - a.bytes)[0]?.name;
      const compression = await compressionChecks(
        base,
        [
          { kind: "page (HTML)", path: freePage },
          { kind: "API (JSON)", path: "/api/content?limit=15" },
          ...(css ? [{ kind: "stylesheet (CSS)", path: new URL(css, base).pathname }] : []),
          ...(anyJs ? [{ kind: "script (JS)", path: anyJs }] : []),
        ],
        agent,
      );
      frontend = { firstLoadJs: js, compression };
    }

    if (only.has("load")) {
      // wrk asks for no compression unless BENCH_ACCEPT_ENCODING says so (e.g. "br, gzip", as a
      // browser does); the bare server then sends exactly the bytes and encoding the app sent.
      const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING?.trim();
      const load = acceptEncoding ? { ...agent, "accept-encoding": acceptEncoding } : agent;
      const proHeaders = await signedInHeaders("pro@demo.local", load);
      const sample = await rawGet(base + freePage, load);
      // The signed-in row must measure a signed-in page: the reader's first request is their own
      // render, with their name on it (later ones are the audience's page, decision 039).
      const proName = DEMO_ACCOUNTS.find((a) => a.email === "pro@demo.local")?.name ?? "";
      const proPage = await rawGet(`${base}/content/${pro.slug}`, {
        ...agent,
        cookie: proHeaders.cookie ?? "",
      });
      if (proPage.status !== 200 || !proName || !proPage.body.toString("utf8").includes(proName)) {
        throw new Error(
          `the Pro content page (${proPage.status}) does not show ${proName}: the bench's sign-in did not take`,
        );
      }
      const pageFile = path.join(dataDir, "bench-page.html");
      writeFileSync(pageFile, sample.body);
      const contentType = String(sample.headers["content-type"] ?? "text/html; charset=utf-8");
      const contentEncoding = String(sample.headers["content-encoding"] ?? "");
      const bare = startProcess(process.execPath, [
        "bench/bare-server.ts",
        pageFile,
        String(barePort),
        contentType,
        contentEncoding,
      ]);
      await waitOk(`http://127.0.0.1:${barePort}/`, performance.now(), bare, 10_000);
      const nginx = contentEncoding ? null : await startNginx(pageFile, contentType);
      const pid = server.pid!;
      const targets: Target[] = [
        {
          key: "bare",
          target: `bare node:http, same bytes (${Math.round(sample.body.byteLength / 1024)} KB)`,
          url: `http://127.0.0.1:${barePort}${freePage}`,
          pid: bare.pid!,
          headers: load,
        },
        ...(nginx
          ? [
              {
                key: "nginx",
                target: "nginx (1 worker), same bytes",
                url: `http://127.0.0.1:${nginxPort}${freePage}`,
                pid: nginx.child.pid!,
                headers: load,
              },
            ]
          : []),
        {
          key: "anon",
          target: "content page (anonymous, cache hit)",
          url: base + freePage,
          pid,
          headers: load,
          budget: { minRatio: 0.5, maxP99Ms: 20, text: "≥ 50% of bare, p99 ≤ 20 ms" },
        },
        {
          key: "pro",
          target: "content page (signed-in Pro)",
          url: `${base}/content/${pro.slug}`,
          pid,
          headers: proHeaders,
          budget: { minRps: 1500, maxP99Ms: 100, text: "≥ 1,500 req/s, p99 ≤ 100 ms" },
        },
        // What the browser asks after an audience page (decision 039): the reader's own context
        // and own like, Save and progress. A page view costs the page plus these two.
        {
          key: "pro-me",
          target: "signed-in Pro: GET /api/account/me",
          url: `${base}/api/account/me`,
          pid,
          headers: proHeaders,
        },
        {
          key: "pro-engagement",
          target: "signed-in Pro: GET /api/content/{slug}/engagement",
          url: `${base}/api/content/${pro.slug}/engagement`,
          pid,
          headers: proHeaders,
        },
        {
          key: "list",
          target: "GET /api/content?limit=15",
          url: `${base}/api/content?limit=15`,
          pid,
          headers: load,
          budget: { minRps: 5000, maxP99Ms: 50, text: "≥ 5,000 req/s, p99 ≤ 50 ms" },
        },
        {
          key: "item",
          target: "GET /api/content/{slug}",
          url: `${base}/api/content/${free.slug}`,
          pid,
          headers: load,
          budget: { minRps: 10000, text: "≥ 10,000 req/s" },
        },
        {
          key: "graphql",
          target: "GraphQL listContentBySlug",
          url: `${base}/graphql`,
          pid,
          method: "POST",
          headers: { ...load, "content-type": "application/json" },
          body: JSON.stringify({
            query:
              "query ($slug: String!) { listContentBySlug(slug: $slug) { items { id slug title tier } } }",
            variables: { slug: free.slug },
          }),
          budget: { minRps: 4000, text: "≥ 4,000 req/s" },
        },
        {
          key: "search",
          target: "GET /api/search?q=prompt",
          url: `${base}/api/search?q=prompt`,
          pid,
          headers: load,
          budget: { minRps: 2000, maxP99Ms: 100, text: "≥ 2,000 req/s, p99 ≤ 100 ms" },
        },
      ];
      // Every target must answer 2xx before it is loaded: a bench of error pages measures nothing.
      const live: Target[] = [];
      for (const t of targets.filter((t) => !pickedTargets || t.key === "bare" || pickedTargets.has(t.key))) {
        const r = await fetch(t.url, { method: t.method ?? "GET", headers: t.headers, body: t.body });
        await r.arrayBuffer();
        if (r.ok) live.push(t);
        else log(`skipping ${t.target}: ${t.url} answers ${r.status}`);
      }
      if (warmup > 0) {
        log(`warm-up, ${warmup} s per target`);
        for (const t of live) await measure(t, warmup);
      }
      const measured = new Map<Target, Measured[]>(live.map((t) => [t, []]));
      for (let r = 1; r <= rounds; r++) {
        log(`round ${r} of ${rounds}, ${duration} s per target`);
        for (const t of live) measured.get(t)!.push(await measure(t, duration));
      }
      const rowOf = (t: Target, ms: Measured[], bareRps: number | null): LoadRow => {
        const rps = median(ms.map((m) => m.result.requestsPerSec));
        const p50 = Math.round(median(ms.map((m) => m.result.latencyMs.p50)) * 100) / 100;
        const p99 = Math.round(median(ms.map((m) => m.result.latencyMs.p99)) * 100) / 100;
        const wall = ms.reduce((a, m) => a + m.wallSec, 0);
        const serverCpu = ms.reduce((a, m) => a + m.serverCpuSec, 0);
        const wrkCpu = ms.every((m) => m.result.cpuSec !== null)
          ? ms.reduce((a, m) => a + m.result.cpuSec!, 0)
          : null;
        const busy = ms.reduce((a, m) => a + m.machineBusySec, 0);
        const requests = ms.reduce((a, m) => a + m.result.requests, 0);
        const bytes = ms.reduce((a, m) => a + m.result.bytes, 0);
        const ratio = bareRps ? Math.round((rps / bareRps) * 1000) / 1000 : null;
        const errors = ms.reduce((a, m) => a + errorCount(m.result), 0);
        const b = t.budget;
        const meets = b
          ? errors === 0 &&
            (b.minRps === undefined || rps >= b.minRps) &&
            (b.minRatio === undefined || (ratio ?? 0) >= b.minRatio) &&
            (b.maxP99Ms === undefined || p99 <= b.maxP99Ms)
          : null;
        return {
          target: t.target,
          path: new URL(t.url).pathname + new URL(t.url).search,
          requestsPerSec: Math.round(rps),
          p50Ms: p50,
          p99Ms: p99,
          ratioToBare: ratio,
          bytesPerResponse: requests > 0 ? Math.round(bytes / requests) : 0,
          errors,
          serverCpuPct: Math.round((serverCpu / wall) * 100),
          serverCpuMsPerRequest: requests > 0 ? Math.round((serverCpu / requests) * 1e5) / 100 : null,
          wrkCpuPct: wrkCpu === null ? null : Math.round((wrkCpu / wall) * 100),
          otherCpuPct: Math.max(0, Math.round(((busy - serverCpu - (wrkCpu ?? 0)) / wall) * 100)),
          budget: b?.text ?? "–",
          likelyLimit: limitOf(
            serverCpu / wall,
            wrkCpu === null ? 0 : wrkCpu / wall,
            (busy - serverCpu - (wrkCpu ?? 0)) / wall,
          ),
          meetsBudget: meets,
          rounds: ms.map((m) => ({
            requestsPerSec: m.result.requestsPerSec,
            p50Ms: m.result.latencyMs.p50,
            p99Ms: m.result.latencyMs.p99,
            errors: errorCount(m.result),
          })),
        };
      };
      const bareRps = median(measured.get(live[0]!)?.map((m) => m.result.requestsPerSec) ?? []);
      loadRows = live.map((t) => rowOf(t, measured.get(t)!, Number.isFinite(bareRps) ? bareRps : null));
      rss = { afterLoadsMb: rssMb(pid) };
      if (cpuProf) {
        // One more load per app target, profiled on its own (not part of the figures above).
        profiles = [];
        const profiler = await InspectorProfiler.connect(port + 5);
        try {
          for (const t of live.filter((x) => x.pid === pid)) {
            log(`profiling ${t.target}`);
            await profiler.start();
            await measure(t, duration);
            const cpuProfile = await profiler.stop();
            const file = path.join(profileDir, `${t.key}.cpuprofile`);
            writeFileSync(file, JSON.stringify(cpuProfile));
            profiles.push({ target: t.target, file, top: topSelfTime(cpuProfile, 20, root) });
          }
        } finally {
          profiler.close();
        }
      }
      await stopProcess(bare);
      if (nginx) {
        await stopProcess(nginx.child);
        rmSync(nginx.dir, { recursive: true, force: true });
      }
    }
    if (!rss) rss = { afterLoadsMb: rssMb(server.pid!) };

    if (only.has("lighthouse")) {
      log("Lighthouse (mobile): home, a free article, /pricing");
      lighthouseRows = await runLighthouse(
        base,
        [
          { page: "home", path: "/" },
          { page: "free article", path: freePage },
          { page: "pricing", path: "/pricing" },
        ],
        { debugPort: port + 4 },
      );
    }
  }

  // The report.
  const cpus = (report.method as { cpus: number | null }).cpus;
  console.log(`\nlumen-hub bench ${report.date}: server ${entry}, Node ${process.version}, ${cpus} CPUs`);
  const otherCpuPct = loadRows ? Math.round(median(loadRows.map((r) => r.otherCpuPct))) : null;
  if (loadRows) {
    console.log(
      `\nload: wrk, ${connections} connections on ${threads} threads, ${rounds} interleaved round(s) of ${duration} s per target after a ${warmup} s warm-up; medians over the rounds; CPU in % of one core over the rounds (${cpus} cores = ${(cpus ?? 1) * 100} %)`,
    );
    console.table(
      loadRows.map((r) => ({
        target: r.target,
        "req/s": r.requestsPerSec,
        "p50 ms": r.p50Ms,
        "p99 ms": r.p99Ms,
        "× bare": r.ratioToBare,
        "B/resp": r.bytesPerResponse,
        errors: r.errors,
        "server CPU %": r.serverCpuPct,
        "CPU ms/req": r.serverCpuMsPerRequest,
        "wrk CPU %": r.wrkCpuPct,
        "other CPU %": r.otherCpuPct,
        budget: r.budget,
        meets: r.meetsBudget === null ? "" : r.meetsBudget ? "yes" : "no",
        "likely limit": r.likelyLimit,
      })),
    );
    if (otherCpuPct !== null && otherCpuPct > 25) {
      console.log(
        `warning: other processes used ${otherCpuPct} % of a core (median over the targets) during the loads; these figures are lower than on a quiet machine and not comparable with a quiet run`,
      );
    }
  }
  if (cold || rss) {
    console.log(
      [
        cold &&
          `cold start to healthy: median ${cold.medianMs} ms (runs ${cold.runsMs.join(", ")} ms; budget ≤ 800 ms)`,
        rss && `server RSS${loadRows ? " after the loads" : ""}: ${rss.afterLoadsMb} MB (budget ≤ 200 MB)`,
      ]
        .filter(Boolean)
        .join("\n"),
    );
  }
  if (frontend) {
    const js = frontend.firstLoadJs;
    console.log(
      `\nJavaScript on first load of ${js.page}: ${js.requests} files, ${Math.round(js.bytes / 1024)} KB raw, ${Math.round(js.gzipBytes / 1024)} KB gzip (budget ≤ 100 KB gzip in ≤ 15 requests)`,
    );
    const plain = frontend.compression.filter((c) => c.contentEncoding === "none").map((c) => c.kind);
    console.log(
      `compression (Accept-Encoding: br, gzip): ${plain.length === 0 ? "every response compressed" : `not compressed: ${plain.join(", ")}`}`,
    );
    console.table(frontend.compression);
  }
  if (lighthouseRows) {
    console.log("\nLighthouse, mobile (budget: performance ≥ 95, the others 100)");
    printLighthouse(lighthouseRows);
  }
  for (const p of profiles ?? []) {
    console.log(
      `\nCPU profile, ${p.target} (self time over ${duration} s of load): ${path.relative(root, p.file)}`,
    );
    console.table(p.top);
  }
  if (usersRows) {
    console.log("\nusers search (/admin/users list queries with their total, 100,000 users, in-process)");
    console.table(usersRows);
  }
  Object.assign(report, {
    load: loadRows,
    otherCpuPctDuringLoads: otherCpuPct,
    coldStart: cold,
    rss,
    frontend,
    lighthouse: lighthouseRows,
    usersSearch: usersRows,
    cpuProfiles: profiles,
    benchSec: Math.round((performance.now() - benchStarted) / 1000),
  });
  const json = JSON.stringify(report, null, 2);
  console.log(json);
  mkdirSync(path.join(root, "bench", "results"), { recursive: true });
  writeFileSync(path.join(root, "bench", "results", "latest.json"), `${json}\n`);
  log(`done in ${report.benchSec} s; JSON written to bench/results/latest.json`);
} finally {
  for (const child of [...children]) await stopProcess(child);
  rmSync(dataDir, { recursive: true, force: true });
}
