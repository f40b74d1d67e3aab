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
import { operationTypes } from "../graphql/operation-types.ts";
import { loadSchema } from "../graphql/sdl.ts";
import { formatLikeRepository, generatedApiFiles, OPERATIONS_TYPES } from "./openapi-files.ts";

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

  it("app/graphql/operations.generated.ts holds the types of the client's operations", () => {
    const generated = formatLikeRepository(OPERATIONS_TYPES, files.get(OPERATIONS_TYPES)!);
    expect(committed(OPERATIONS_TYPES), REGENERATE).toBe(generated);
    expect(generated).toContain("export const ApiVersionDocument = graphql<ApiVersionQuery");
  });

  it("notices a change (the comparison is not blind)", () => {
    const generated = JSON.parse(files.get("docs/api/openapi.json")!);
    const changed = JSON.parse(committed("docs/api/openapi.json"));
    delete changed.paths["/api/search"];
    expect(changed).not.toEqual(generated);
  });
});

describe("operation types", async () => {
  const schema = await loadSchema();
  const options = { clientImport: "./client.ts", sourceName: "ops.graphql" };

  it("refuses an operation the schema does not answer", () => {
    expect(() => operationTypes(schema, "query Gone { noSuchField }", options)).toThrow(
      /ops.graphql does not match the schema:\n- Cannot query field "noSuchField"/,
    );
    expect(() =>
      operationTypes(schema, "query V($s: Int!) { listContentBySlug(slug: $s) { items { id } } }", options),
    ).toThrow(/does not match the schema/);
  });

  it("types nullability, lists, aliases and optional variables from the schema", () => {
    const out = operationTypes(
      schema,
      "query Page($slug: String!, $limit: Int) { page: listContentBySlug(slug: $slug, limit: $limit) { items { id __typename } nextToken } }",
      options,
    );
    expect(out).toContain("page: {");
    expect(out).toContain("items: Array<{");
    expect(out).toContain('__typename: "Content";');
    expect(out).toContain("nextToken: string | null;");
    expect(out).toContain("slug: string;");
    expect(out).toContain("limit?: number | null;");
    expect(out).toContain("export const PageDocument = graphql<PageQuery, PageQueryVariables>(");
  });
});
