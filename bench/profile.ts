/**
 * A summary of a V8 CPU profile (`node --cpu-prof`): the functions with the most self time, with
 * their file and line, so the place where a target's time goes shows without opening DevTools.
 * Also runs alone: `node bench/profile.ts <file.cpuprofile> [count]`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTimeRow {
  function: string;
  where: string;
  selfMs: number;
  selfPct: number;
}

/** Where a frame comes from, short: a package name and file, or a path under the project. */
export function shortWhere(url: string, line: number, root?: string): string {
  if (!url) return "";
  let file = url.startsWith("file://") ? decodeURIComponent(new URL(url).pathname) : url;
  const nm = file.lastIndexOf("/node_modules/");
  if (nm >= 0) file = file.slice(nm + "/node_modules/".length);
  else if (root && file.startsWith(`${root}${path.sep}`)) file = file.slice(root.length + 1);
  return `${file}:${line + 1}`;
}

/** Self time per function (samples × their time deltas), largest first. */
export function topSelfTime(profile: CpuProfile, count = 20, root?: string): SelfTimeRow[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, { function: string; where: string; us: number }>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample's time is the gap to the next one (the last sample gets the gap before it).
    const us = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
    const node = byId.get(profile.samples[i]!);
    if (!node) continue;
    const f = node.callFrame;
    const name = f.functionName || "(anonymous)";
    const where = shortWhere(f.url, f.lineNumber, root);
    const key = `${name}@${where}`;
    const entry = self.get(key) ?? { function: name, where, us: 0 };
    entry.us += us;
    self.set(key, entry);
    total += us;
  }
  return [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map((e) => ({
      function: e.function,
      where: e.where,
      selfMs: Math.round(e.us / 1000),
      selfPct: total > 0 ? Math.round((e.us / total) * 1000) / 10 : 0,
    }));
}

if (import.meta.main) {
  const [file, count] = process.argv.slice(2);
  if (!file) {
    process.stderr.write("usage: node bench/profile.ts <file.cpuprofile> [count]\n");
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  console.table(topSelfTime(profile, Number(count ?? 25), path.resolve(import.meta.dirname, "..")));
}

/**
 * A V8 profiler session over the inspector protocol of a process started with
 * `--inspect=127.0.0.1:<port>` (loopback only), so one load can be profiled on its own.
 */
export class InspectorProfiler {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private readonly ws: WebSocket;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.addEventListener("message", (event) => {
      const msg = JSON.parse(String(event.data)) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      if (msg.id === undefined) return;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error.message));
      else p.resolve(msg.result);
    });
  }

  static async connect(port: number): Promise<InspectorProfiler> {
    const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
      webSocketDebuggerUrl: string;
    }>;
    const url = list[0]?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target on port ${port}`);
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => resolve(), { once: true });
      ws.addEventListener("error", () => reject(new Error(`inspector connection to ${url} failed`)), {
        once: true,
      });
    });
    const profiler = new InspectorProfiler(ws);
    await profiler.send("Profiler.enable");
    return profiler;
  }

  private send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  async start(): Promise<void> {
    await this.send("Profiler.start");
  }

  async stop(): Promise<CpuProfile> {
    return ((await this.send("Profiler.stop")) as { profile: CpuProfile }).profile;
  }

  close(): void {
    this.ws.close();
  }
}
