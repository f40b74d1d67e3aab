/**
 * What the bench reads from /proc (Linux): a process tree's CPU time, a process's resident set,
 * and the whole machine's busy time, so a reader sees whether the server, the load generator or
 * something else on the machine was the limit.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** The fields of /proc/<pid>/stat the bench uses (clock ticks). */
export interface ProcStat {
  ppid: number;
  utime: number;
  stime: number;
}

/** Parses one /proc/<pid>/stat line (the command name may hold spaces and parentheses). */
export function parseProcStat(line: string): ProcStat {
  const close = line.lastIndexOf(")");
  if (close < 0) throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  // Fields after the command: 3 state, 4 ppid, … 14 utime, 15 stime.
  const f = line
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  return { ppid: Number(f[1]), utime: Number(f[11]), stime: Number(f[12]) };
}

let ticks: number | undefined;
/** Clock ticks per second (`getconf CLK_TCK`, 100 on every usual Linux). */
export function clockTicksPerSec(): number {
  if (ticks === undefined) {
    const out = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim();
    ticks = Number(out) > 0 ? Number(out) : 100;
  }
  return ticks;
}

function readStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null; // gone
  }
}

/** CPU seconds (user + system) used so far by `pid` and every live descendant of it. */
export function treeCpuSec(pid: number): number {
  const all = new Map<number, ProcStat>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s) all.set(Number(name), s);
  }
  let total = 0;
  const queue = [pid];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const p = queue.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    const s = all.get(p);
    if (s) total += s.utime + s.stime;
    for (const [child, cs] of all) if (cs.ppid === p) queue.push(child);
  }
  return total / clockTicksPerSec();
}

/** Resident set of a process in MB (VmRSS from /proc/<pid>/status), or null if it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Busy and total CPU seconds of the whole machine so far (the first line of /proc/stat). */
export function machineCpuSec(): { busy: number; total: number } {
  const first = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const v = first.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / clockTicksPerSec(), total: total / clockTicksPerSec() };
}
