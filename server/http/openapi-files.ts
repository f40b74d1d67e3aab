/**
 * The API documents committed in the repository (decision 034), as `npm run api:generate` writes
 * them and `openapi-files.unit.test.ts` checks them: the REST API's OpenAPI document and the data
 * API's SDL, both generated from the code (the route declarations, the Pothos schema).
 */
import { schemaSdl } from "../graphql/sdl.ts";
import { openApiJson } from "./openapi.ts";

/** Repository path → generated text. */
export async function generatedApiFiles(): Promise<Map<string, string>> {
  return new Map([
    ["docs/api/openapi.json", openApiJson()],
    ["docs/api/schema.graphql", await schemaSdl()],
  ]);
}
