import { getOperationAST, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { requestKind } from "../http/rate-limit.ts";
import { MUTATION_WEIGHT, operationCost } from "./cost.ts";
import { schema } from "./schema.ts";

const costOf = (query: string, variables: Record<string, unknown> = {}) => {
  const document = parse(query);
  return operationCost(schema, document, getOperationAST(document)!, variables);
};

describe("GraphQL operation cost (decision 014)", () => {
  it("a 100-item list costs about 100; fifteen aliases of it about 1,500", () => {
    expect(costOf("{ listContents(limit: 100) { items { slug } } }").cost).toBe(101);
    const aliased = Array.from(
      { length: 15 },
      (_, i) => `l${i}: listContents(limit: 100) { items { slug } }`,
    );
    expect(costOf(`{ ${aliased.join(" ")} }`).cost).toBe(1515);
  });

  it("takes the page size from variables, the default page size when absent, at most the largest page", () => {
    expect(costOf("query ($n: Int) { listContents(limit: $n) { items { slug } } }", { n: 50 }).cost).toBe(51);
    expect(costOf("{ listContents { items { slug } } }").cost).toBe(21);
    expect(costOf("{ listContents(limit: 100000) { items { slug } } }").cost).toBe(101);
  });

  it("names every paginated field asked for a page size outside 1 to 100", () => {
    expect(costOf("{ listContents(limit: 100) { items { slug } } }").badPageSizes).toEqual([]);
    expect(costOf("{ listContents(limit: null) { items { slug } } }").badPageSizes).toEqual([]);
    expect(
      costOf(
        "{ a: listContents(limit: 101) { items { slug } } b: listContents(limit: 0) { items { slug } } }",
      ).badPageSizes,
    ).toEqual(["listContents (given 101)", "listContents (given 0)"]);
    expect(
      costOf("query ($n: Int) { listContents(limit: $n) { items { slug } } }", { n: 2.5 }).badPageSizes,
    ).toEqual(["listContents (given 2.5)"]);
  });

  it("counts fragments and multiplies nested lists", () => {
    const viaFragment = costOf(
      "query { listContents(limit: 10) { ...page } } fragment page on ContentConnection { items { slug } }",
    );
    expect(viaFragment.cost).toBe(11);
    expect(costOf("{ apiVersion }").cost).toBe(1);
  });

  it("weighs mutation fields and names them", () => {
    const result = costOf(
      'mutation { a: createComment(input: { contentId: "x", body: "y" }) { id } b: createComment(input: { contentId: "x", body: "z" }) { id } }',
    );
    expect(result.mutationFields).toEqual(["createComment", "createComment"]);
    expect(result.cost).toBe(2 * (MUTATION_WEIGHT + 1));
  });
});

describe("which requests the rate limits charge", () => {
  it.each([
    ["GET", "/api/content", "read"],
    ["POST", "/api/content/x/view", "write"],
    ["DELETE", "/api/account/sessions/1", "write"],
    ["POST", "/graphql", "read"],
    ["GET", "/library.data", "read"],
    ["POST", "/account", "write"],
    ["GET", "/api/auth/get-session", null],
    ["POST", "/api/auth/sign-in/email", null],
    ["GET", "/api/health", null],
    ["GET", "/library", null],
    ["GET", "/assets/app.js", null],
  ] as const)("%s %s → %s", (method, path, kind) => {
    expect(requestKind(method, path)).toBe(kind);
  });
});
