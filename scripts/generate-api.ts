/**
 * `npm run api:generate`: writes the API documents generated from the code (decision 034) —
 * `docs/api/openapi.json` (the REST routes' declarations), `docs/api/schema.graphql` (the Pothos
 * schema) and the app's typed GraphQL operations. `--check` writes nothing and exits 1 when a
 * committed file differs. Files are written as biome formats them; the unit test
 * `server/http/openapi-files.unit.test.ts` compares their meaning with what the code generates.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generatedApiFiles } from "../server/http/openapi-files.ts";

const root = path.resolve(import.meta.dirname, "..");
const check = process.argv.includes("--check");

/** The text as the repository's formatter (biome) writes that file, so `biome check` passes. */
function formatted(file: string, text: string): string {
  const biome = path.join(root, "node_modules", ".bin", "biome");
  const run = spawnSync(biome, ["format", `--stdin-file-path=${file}`], {
    cwd: root,
    input: text,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`biome could not format ${file}: ${run.stderr}`);
  return run.stdout;
}

let stale = 0;
for (const [file, generated] of await generatedApiFiles()) {
  const text = formatted(file, generated);
  const target = path.join(root, file);
  let current: string | null = null;
  try {
    current = readFileSync(target, "utf8");
  } catch {
    current = null;
  }
  if (current === text) {
    process.stdout.write(`unchanged  ${file}\n`);
    continue;
  }
  if (check) {
    stale++;
    process.stdout.write(`stale      ${file}\n`);
    continue;
  }
  writeFileSync(target, text);
  process.stdout.write(`written    ${file}\n`);
}
if (stale > 0) {
  process.stderr.write(`${stale} file(s) differ from the code: run npm run api:generate and commit them.\n`);
  process.exit(1);
}
