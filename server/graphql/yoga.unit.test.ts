/**
 * The Yoga factory without HTTP or a database: introspection and suggestions by mode, the
 * limits, the mutation gate per credential kind, apiVersion, and that each input type takes
 * exactly the fields its zod schema accepts (one truth for what a client may write).
 */
import {
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  getNamedType,
  isLeafType,
  parse,
  validate,
} from "graphql";
import { describe, expect, it } from "vitest";
import { visitorContext } from "../../core/index.ts";
import type { Credential } from "../auth/identity.ts";
import { actorForCredential } from "../modules/actor.ts";
import { createCommentInput, updateCommentInput } from "../modules/comments/comments.service.ts";
import {
  contentCategoryWriteSchema,
  contentItemWriteSchema,
  contentWriteSchema,
  SERVER_CHOSEN_FIELDS,
} from "../modules/content/content.schemas.ts";
import {
  createBranchInput,
  createCategoryInput,
  createFileInput,
  createIssueInput,
  createRepositoryInput,
  createWorkflowInput,
  updateBranchInput,
  updateCategoryInput,
  updateFileInput,
  updateIssueInput,
  updateRepositoryInput,
  updateWorkflowInput,
} from "../modules/repositories/repositories.service.ts";
import {
  createSubscriptionInput,
  updateSubscriptionInput,
} from "../modules/subscriptions/subscriptions.service.ts";
import { createUserInput, updateUserInput } from "../modules/users/users.service.ts";
import type { GraphQLServerContext } from "./context.ts";
import { API_VERSION } from "./limits.ts";
import { schema } from "./schema.ts";
import { createGraphQLYoga, GRAPHIQL_DEFAULT_QUERY, type GraphQLMode } from "./yoga.ts";

const untouchable = new Proxy(
  {},
  {
    get(_target, key) {
      if (typeof key === "symbol" || key === "then" || key === "toJSON") return undefined;
      throw new Error(`the services must not be called here (${key})`);
    },
  },
);

function contextFor(identity: Credential, sameOrigin = true): GraphQLServerContext {
  return {
    identity,
    actor: actorForCredential(identity),
    services: { content: untouchable } as GraphQLServerContext["services"],
    links: untouchable as GraphQLServerContext["links"],
    sameOrigin,
  };
}
const visitor: Credential = { kind: "visitor", context: visitorContext("test"), scopes: null };

async function run(mode: GraphQLMode, query: string, ctx = contextFor(visitor), variables?: unknown) {
  const yoga = createGraphQLYoga({
    mode,
    logger: { error: (o: unknown) => console.log("UNEXPECTED", o) } as never,
  });
  const res = await yoga.fetch(
    "http://localhost/graphql",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    },
    ctx,
  );
  return {
    status: res.status,
    body: (await res.json()) as {
      data?: Record<string, unknown> | null;
      errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
      extensions?: Record<string, unknown>;
    },
  };
}

describe("yoga factory", () => {
  it("serves GraphiQL in development from the package itself (no CDN), and not in production", async () => {
    const page = (mode: GraphQLMode) =>
      createGraphQLYoga({ mode }).fetch(
        "http://localhost/graphql",
        { method: "GET", headers: { accept: "text/html" } },
        contextFor(visitor),
      );
    const dev = await page("development");
    expect(dev.status).toBe(200);
    expect(dev.headers.get("content-type")).toContain("text/html");
    const html = await dev.text();
    expect(html).toContain("GraphiQL");
    expect(html).not.toMatch(/https:\/\/(unpkg\.com|cdn\.jsdelivr\.net)/);
    const prod = await page("production");
    expect(prod.headers.get("content-type") ?? "").not.toContain("text/html");
    // The query GraphiQL opens with is valid against the schema.
    expect(validate(schema, parse(GRAPHIQL_DEFAULT_QUERY))).toEqual([]);
  });

  it("answers apiVersion as a field and in extensions", async () => {
    const { body } = await run("production", "{ apiVersion }");
    expect(body.data).toEqual({ apiVersion: API_VERSION });
    expect(body.extensions).toEqual({ apiVersion: "1.4" });
    const failed = await run("production", "{ nope }");
    expect(failed.body.extensions).toEqual({ apiVersion: "1.4" });
  });

  it("refuses introspection in production, allows it in development and test", async () => {
    const query = "{ __schema { queryType { name } } }";
    const prod = await run("production", query);
    expect(prod.body.data ?? null).toBeNull();
    expect(prod.body.errors?.[0]?.message).toMatch(/introspection/i);
    for (const mode of ["development", "test"] as const) {
      const ok = await run(mode, query);
      expect(ok.body.errors).toBeUndefined();
      expect(ok.body.data).toEqual({ __schema: { queryType: { name: "Query" } } });
    }
    expect((await run("production", "{ __typename }")).body.data).toEqual({ __typename: "Query" });
  });

  it("gives no field suggestions in production, and does in development", async () => {
    const prod = await run("production", "{ listContent { items { id } } }");
    expect(JSON.stringify(prod.body.errors)).not.toMatch(/Did you mean/);
    const dev = await run("development", "{ listContent { items { id } } }");
    expect(JSON.stringify(dev.body.errors)).toMatch(/Did you mean/);
  });

  it("refuses a depth bomb, an alias bomb, a directive bomb and a token bomb before executing", async () => {
    let deep = "id";
    for (let i = 0; i < 5; i++) deep = `contentItems { content { ${deep} } }`; // depth 13
    const depth = await run("production", `{ listContents { items { ${deep} } } }`);
    expect(depth.body.data ?? null).toBeNull();
    expect(depth.body.errors?.map((e) => e.message).join("\n")).toMatch(/depth limit of 10/i);
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: apiVersion`).join(" ");
    expect((await run("production", `{ ${aliases} }`)).body.errors?.[0]?.message).toMatch(/alias/i);
    const directives = Array.from({ length: 40 }, () => "@include(if: true)").join(" ");
    expect((await run("production", `{ apiVersion ${directives} }`)).body.errors?.[0]?.message).toMatch(
      /directive/i,
    );
    const tokens = `{ ${Array.from({ length: 1200 }, () => "apiVersion").join(" ")} }`;
    expect((await run("production", tokens)).body.errors?.[0]?.message).toMatch(/token/i);
  });

  it("refuses a cost bomb (wide and nested selections within the depth limit)", async () => {
    // Every scalar of Content, three levels down: depth 9, within the depth limit.
    const content = schema.getType("Content") as GraphQLObjectType;
    const fields = Object.values(content.getFields())
      .filter((f) => isLeafType(getNamedType(f.type)))
      .map((f) => f.name)
      .join(" ");
    const level = (inner: string) => `contentItems { id content { ${fields} ${inner} } }`;
    const query = `{ listContents { items { ${fields} ${level(level(level("")))} } } }`;
    const res = await run("production", query);
    expect(res.body.data ?? null).toBeNull();
    const messages = res.body.errors?.map((e) => e.message).join("\n");
    expect(messages).toMatch(/cost limit of 1000/i);
    expect(messages).not.toMatch(/depth/i);
  });

  it("lets only bearer tokens and same-origin sessions reach a mutation's resolver", async () => {
    const mutation = 'mutation { deleteContentCategory(id: "x") { id } }';
    const user = visitorContext("test");
    const cases: Array<[Credential, boolean, string]> = [
      [visitor, true, "UNAUTHENTICATED"],
      [
        { kind: "api-key", context: user, scopes: ["content:read"], keyId: "k", ownerId: "u" },
        true,
        "FORBIDDEN",
      ],
      [{ kind: "service", context: user, scopes: ["content:read:all"], clientId: "svc" }, true, "FORBIDDEN"],
      [
        { kind: "session", context: { ...user, userId: "u1", authStatus: "authenticated" }, scopes: null },
        false,
        "FORBIDDEN",
      ],
    ];
    for (const [identity, sameOrigin, code] of cases) {
      const { body } = await run("production", mutation, contextFor(identity, sameOrigin));
      expect(body.errors?.[0]?.extensions?.code, identity.kind).toBe(code);
      expect(body.data ?? null).toBeNull();
    }
  });

  it("wrong variable types and malformed documents are GraphQL errors, not crashes", async () => {
    const wrongType = await run("production", "query ($id: ID!) { getContent(id: $id) { id } }", undefined, {
      id: { nested: true },
    });
    expect(wrongType.status).toBeLessThan(500);
    expect(wrongType.body.errors?.[0]?.message).toMatch(/\$id/);
    expect(wrongType.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const malformed = await run("production", "{ listContents( ");
    expect(malformed.status).toBeLessThan(500);
    expect(malformed.body.errors?.[0]?.message).toMatch(/Syntax Error/);
    const badDate = await run(
      "production",
      'query { listContentByTierAndPublishedAt(tier: "Free", publishedAt: { lt: "yesterday" }) { items { id } } }',
    );
    expect(badDate.body.errors?.[0]?.message).toMatch(/ISO-8601/);
  });

  it.each([
    ["CreateContentInput", contentWriteSchema],
    ["UpdateContentInput", contentWriteSchema],
    ["CreateContentCategoryInput", contentCategoryWriteSchema],
    ["UpdateContentCategoryInput", contentCategoryWriteSchema],
    ["CreateContentItemInput", contentItemWriteSchema],
    ["UpdateContentItemInput", contentItemWriteSchema],
    ["CreateUserSubscriptionInput", createSubscriptionInput],
    ["UpdateUserSubscriptionInput", updateSubscriptionInput],
    ["CreateUserInput", createUserInput],
    ["UpdateUserInput", updateUserInput],
    ["CreateCommentInput", createCommentInput],
    ["UpdateCommentInput", updateCommentInput],
    ["CreateGitHubRepositoryInput", createRepositoryInput],
    ["UpdateGitHubRepositoryInput", updateRepositoryInput],
    ["CreateRepositoryCategoryInput", createCategoryInput],
    ["UpdateRepositoryCategoryInput", updateCategoryInput],
    ["CreateRepositoryFileInput", createFileInput],
    ["UpdateRepositoryFileInput", updateFileInput],
    ["CreateRepositoryBranchInput", createBranchInput],
    ["UpdateRepositoryBranchInput", updateBranchInput],
    ["CreateRepositoryIssueInput", createIssueInput],
    ["UpdateRepositoryIssueInput", updateIssueInput],
    ["CreateRepositoryWorkflowInput", createWorkflowInput],
    ["UpdateRepositoryWorkflowInput", updateWorkflowInput],
  ] as const)(
    "%s has exactly the fields its zod schema accepts (no id, version, counters, authorId)",
    (name, zod) => {
      const type = getNamedType(schema.getType(name)) as GraphQLInputObjectType;
      const fields = Object.keys(type.getFields()).sort();
      // Server-chosen storage fields stay in the input type only to be refused with a clear
      // BAD_USER_INPUT (tests/integration/storage-keys.test.ts); zod never accepts them.
      const refused = new Set<string>(SERVER_CHOSEN_FIELDS);
      expect(fields.filter((f) => !refused.has(f))).toEqual(Object.keys(zod.shape).sort());
      expect(Object.keys(zod.shape).filter((f) => refused.has(f))).toEqual([]);
      for (const forbidden of ["id", "version", "viewCount", "authorId", "createdAt", "lastEditedBy"]) {
        expect(fields).not.toContain(forbidden);
      }
      // SECURITY 10: nothing that decides access or identity is writable through the data API.
      for (const forbidden of ["emailVerified", "groups", "role", "avatar", "commentCount"]) {
        expect(fields).not.toContain(forbidden);
      }
    },
  );
});
