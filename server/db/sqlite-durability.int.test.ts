import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase } from "./database.ts";
import { migrations } from "./migrations/index.ts";

const writer = fileURLToPath(new URL("./testing/crash-writer.ts", import.meta.url));

interface Writer {
  acknowledged: string[];
  /** Resolves once `count` writes were acknowledged; rejects if the writer dies first. */
  reached: Promise<void>;
  exited: Promise<NodeJS.Signals | null>;
  kill(): void;
}

function startWriter(file: string, count: number): Writer {
  const child = spawn(process.execPath, [writer, file], { stdio: ["ignore", "pipe", "pipe"] });
  const acknowledged: string[] = [];
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("exit", (_code, signal) => resolve(signal)),
  );
  const reached = new Promise<void>((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`writer too slow: ${stderr}`)), 20_000);
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("row-")) acknowledged.push(line);
      if (acknowledged.length >= count) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", () => {
      clearTimeout(timer);
      if (acknowledged.length < count) reject(new Error(`writer exited early: ${stderr}`));
    });
  });
  return { acknowledged, reached, exited, kill: () => child.kill("SIGKILL") };
}

async function storedIds(
  file: string,
): Promise<{ integrity: string[]; ids: Set<string>; migrations: number }> {
  const database = createDatabase(file);
  try {
    const check = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(database.db);
    const rows = await database.db
      .selectFrom("audit_log")
      .select("id")
      .where("action", "=", "crash.test")
      .execute();
    const applied = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(database.db);
    return {
      integrity: check.rows.map((r) => r.integrity_check),
      ids: new Set(rows.map((r) => r.id)),
      migrations: Number(applied.rows[0]?.n),
    };
  } finally {
    await database.close();
  }
}

describe("SQLite durability (SECURITY.md §20)", () => {
  const dir = mkdtempSync(join(tmpdir(), "lumen-crash-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("loses no acknowledged write when the process is killed mid-write, and passes integrity_check", async () => {
    const file = join(dir, "crash.db");
    const w = startWriter(file, 200);
    await w.reached;
    w.kill();
    expect(await w.exited).toBe("SIGKILL");

    const stored = await storedIds(file);
    expect(stored.integrity).toEqual(["ok"]);
    expect(w.acknowledged.filter((id) => !stored.ids.has(id))).toEqual([]);
  });

  it("lets several processes migrate the same new file once and write to it concurrently", async () => {
    const file = join(dir, "shared.db");
    const writers = [startWriter(file, 50), startWriter(file, 50), startWriter(file, 50)];
    try {
      await Promise.all(writers.map((w) => w.reached));
    } finally {
      for (const w of writers) w.kill();
      await Promise.all(writers.map((w) => w.exited));
    }
    const stored = await storedIds(file);
    expect(stored.integrity).toEqual(["ok"]);
    expect(stored.migrations).toBe(Object.keys(migrations).length);
    for (const w of writers) expect(w.acknowledged.filter((id) => !stored.ids.has(id))).toEqual([]);
  });
});
