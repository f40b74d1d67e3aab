/**
 * Lighthouse (from npm) on some pages of a running server, mobile form factor with Lighthouse's
 * default simulated throttling, driving Debian's Chromium (`/usr/bin/chromium`, or CHROME_PATH)
 * through Lighthouse's own chrome-launcher. No browser is ever downloaded.
 *
 * Part of `npm run bench` (or alone: `npm run bench -- --only=lighthouse`); also runs against a
 * server that is already up: `node bench/lighthouse.ts http://127.0.0.1:3000 / /pricing`.
 * BENCH_LIGHTHOUSE_RUNS (default 1): runs per page, the median score is kept.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const cli = path.join(root, "node_modules", "lighthouse", "cli", "index.js");

export const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

export interface LighthouseRow {
  page: string;
  path: string;
  /** Category scores 0–100. */
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  /** Simulated mobile metrics (ms, CLS unitless) and the bytes the page transferred in all. */
  fcpMs: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  speedIndexMs: number | null;
  transferKiB: number | null;
  /** The audits with the largest estimated savings, for the reader who wants to know why. */
  opportunities: string[];
  runs: number;
  error?: string;
}

interface LhrAudit {
  score: number | null;
  numericValue?: number;
  displayValue?: string;
  metricSavings?: Partial<Record<string, number>>;
  title: string;
  details?: { type?: string; overallSavingsMs?: number };
}
interface Lhr {
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, LhrAudit>;
  runtimeError?: { code: string; message: string };
}

export function chromePath(): string {
  return process.env.CHROME_PATH ?? "/usr/bin/chromium";
}

/** One Lighthouse run of one URL: its report (Lighthouse launches and closes Chromium). */
async function runOnce(url: string, debugPort: number): Promise<Lhr> {
  const dir = mkdtempSync(path.join(tmpdir(), "lumen-lighthouse-"));
  const out = path.join(dir, "report.json");
  try {
    const args = [
      cli,
      url,
      "--quiet",
      "--output=json",
      `--output-path=${out}`,
      `--only-categories=${CATEGORIES.join(",")}`,
      "--form-factor=mobile",
      `--port=${debugPort}`,
      `--chrome-flags=${CHROME_FLAGS.join(" ")} --user-data-dir=${path.join(dir, "profile")}`,
      "--max-wait-for-load=60000",
    ];
    const stderr = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env: { ...process.env, CHROME_PATH: chromePath() },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        err += d;
      });
      child.once("error", reject);
      child.once("close", (code) =>
        code === 0 ? resolve(err) : reject(new Error(`lighthouse exited with ${code}: ${err.slice(-2000)}`)),
      );
    });
    if (!existsSync(out)) throw new Error(`lighthouse wrote no report: ${stderr.slice(-2000)}`);
    const lhr = JSON.parse(readFileSync(out, "utf8")) as Lhr;
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    return lhr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const score = (lhr: Lhr, id: string): number | null => {
  const s = lhr.categories[id]?.score;
  return s === null || s === undefined ? null : Math.round(s * 100);
};
const numeric = (lhr: Lhr, id: string, digits = 0): number | null => {
  const v = lhr.audits[id]?.numericValue;
  if (v === undefined) return null;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** The row for one page from its report. */
export function summarise(page: string, pagePath: string, lhr: Lhr): LighthouseRow {
  const perfRefs = lhr.categories.performance?.auditRefs ?? [];
  // The audits Lighthouse estimates would save the most of LCP, FCP and TBT (in ms).
  const opportunities = perfRefs
    .map((r) => lhr.audits[r.id])
    .filter((a): a is LhrAudit => a !== undefined && a.score !== null && a.score < 0.9)
    .map((a) => {
      const m = a.metricSavings ?? {};
      const ms = Math.max(m.LCP ?? 0, m.FCP ?? 0, m.TBT ?? 0, a.details?.overallSavingsMs ?? 0);
      return { title: a.displayValue ? `${a.title}: ${a.displayValue}` : a.title, ms };
    })
    .filter((a) => a.ms > 0)
    .sort((a, b) => b.ms - a.ms)
    .map((a) => `${a.title} (~${Math.round(a.ms)} ms)`);
  const weight = lhr.audits["total-byte-weight"]?.numericValue;
  return {
    page,
    path: pagePath,
    performance: score(lhr, "performance"),
    accessibility: score(lhr, "accessibility"),
    bestPractices: score(lhr, "best-practices"),
    seo: score(lhr, "seo"),
    fcpMs: numeric(lhr, "first-contentful-paint"),
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    cls: numeric(lhr, "cumulative-layout-shift", 3),
    speedIndexMs: numeric(lhr, "speed-index"),
    transferKiB: weight === undefined ? null : Math.round(weight / 1024),
    opportunities: opportunities.slice(0, 5),
    runs: 1,
  };
}

/** Runs Lighthouse on each page (`runs` times each, the run with the median performance kept). */
export async function runLighthouse(
  base: string,
  pages: Array<{ page: string; path: string }>,
  options: { runs?: number; debugPort?: number } = {},
): Promise<LighthouseRow[]> {
  const runs = Math.max(1, options.runs ?? Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 1));
  const debugPort = options.debugPort ?? 3615;
  if (!existsSync(chromePath())) {
    return pages.map((p) => ({
      ...emptyRow(p),
      error: `no Chromium at ${chromePath()} (apt-get install chromium)`,
    }));
  }
  const rows: LighthouseRow[] = [];
  for (const p of pages) {
    const results: LighthouseRow[] = [];
    let error: string | undefined;
    for (let i = 0; i < runs; i++) {
      try {
        results.push(summarise(p.page, p.path, await runOnce(base + p.path, debugPort)));
      } catch (e) {
        error = (e as Error).message;
      }
    }
    if (results.length === 0) {
      rows.push({ ...emptyRow(p), error });
      continue;
    }
    results.sort((a, b) => (a.performance ?? 0) - (b.performance ?? 0));
    rows.push({ ...results[Math.floor((results.length - 1) / 2)]!, runs: results.length });
  }
  return rows;
}

function emptyRow(p: { page: string; path: string }): LighthouseRow {
  return {
    ...p,
    performance: null,
    accessibility: null,
    bestPractices: null,
    seo: null,
    fcpMs: null,
    lcpMs: null,
    tbtMs: null,
    cls: null,
    speedIndexMs: null,
    transferKiB: null,
    opportunities: [],
    runs: 0,
  };
}

/** The table a reader sees. */
export function printLighthouse(rows: LighthouseRow[]): void {
  console.table(
    rows.map((r) => ({
      page: r.page,
      performance: r.performance,
      accessibility: r.accessibility,
      "best practices": r.bestPractices,
      SEO: r.seo,
      "FCP ms": r.fcpMs,
      "LCP ms": r.lcpMs,
      "TBT ms": r.tbtMs,
      CLS: r.cls,
      KiB: r.transferKiB,
      ...(r.error ? { error: r.error.slice(0, 120) } : {}),
    })),
  );
  for (const r of rows) {
    if (r.opportunities.length > 0) console.log(`  ${r.page}: ${r.opportunities.join("; ")}`);
  }
}

if (import.meta.main) {
  const [base, ...paths] = process.argv.slice(2);
  if (!base || !/^https?:\/\//.test(base)) {
    process.stderr.write("usage: node bench/lighthouse.ts <base url> [path …]\n");
    process.exit(2);
  }
  const list = (paths.length > 0 ? paths : ["/", "/pricing"]).map((p) => ({ page: p, path: p }));
  const rows = await runLighthouse(base.replace(/\/$/, ""), list);
  printLighthouse(rows);
  console.log(JSON.stringify(rows, null, 2));
}
