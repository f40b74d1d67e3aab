/**
 * A version diff's body as rows to show: one row per line, each marked "+" (added), "−" (removed)
 * or " " (unchanged), with long unchanged stretches folded to a count so the changes stand out.
 */
import type { VersionDiff } from "./types.ts";

export type DiffOp = VersionDiff["body"][number]["op"];

export type DiffRow =
  | {
      kind: "line";
      op: DiffOp;
      marker: "+" | "−" | " ";
      text: string;
      oldNo: number | null;
      newNo: number | null;
    }
  | { kind: "fold"; count: number };

const MARKER: Readonly<Record<DiffOp, "+" | "−" | " ">> = { add: "+", remove: "−", same: " " };

/**
 * The entries as single lines with their numbers in the old and the new text. An entry may hold
 * several lines (a chunk of the `diff` package): it is split, and its final newline ends its last
 * line rather than starting an empty one.
 */
export function diffLines(body: VersionDiff["body"]): Extract<DiffRow, { kind: "line" }>[] {
  const rows: Extract<DiffRow, { kind: "line" }>[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const entry of body) {
    const lines = entry.text.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    for (const text of lines) {
      if (entry.op !== "add") oldNo += 1;
      if (entry.op !== "remove") newNo += 1;
      rows.push({
        kind: "line",
        op: entry.op,
        marker: MARKER[entry.op],
        text,
        oldNo: entry.op === "add" ? null : oldNo,
        newNo: entry.op === "remove" ? null : newNo,
      });
    }
  }
  return rows;
}

/**
 * Keeps `context` unchanged lines around each change and folds longer unchanged runs into one
 * "n unchanged lines" row. A fold never hides fewer than 2 lines (showing them is as short).
 */
export function foldUnchanged(rows: readonly Extract<DiffRow, { kind: "line" }>[], context = 3): DiffRow[] {
  const keep = rows.map((r) => r.op !== "same");
  const near = rows.map((_, i) => {
    for (let d = -context; d <= context; d += 1) if (keep[i + d]) return true;
    return false;
  });
  const out: DiffRow[] = [];
  let i = 0;
  while (i < rows.length) {
    if (near[i]) {
      out.push(rows[i]!);
      i += 1;
      continue;
    }
    let j = i;
    while (j < rows.length && !near[j]) j += 1;
    if (j - i >= 2) out.push({ kind: "fold", count: j - i });
    else out.push(...rows.slice(i, j));
    i = j;
  }
  return out;
}

/** How many lines were added and removed. */
export function diffStats(body: VersionDiff["body"]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const row of diffLines(body)) {
    if (row.op === "add") added += 1;
    else if (row.op === "remove") removed += 1;
  }
  return { added, removed };
}
