/**
 * Each list-by-key query of the data API is served from its index: the SQL the services actually
 * run (captured with a Kysely plugin) is explained on SQLite, and the plan must search the
 * named index, never scan the table or sort in a temporary B-tree.
 */
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userActor } from "../../tests/factories/actors.ts";
import { openTestDatabase, type TestDatabase } from "../db/test-database.ts";
import { createCommentsService } from "./comments/comments.service.ts";
import { createRepositoriesService } from "./repositories/repositories.service.ts";
import { createSubscriptionsService } from "./subscriptions/subscriptions.service.ts";

describe("data API list-by-key queries on sqlite", () => {
  let t: TestDatabase;
  const captured: RootOperationNode[] = [];
  const capture: KyselyPlugin = {
    transformQuery: ({ node }) => {
      captured.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const admin = userActor({ userId: "admin-plan", groups: ["app-admin"] });
  const moderator = userActor({ userId: "mod-plan", groups: ["ContentManager"] });

  beforeAll(async () => {
    t = await openTestDatabase("sqlite");
    await t.db
      .insertInto("content")
      .values({
        id: "c1",
        title: "T",
        slug: "t",
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
        createdEpoch: 0,
        updatedEpoch: 0,
      })
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function planOf(table: string, run: () => Promise<unknown>): Promise<string[]> {
    captured.length = 0;
    await run();
    const node = captured.find(
      (n) =>
        n.kind === "SelectQueryNode" &&
        JSON.stringify(n.from).includes(`"${table}"`) &&
        JSON.stringify(n).includes("LimitNode"),
    );
    expect(node, `a select on ${table}`).toBeDefined();
    const compiled = t.db.getExecutor().compileQuery(node!, { queryId: "plan" });
    const result = await t.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    return result.rows.map((r) => r.detail);
  }

  const cases: Array<[string, string, string, (db: TestDatabase) => () => Promise<unknown>]> = [
    [
      "listUserSubscriptionByUserId",
      "user_subscription",
      "user_subscription_userId_idx",
      (x) => () =>
        createSubscriptionsService({ db: x.db.withPlugin(capture) }).listByUserId(admin, "u1", {
          sortDirection: "DESC",
        }),
    ],
    [
      "listUserSubscriptionByTenantIdAndTier",
      "user_subscription",
      "user_subscription_tenantId_tier_idx",
      (x) => () =>
        createSubscriptionsService({ db: x.db.withPlugin(capture) }).listByTenantIdAndTier(admin, "t1", {
          sortKey: { beginsWith: "pro" },
          nextToken: Buffer.from(JSON.stringify({ s: "basic", id: "a" })).toString("base64url"),
        }),
    ],
    [
      "listCommentByContentIdAndCreatedAt",
      "comment",
      "comment_contentId_createdAt_idx",
      (x) => () =>
        createCommentsService({ db: x.db.withPlugin(capture) }).listByContentIdAndCreatedAt(moderator, "c1", {
          sortKey: { gt: "2026-01-01T00:00:00.000Z" },
        }),
    ],
    [
      "listCommentByAuthorIdAndCreatedAt",
      "comment",
      "comment_authorId_createdAt_idx",
      (x) => () =>
        createCommentsService({ db: x.db.withPlugin(capture) }).listByAuthorIdAndCreatedAt(moderator, "u1", {
          sortDirection: "DESC",
        }),
    ],
    [
      "listGitHubRepositoryByOwner",
      "github_repository",
      "github_repository_owner_idx",
      (x) => () =>
        createRepositoriesService({ db: x.db.withPlugin(capture) }).listGitHubRepositoryByOwner(
          admin,
          "acme",
        ),
    ],
    [
      "listGitHubRepositoryBySlug",
      "github_repository",
      "github_repository_slug_uidx",
      (x) => () =>
        createRepositoriesService({ db: x.db.withPlugin(capture) }).listGitHubRepositoryBySlug(
          admin,
          "lumen",
        ),
    ],
    [
      "listGitHubRepositoryByCategoryAndSortOrder",
      "github_repository",
      "github_repository_category_sortOrder_idx",
      (x) => () =>
        createRepositoriesService({
          db: x.db.withPlugin(capture),
        }).listGitHubRepositoryByCategoryAndSortOrder(admin, "tools", {
          sortKey: { between: [1, 5] },
          sortDirection: "DESC",
        }),
    ],
  ];

  it.each(cases)("%s searches %s with %s", async (_name, table, index, run) => {
    const plan = await planOf(table, run(t));
    const joined = plan.join("\n");
    expect(joined).toMatch(new RegExp(`SEARCH ${table} USING (COVERING )?INDEX ${index} \\(`));
    expect(joined).not.toMatch(new RegExp(`SCAN ${table}\\b`));
    expect(joined).not.toMatch(/TEMP B-TREE/);
  });
});
