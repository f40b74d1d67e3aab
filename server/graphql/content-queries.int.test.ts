/**
 * The data API against a real database, without HTTP: DataLoader batching (the number of SQL
 * queries of a nested list does not grow with the list) on both dialects, and the SQLite query
 * plan of each list-by-key query (served by its index).
 */

import { execute, parse } from "graphql";
import { CompiledQuery, type Kysely, type KyselyPlugin, type RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitorContext } from "../../core/index.ts";
import { buildCategory, buildContent } from "../../tests/factories/index.ts";
import type { Credential } from "../auth/identity.ts";
import type { DB } from "../db/schema.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../db/test-database.ts";
import { actorForCredential } from "../modules/actor.ts";
import { createCommentsService } from "../modules/comments/comments.service.ts";
import { createContentRepo } from "../modules/content/content.repo.ts";
import { CONTENT_KEY_LISTS, type ContentKeyList } from "../modules/content/content.service.ts";
import { createContentCategoryRepo } from "../modules/content/content-category.repo.ts";
import { createContentItemRepo } from "../modules/content/content-item.repo.ts";
import { createContentModelServices } from "../modules/content/content-models.ts";
import { createRepositoriesService } from "../modules/repositories/repositories.service.ts";
import { createSubscriptionsService } from "../modules/subscriptions/subscriptions.service.ts";
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

function contextFor(db: Kysely<DB>): GraphQLContext {
  const services = {
    content: createContentModelServices({ db }),
    subscriptions: createSubscriptionsService({ db }),
    users: createUsersService({ db }),
    comments: createCommentsService({ db }),
    repositories: createRepositoriesService({ db }),
  };
  const actor = actorForCredential(visitor);
  return {
    identity: visitor,
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

describe.each(testDialects())("data API queries (%s)", (dialect) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const categories = createContentCategoryRepo(t.db);
    const contents = createContentRepo(t.db);
    const items = createContentItemRepo(t.db);
    const author = "author-1";
    await t.db
      .insertInto("user")
      .values({
        id: author,
        name: "Ada Author",
        email: "ada@example.test",
        emailVerified: true,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      } as never)
      .execute();
    const cats = [];
    for (let i = 0; i < 3; i++) cats.push(await categories.create(buildCategory()));
    for (let i = 0; i < 24; i++) {
      const cat = cats[i % 3]!;
      const { row } = buildContent({ categoryId: cat.id, categorySlug: cat.slug, authorId: author });
      const created = await contents.create(row);
      await items.create({ tier: "Free", contentId: created.id, publishedAt: row.publishedAt ?? null });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a nested list costs the same number of queries for 3 items and for 20", async () => {
    const document = parse(`query ($n: Int) { listContents(limit: $n) { items {
      id authorName contentCategory { slug } contentItems { id content { id authorName } } } } }`);
    const countFor = async (n: number) => {
      const { nodes, plugin } = recorder();
      const result = await execute({
        schema,
        document,
        variableValues: { n },
        contextValue: contextFor(t.db.withPlugin(plugin)),
      });
      expect(result.errors).toBeUndefined();
      const items = (result.data!.listContents as { items: Array<Record<string, unknown>> }).items;
      expect(items).toHaveLength(n);
      expect(items.every((i) => i.authorName === "Ada Author" && i.contentCategory !== null)).toBe(true);
      return nodes.length;
    };
    const small = await countFor(3);
    const large = await countFor(20);
    expect(large).toBe(small);
    // list + author names + categories + items + their contents (author names cached per request)
    expect(small).toBeGreaterThanOrEqual(4);
    expect(small).toBeLessThanOrEqual(5);
  });

  it.runIf(dialect === "sqlite")(
    "each list-by-key query is served by its index (EXPLAIN QUERY PLAN)",
    async () => {
      const { nodes, plugin } = recorder();
      const services = createContentModelServices({ db: t.db.withPlugin(plugin) });
      const actor = actorForCredential(visitor);
      const condition: Record<string, unknown> = { ge: "2020-01-01T00:00:00.000Z" };
      for (const [name, spec] of Object.entries(CONTENT_KEY_LISTS) as [
        ContentKeyList,
        { sort: string | null; index: string },
      ][]) {
        nodes.length = 0;
        const first = await services.contents.listByKey(actor, name, {
          key: "x",
          sortKey: spec.sort ? condition : undefined,
          sortDirection: "DESC",
          limit: 2,
        });
        expect(first.items).toEqual([]);
        expect(nodes).toHaveLength(1);
        const compiled = t.db.getExecutor().compileQuery(nodes[0]!, { queryId: "plan" } as never);
        const plan = await t.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
        );
        const details = plan.rows.map((r) => r.detail).join("\n");
        expect(details, name).toContain(`INDEX ${spec.index}`);
        expect(details, name).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      }
    },
  );
});
