/**
 * Driving `wrk` (Debian's HTTP load generator, written in C, so it is not the bottleneck the way
 * a Node load generator is on a small machine). Each run gets a small Lua script that sets the
 * method and body and, in `done()`, prints one JSON line: request count, duration, errors, the
 * latency percentiles from wrk's own histogram and wrk's own CPU time (from /proc/self/stat, read
 * after its threads have stopped).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseProcStat } from "./proc.ts";

export interface WrkRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export interface WrkOptions extends WrkRequest {
  url: string;
  connections: number;
  threads: number;
  durationSec: number;
  /** wrk's per-request timeout; a request slower than this counts as a timeout, not a latency. */
  timeoutSec?: number;
}

export interface WrkResult {
  requests: number;
  durationSec: number;
  requestsPerSec: number;
  bytes: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** CPU seconds wrk itself used (user + system), all threads. */
  cpuSec: number | null;
}

const MARKER = "BENCH_JSON ";

/** A Lua long-bracket literal holding `text` verbatim (no escapes are interpreted inside it). */
export function luaLongString(text: string): string {
  let level = 0;
  while (text.includes(`]${"=".repeat(level)}]`)) level++;
  const eq = "=".repeat(level);
  // A newline right after the opening bracket is dropped by Lua: add one so a body that starts
  // with a newline keeps it.
  return `[${eq}[\n${text}]${eq}]`;
}

/** The Lua script for one run: the request's method and body, and the JSON report in `done()`. */
export function luaScript(request: WrkRequest): string {
  const lines: string[] = [];
  if (request.method && request.method !== "GET") lines.push(`wrk.method = ${luaLongString(request.method)}`);
  if (request.body !== undefined) lines.push(`wrk.body = ${luaLongString(request.body)}`);
  lines.push(`
done = function(summary, latency, requests)
  local stat = ""
  local f = io.open("/proc/self/stat", "r")
  if f then stat = f:read("*l") or ""; f:close() end
  stat = stat:gsub('[\\\\"]', "")
  local e = summary.errors
  io.write(string.format(
    '\\n${MARKER}{"requests":%d,"durationUs":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f},"stat":"%s"}\\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    stat))
end
`);
  return lines.join("\n");
}

interface WrkDoneJson {
  requests: number;
  durationUs: number;
  bytes: number;
  errors: WrkResult["errors"];
  latencyUs: { p50: number; p90: number; p99: number; max: number; mean: number };
  stat: string;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Reads the JSON line the `done()` hook printed (the rest of wrk's output is ignored). */
export function parseWrkOutput(stdout: string, clockTicksPerSec = 100): WrkResult {
  const line = stdout.split("\n").find((l) => l.startsWith(MARKER));
  if (!line) throw new Error(`wrk printed no report line:\n${stdout.slice(0, 2000)}`);
  const j = JSON.parse(line.slice(MARKER.length)) as WrkDoneJson;
  const durationSec = j.durationUs / 1e6;
  const stat = j.stat ? parseProcStat(j.stat) : null;
  return {
    requests: j.requests,
    durationSec: round2(durationSec),
    requestsPerSec: durationSec > 0 ? Math.round(j.requests / durationSec) : 0,
    bytes: j.bytes,
    errors: j.errors,
    latencyMs: {
      p50: round2(j.latencyUs.p50 / 1000),
      p90: round2(j.latencyUs.p90 / 1000),
      p99: round2(j.latencyUs.p99 / 1000),
      max: round1(j.latencyUs.max / 1000),
      mean: round2(j.latencyUs.mean / 1000),
    },
    cpuSec: stat ? round2((stat.utime + stat.stime) / clockTicksPerSec) : null,
  };
}

/** Total errors of a run: socket errors, timeouts and responses that were not 2xx or 3xx. */
export function errorCount(r: WrkResult): number {
  const e = r.errors;
  return e.connect + e.read + e.write + e.status + e.timeout;
}

/**
 * Makes sure `wrk` is on the PATH: installs Debian's package when running as root, else exits
 * with a message saying how to install it.
 */
export function ensureWrk(): string {
  const found = () => spawnSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" }).stdout.trim();
  let bin = found();
  if (bin) return bin;
  if (process.getuid?.() === 0) {
    process.stderr.write("wrk is missing: installing Debian's package (apt-get install -y wrk)…\n");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", "-qq", "wrk"], { stdio: "inherit", env });
    bin = found();
    if (bin) return bin;
  }
  process.stderr.write(
    "npm run bench needs wrk (the HTTP load generator). Install it with `sudo apt-get install -y wrk`, or run the bench as root to have it installed.\n",
  );
  process.exit(2);
}

/** The headers as wrk's `-H` arguments. */
export function headerArgs(headers: Record<string, string> = {}): string[] {
  return Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]);
}

/** One wrk run. The Lua script is written to a temporary folder removed afterwards. */
export async function runWrk(bin: string, o: WrkOptions, clockTicksPerSec = 100): Promise<WrkResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "lumen-wrk-"));
  const script = path.join(dir, "run.lua");
  writeFileSync(script, luaScript(o));
  const args = [
    `-t${o.threads}`,
    `-c${o.connections}`,
    `-d${o.durationSec}s`,
    `--timeout`,
    `${o.timeoutSec ?? 5}s`,
    "-s",
    script,
    ...headerArgs(o.headers),
    o.url,
  ];
  try {
    const { code, stdout, stderr } = await new Promise<{
      code: number | null;
      stdout: string;
      stderr: string;
    }>((resolve, reject) => {
      const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        stdout += d;
      });
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        stderr += d;
      });
      child.once("error", reject);
      child.once("close", (code) => resolve({ code, stdout, stderr }));
    });
    if (code !== 0) throw new Error(`wrk exited with ${code}: ${stderr || stdout}`);
    return parseWrkOutput(stdout, clockTicksPerSec);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
