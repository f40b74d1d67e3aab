/**
 * `npm run test:integration`: the integration tests, once per database. With TEST_DATABASE_URL
 * set, the SQLite pass and the PostgreSQL pass run side by side in two Vitest processes (they
 * share no state: every test server gets its own data folder, and every PostgreSQL test its own
 * database or schema); the PostgreSQL pass skips the files that never touch a database dialect.
 * Arguments (file filters, -t …) go to both passes. Exits non-zero when either pass fails.
 */
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const vitest = path.join(root, "node_modules", ".bin", "vitest");
const args = ["run", "--project", "integration", ...process.argv.slice(2)];
const passes = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

function run(dialect: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(vitest, args, {
      cwd: root,
      env: { ...process.env, TEST_DIALECTS: dialect, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const prefix = passes.length > 1 ? `[${dialect}] ` : "";
    for (const stream of [child.stdout, child.stderr]) {
      let rest = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
      });
      stream.on("end", () => {
        if (rest) process.stdout.write(`${prefix}${rest}\n`);
      });
    }
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all(passes.map(run));
passes.forEach((dialect, i) => {
  process.stdout.write(`${dialect} pass: ${codes[i] === 0 ? "passed" : `failed (exit ${codes[i]})`}\n`);
});
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
