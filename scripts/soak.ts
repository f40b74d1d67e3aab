/**
 * `npm run soak` (not in CI): SOAK_SECONDS (default 600) of load at SOAK_CONNECTIONS (default 100)
 * connections through the cluster's proxy (decision 029), with `wrk` cycling over a mix of pages,
 * REST and GraphQL reads, signed-in reads and like toggles. Every 10 s it samples each app
 * process's resident memory. At the end it reports requests, errors (socket errors, timeouts and
 * answers other than 2xx/3xx) and, per process, whether memory stayed flat: the mean of the last
 * third of the samples after warm-up (the first sixth of the run, at least one sample) within 10 %
 * of the mean of the first third. Exit code 1 on any error or growth.
 *
 * It starts its own cluster (3 processes, CLUSTER_SIZE) on a fresh database
 * (SOAK_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/lumen_soak, dropped at the end)
 * with its proxy on PORT (default 3100) and the API rate limits raised.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { rssMb } from "../bench/proc.ts";
import { ensureWrk, errorCount, luaLongString, luaScript, parseWrkOutput } from "../bench/wrk.ts";
import { DEMO_PASSWORD } from "../server/db/seed/accounts.ts";
import { dropDatabase, ensureBuild, startCluster } from "./cluster/cluster.ts";

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 100);
const size = Number(process.env.CLUSTER_SIZE ?? 3);
const port = Number(process.env.PORT ?? 3100);
const databaseUrl = process.env.SOAK_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/lumen_soak";
const SAMPLE_MS = 10_000;
/** A session answers only to the device (User-Agent and Accept-Language) it was made on. */
const DEVICE = { "user-agent": "lumen-soak", "accept-language": "en" };
const say = (line: string) => process.stdout.write(`${line}\n`);

if (!(seconds >= 10)) throw new Error(`SOAK_SECONDS=${process.env.SOAK_SECONDS}: expected at least 10`);
ensureBuild(say);
const wrk = ensureWrk();
await dropDatabase(databaseUrl).catch(() => {});
const dataRoot = mkdtempSync(path.join(tmpdir(), "lumen-soak-"));
const raised = "1000000";
const cluster = await startCluster({
  size,
  databaseUrl,
  dataRoot,
  port,
  env: {
    RATE_LIMIT_READS_PER_USER: raised,
    RATE_LIMIT_READS_PER_ADDRESS: raised,
    RATE_LIMIT_WRITES_PER_USER: raised,
    RATE_LIMIT_WRITES_PER_ADDRESS: raised,
    RATE_LIMIT_GRAPHQL_COST_PER_USER: raised,
    RATE_LIMIT_GRAPHQL_COST_PER_ADDRESS: raised,
  },
  dropDatabaseOnStop: true,
  log: (line) => say(`[cluster] ${line}`),
}).catch((error: Error) => {
  rmSync(dataRoot, { recursive: true, force: true });
  process.stderr.write(`The cluster could not start: ${error.message}\n`);
  process.exit(1);
});

async function stopAndExit(code: number): Promise<never> {
  await cluster.stop();
  rmSync(dataRoot, { recursive: true, force: true });
  process.exit(code);
}

try {
  // A reader's session (pro has no second factor) and a few published items to read.
  const signIn = await fetch(`${cluster.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: cluster.url, ...DEVICE },
    body: JSON.stringify({ email: "pro@demo.local", password: DEMO_PASSWORD }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!signIn.ok || !cookie) throw new Error(`sign-in failed: ${signIn.status}`);
  const list = (await (await fetch(`${cluster.url}/api/content?limit=50`)).json()) as {
    items: { id: string; slug: string; tier: string }[];
  };
  const free = list.items.filter((i) => i.tier === "Free");
  if (free.length === 0) throw new Error("no Free item to read");

  const mine = { cookie, origin: cluster.url, ...DEVICE };
  const json = { "content-type": "application/json" };
  const mix: { method: string; path: string; headers?: Record<string, string>; body?: string }[] = [
    { method: "GET", path: "/" },
    { method: "GET", path: "/api/content?limit=10" },
    { method: "GET", path: `/content/${free[0]!.slug}` },
    { method: "GET", path: "/api/search?q=prompt" },
    { method: "GET", path: "/ai-education" },
    { method: "GET", path: `/api/content/${free[0]!.slug}` },
    { method: "POST", path: "/graphql", headers: json, body: JSON.stringify({ query: "{ apiVersion }" }) },
    { method: "GET", path: "/api/account/me", headers: { cookie, ...DEVICE } },
    { method: "GET", path: "/dashboard", headers: { cookie, ...DEVICE } },
    ...free.slice(0, 3).flatMap((item) => [
      { method: "PUT", path: `/api/content/${item.id}/like`, headers: mine },
      { method: "DELETE", path: `/api/content/${item.id}/like`, headers: mine },
    ]),
  ];
  // The requests are formatted in init(), once wrk has set the Host header they need.
  const lua = [
    "local requests = {}",
    "local shown = 0",
    "init = function(args)",
    "  requests = {",
    ...mix.map((r) => {
      const headers = Object.entries(r.headers ?? {})
        .map(([k, v]) => `[ ${luaLongString(k)} ] = ${luaLongString(v)}`)
        .join(", ");
      return `    wrk.format(${luaLongString(r.method)}, ${luaLongString(r.path)}, { ${headers} }, ${r.body === undefined ? "nil" : luaLongString(r.body)}),`;
    }),
    "  }",
    "end",
    "local n = 0",
    "request = function()",
    "  n = n + 1",
    "  return requests[(n % #requests) + 1]",
    "end",
    // The first few unexpected answers of each thread are printed (which request, which status).
    "response = function(status, headers, body)",
    "  if status >= 400 and shown < 3 then",
    "    shown = shown + 1",
    '    io.write("unexpected answer " .. status .. " (request " .. ((n % #requests) + 1) .. "): " .. string.sub(body or "", 1, 200) .. "\\n")',
    "  end",
    "end",
    luaScript({}),
  ].join("\n");
  const scriptFile = path.join(dataRoot, "soak.lua");
  writeFileSync(scriptFile, lua);

  // Each connection checks every request's answer; wrk's own histogram gives the latencies.
  say(`Soak: ${seconds} s at ${connections} connections through ${cluster.url} (${size} processes)…`);
  const samples: number[][] = cluster.processes.map(() => []);
  const sample = () => {
    for (const [i, p] of cluster.processes.entries()) if (p.pid !== null) samples[i]!.push(rssMb(p.pid) ?? 0);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  const child = spawn(
    wrk,
    [
      "-t",
      "2",
      "-c",
      String(connections),
      "-d",
      `${seconds}s`,
      "--timeout",
      "10s",
      "-s",
      scriptFile,
      cluster.url,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
  clearInterval(timer);
  sample();
  if (code !== 0) throw new Error(`wrk exited with ${code}:\n${stdout}`);
  for (const line of stdout.split("\n").filter((l) => l.startsWith("unexpected answer"))) say(line);
  const result = parseWrkOutput(stdout);
  const errors = errorCount(result);

  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const warmup = Math.max(1, Math.floor(samples[0]!.length / 6));
  let flat = true;
  say(
    `\n${result.requests.toLocaleString("en")} requests in ${result.durationSec} s (${result.requestsPerSec}/s), ` +
      `p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms`,
  );
  say(
    `errors: ${errors} (connect ${result.errors.connect}, read ${result.errors.read}, write ${result.errors.write}, ` +
      `timeout ${result.errors.timeout}, not 2xx/3xx ${result.errors.status})`,
  );
  for (const [i, series] of samples.entries()) {
    const steady = series.slice(warmup);
    const third = Math.max(1, Math.floor(steady.length / 3));
    const first = mean(steady.slice(0, third));
    const last = mean(steady.slice(-third));
    const growth = first > 0 ? (last - first) / first : 0;
    const ok = growth <= 0.1;
    flat &&= ok;
    say(
      `process ${i + 1}: RSS MB ${series.join(" ")} | first third ${first.toFixed(0)}, last third ${last.toFixed(0)} ` +
        `(${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)} %) ${ok ? "flat" : "GREW"}`,
    );
  }
  say(
    `\nmemory ${flat ? "stayed flat (within 10 %)" : "grew by more than 10 %"}; ${errors === 0 ? "no errors" : `${errors} errors`}`,
  );
  await stopAndExit(errors === 0 && flat ? 0 : 1);
} catch (error) {
  process.stderr.write(`soak failed: ${(error as Error).message}\n`);
  await stopAndExit(1);
}
