/**
 * The data API's nested edges of the subscription, user, comment and repository models against a
 * real database, without HTTP, on both dialects: DataLoader batching (the number of SQL queries
 * of a nested list does not grow with the list), and that the loaders read with the caller's
 * access (a disabled repository's cache, a hidden category and other users' e-mail stay out).
 */

import { execute, parse } from "graphql";
import type { Kysely, KyselyPlugin, RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUserContext, visitorContext } from "../../core/index.ts";
import { buildContent } from "../../tests/factories/index.ts";
import type { Credential } from "../auth/identity.ts";
import type { DB } from "../db/schema.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../db/test-database.ts";
import { actorForCredential } from "../modules/actor.ts";
import { createCommentsRepo } from "../modules/comments/comments.repo.ts";
import { createCommentsService } from "../modules/comments/comments.service.ts";
import { createContentRepo } from "../modules/content/content.repo.ts";
import { createContentModelServices } from "../modules/content/content-models.ts";
import { createRepositoriesRepo } from "../modules/repositories/repositories.repo.ts";
import { createRepositoriesService } from "../modules/repositories/repositories.service.ts";
import { createSubscriptionsService } from "../modules/subscriptions/subscriptions.service.ts";
import { createUsersRepo } from "../modules/users/users.repo.ts";
import { createUsersService } from "../modules/users/users.service.ts";
import type { GraphQLContext } from "./context.ts";
import { createLoaders } from "./loaders.ts";
import { schema } from "./schema.ts";

/** Records every query a Kysely instance runs. */
function recorder() {
  const nodes: RootOperationNode[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      nodes.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { nodes, plugin };
}

const visitor: Credential = { kind: "visitor", context: visitorContext("test"), scopes: null };
const reader = (userId: string, groups: string[] = []): Credential => ({
  kind: "session",
  context: buildUserContext({ sub: userId, email: `${userId}@example.test`, "cognito:groups": groups }),
  scopes: null,
});

function contextFor(db: Kysely<DB>, identity: Credential): GraphQLContext {
  const services = {
    content: createContentModelServices({ db }),
    subscriptions: createSubscriptionsService({ db }),
    users: createUsersService({ db }),
    comments: createCommentsService({ db }),
    repositories: createRepositoriesService({ db }),
  };
  const actor = actorForCredential(identity);
  return {
    identity,
    actor,
    services,
    links: {
      identity: { credentialRef: () => "v" },
      bodyLinks: { issue: () => ({ url: "/api/content/x/body?sig", expiresAt: new Date() }) } as never,
      logger: { warn: () => {} },
    },
    sameOrigin: true,
    loaders: createLoaders(services, actor),
  };
}

type Items = Array<Record<string, unknown>>;

describe.each(testDialects())("data API nested edges (%s)", (dialect) => {
  let t: TestDatabase;
  let readerId = "";
  const authorIds: string[] = [];
  let disabledId = "";

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const users = createUsersRepo(t.db);
    const contents = createContentRepo(t.db);
    const comments = createCommentsRepo(t.db);
    const repos = createRepositoriesRepo(t.db);
    readerId = (await users.create({ name: "Rita Reader", email: "rita@example.test" })).id;
    for (let i = 0; i < 4; i++) {
      const author = await users.create({
        name: `Author ${i}`,
        email: `author-${i}@example.test`,
        displayName: `Author ${i}`,
      });
      authorIds.push(author.id);
    }
    const items = [];
    for (let i = 0; i < 5; i++) items.push(await contents.create(buildContent({ tier: "Free" }).row));
    for (let i = 0; i < 24; i++) {
      await comments.create({
        contentId: items[i % items.length]!.id,
        authorId: authorIds[i % authorIds.length]!,
        body: `Comment ${i}: a thought on the article.`,
        status: "published",
      });
    }
    for (const [slug, isVisible] of [
      ["tools", true],
      ["guides", true],
      ["secret", false],
    ] as const) {
      await repos.createCategory({ slug, name: slug, isVisible });
    }
    for (let i = 0; i < 24; i++) {
      const r = await repos.createRepository({
        slug: `repo-${i}`,
        owner: "acme",
        category: ["tools", "guides", "secret"][i % 3]!,
        sortOrder: i,
      });
      await repos.createBranch(r.id, { name: "main", sha: `a${i}`, isDefault: true });
      await repos.createBranch(r.id, { name: "dev", sha: `b${i}` });
      await repos.createIssue(r.id, { state: "open", number: 1, title: "First issue" });
      await repos.createWorkflow(r.id, { state: "active", name: "CI" });
      await repos.createFile(r.id, { path: "README.md", type: "file", isReadme: true, content: "# Hi" });
    }
    const disabled = await repos.createRepository({ slug: "disabled", isEnabled: false, category: "tools" });
    disabledId = disabled.id;
    await repos.createBranch(disabled.id, { name: "main", sha: "zzz" });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function run(identity: Credential, query: string, variables: Record<string, unknown>) {
    const { nodes, plugin } = recorder();
    const result = await execute({
      schema,
      document: parse(query),
      variableValues: variables,
      contextValue: contextFor(t.db.withPlugin(plugin), identity),
    });
    return { result, queries: nodes.length };
  }

  it("repositories with their category, branches, issues, workflows and files: constant query count", async () => {
    const query = `query ($n: Int) { listGitHubRepositories(limit: $n) { items {
      id slug repositoryCategory { slug } branches { name repository { slug } } issues { title }
      workflows { name } files { path } } } }`;
    const countFor = async (n: number) => {
      const { result, queries } = await run(visitor, query, { n });
      expect(result.errors).toBeUndefined();
      const items = (result.data!.listGitHubRepositories as { items: Items }).items;
      expect(items).toHaveLength(n);
      for (const item of items) {
        expect((item.branches as Items).map((b) => b.name).sort()).toEqual(["dev", "main"]);
        expect((item.branches as Items)[0]!.repository).toEqual({ slug: item.slug });
        expect(item.issues).toEqual([{ title: "First issue" }]);
        expect(item.workflows).toEqual([{ name: "CI" }]);
        expect(item.files).toEqual([{ path: "README.md" }]);
      }
      return { queries, items };
    };
    const small = await countFor(3);
    const large = await countFor(20);
    expect(large.queries).toBe(small.queries);
    // list + category + branches + issues + workflows + files + branches' repository
    expect(small.queries).toBe(7);
    // A hidden category is null for a visitor, a visible one is there.
    const categories = large.items.map(
      (i) => (i.repositoryCategory as { slug: string } | null)?.slug ?? null,
    );
    expect(categories).toContain("tools");
    expect(categories).not.toContain("secret");
    expect(categories).toContain(null);
    expect(large.items.map((i) => i.slug)).not.toContain("disabled");
  });

  it("a disabled repository's cached rows are left out of nested and top-level lists for non-admins", async () => {
    const query = `{ listRepositoryBranches(limit: 100) { items { repositoryId } } }`;
    const asVisitor = await run(visitor, query, {});
    const ids = (asVisitor.result.data!.listRepositoryBranches as { items: Items }).items.map(
      (i) => i.repositoryId,
    );
    expect(ids).not.toContain(disabledId);
    const asAdmin = await run(reader("admin-1", ["app-admin"]), query, {});
    const adminIds = (asAdmin.result.data!.listRepositoryBranches as { items: Items }).items.map(
      (i) => i.repositoryId,
    );
    expect(adminIds).toContain(disabledId);
  });

  it("nested children are capped per repository, by id, in one query", async () => {
    const service = createRepositoriesService({ db: t.db });
    const ids = (await service.listGitHubRepositories(actorForCredential(visitor), { limit: 5 })).items.map(
      (r) => r.id,
    );
    const one = await service.listChildrenByRepositoryIds(
      actorForCredential(visitor),
      "branches",
      [...ids, disabledId],
      1,
    );
    expect(one.map((b) => b.repositoryId).sort()).toEqual([...ids].sort());
    const all = await service.listChildrenByRepositoryIds(actorForCredential(visitor), "branches", ids);
    expect(all).toHaveLength(ids.length * 2);
    for (const id of ids) {
      const mine = all.filter((b) => b.repositoryId === id).map((b) => b.id);
      expect(one.find((b) => b.repositoryId === id)?.id).toBe([...mine].sort()[0]);
    }
  });

  it("comments with their author and content: constant query count, no other user's e-mail", async () => {
    const query = `query ($n: Int) { listComments(limit: $n) { items {
      id body author { id displayName email name } content { id title } } } }`;
    const countFor = async (n: number) => {
      const { result, queries } = await run(reader(readerId), query, { n });
      expect(result.errors).toBeUndefined();
      const items = (result.data!.listComments as { items: Items }).items;
      expect(items).toHaveLength(n);
      for (const item of items) {
        const author = item.author as Record<string, unknown>;
        expect(authorIds).toContain(author.id);
        expect(author.displayName).toMatch(/^Author \d$/);
        expect(author.email).toBeNull();
        expect(author.name).toBeNull();
        expect(item.content).not.toBeNull();
      }
      return queries;
    };
    const small = await countFor(3);
    const large = await countFor(20);
    expect(large).toBe(small);
    // list + authors + contents
    expect(small).toBe(3);
  });

  it("a visitor gets comments but not their authors (users are for signed-in readers)", async () => {
    const { result } = await run(visitor, "{ listComments(limit: 2) { items { id author { id } } } }", {});
    const items = (result.data!.listComments as { items: Items }).items;
    expect(items).toHaveLength(2);
    expect(items.every((i) => i.author === null)).toBe(true);
    expect(
      result.errors?.map((e) => e.extensions?.code ?? (e.originalError as { code?: string })?.code),
    ).toEqual(["UNAUTHENTICATED", "UNAUTHENTICATED"]);
  });
});
