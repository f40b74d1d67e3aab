/**
 * `npm start`: build if the production build is missing or older than the sources,
 * then serve the server bundle (the server migrates and seeds an empty database itself).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

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

const sourcesMtime = Math.max(
  ...["app", "core", "public", "server"]
    .filter((d) => existsSync(path.join(root, d)))
    .map((d) => newestMtime(path.join(root, d))),
);
if (!existsSync(buildEntry) || statSync(buildEntry).mtimeMs < sourcesMtime) {
  process.stdout.write("Building the production bundle…\n");
  const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import(pathToFileURL(path.join(root, "build", "bundle", "server.js")).href);
