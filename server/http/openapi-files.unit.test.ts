/**
 * The API documents committed under docs/api are the ones the code generates (decision 034): a
 * route, schema or operation change without `npm run api:generate` fails here. The files are
 * stored as biome formats them, so they are compared by meaning: the OpenAPI JSON as data, the
 * SDL as the schema it builds, printed again.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { buildSchema, printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { generatedApiFiles } from "./openapi-files.ts";

const root = path.resolve(import.meta.dirname, "../..");
const committed = (file: string) => readFileSync(path.join(root, file), "utf8");
const REGENERATE = "differs from the code: run `npm run api:generate` and commit the result";

describe("committed API documents", async () => {
  const files = await generatedApiFiles();

  it("docs/api/openapi.json is the generated OpenAPI document", () => {
    const generated = JSON.parse(files.get("docs/api/openapi.json")!);
    expect(JSON.parse(committed("docs/api/openapi.json")), REGENERATE).toEqual(generated);
  });

  it("docs/api/schema.graphql is the printed Pothos schema", () => {
    const sdl = files.get("docs/api/schema.graphql")!;
    expect(`${printSchema(buildSchema(committed("docs/api/schema.graphql")))}\n`, REGENERATE).toBe(sdl);
    expect(sdl).toContain("type Query");
  });

  it("notices a change (the comparison is not blind)", () => {
    const generated = JSON.parse(files.get("docs/api/openapi.json")!);
    const changed = JSON.parse(committed("docs/api/openapi.json"));
    delete changed.paths["/api/search"];
    expect(changed).not.toEqual(generated);
  });
});
