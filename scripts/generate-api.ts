/**
 * `npm run api:generate`: writes the API documents generated from the code (decision 034) —
 * `docs/api/openapi.json` (the REST routes' declarations), `docs/api/schema.graphql` (the Pothos
 * schema) and the app's typed GraphQL operations. `--check` writes nothing and exits 1 when a
 * committed file differs. Files are written as biome formats them; the unit test
 * `server/http/openapi-files.unit.test.ts` compares their meaning with what the code generates.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatLikeRepository, generatedApiFiles } from "../server/http/openapi-files.ts";

const root = path.resolve(import.meta.dirname, "..");
const check = process.argv.includes("--check");

let stale = 0;
for (const [file, generated] of await generatedApiFiles()) {
  const text = formatLikeRepository(file, generated);
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
