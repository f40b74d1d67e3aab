/**
 * Builds the production bundle when it is missing or older than the sources: `npm start`,
 * `npm run cluster` and `npm run soak` run the build, never the sources.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
/** The last file `npm run build` writes (scripts/build-server.ts). */
const buildEntry = path.join(root, "build", "bundle", "main.js");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!entry.name.includes(".test.")) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export function ensureBuild(log: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): void {
  const sourcesMtime = Math.max(
    ...["app", "core", "public", "server"]
      .filter((d) => existsSync(path.join(root, d)))
      .map((d) => newestMtime(path.join(root, d))),
  );
  if (existsSync(buildEntry) && statSync(buildEntry).mtimeMs >= sourcesMtime) return;
  log("Building the production bundle…");
  const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
