/**
 * The API documents committed in the repository (decision 034), as `npm run api:generate` writes
 * them and `openapi-files.unit.test.ts` checks them: the REST API's OpenAPI document, the data
 * API's SDL and the types of the client's GraphQL operations, all generated from the code (the
 * route declarations, the Pothos schema, `app/graphql/operations.graphql`).
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
export const OPERATIONS_SOURCE = "app/graphql/operations.graphql";
export const OPERATIONS_TYPES = "app/graphql/operations.generated.ts";

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { operationTypes } from "../graphql/operation-types.ts";
import { loadSchema, schemaSdl } from "../graphql/sdl.ts";
import { openApiJson } from "./openapi.ts";

/** Repository path → generated text. */
export async function generatedApiFiles(): Promise<Map<string, string>> {
  return new Map([
    ["docs/api/openapi.json", openApiJson()],
    ["docs/api/schema.graphql", await schemaSdl()],
    [
      OPERATIONS_TYPES,
      operationTypes(await loadSchema(), readFileSync(path.join(ROOT, OPERATIONS_SOURCE), "utf8"), {
        clientImport: "../lib/graphql-client.ts",
        sourceName: OPERATIONS_SOURCE,
      }),
    ],
  ]);
}

/** The text as the repository's formatter (biome) writes that file, so `biome check` passes. */
export function formatLikeRepository(file: string, text: string): string {
  const biome = path.join(ROOT, "node_modules", ".bin", "biome");
  const run = spawnSync(biome, ["format", `--stdin-file-path=${file}`], {
    cwd: ROOT,
    input: text,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`biome could not format ${file}: ${run.stderr}`);
  return run.stdout;
}
