/**
 * The data API's list-by-key queries (issue 5), each one index range scan in both dialects:
 * the look-up indexes of user_subscription and github_repository get `id` as their last column
 * (the keyset tie-breaker, as the content and comment indexes already have), under the same
 * names, so `listUserSubscriptionByUserId`, `…ByTenantIdAndTier`, `listGitHubRepositoryByOwner`
 * and `…ByCategoryAndSortOrder` page in index order without a sort step.
 *
 * It also gives the records edited through the data API by people a `version` (optimistic
 * concurrency, SECURITY.md 21): user_subscription, comment, github_repository and
 * repository_category start at 1 and go up on every update through the services; a stale
 * expected version is refused. (Users are written by Better Auth too, and the repository caches
 * are replaced by syncs: they stay unversioned.)
 */
import type { Migration } from "kysely";
import type { AnyDb } from "./column-types.ts";

const REBUILT: Array<{ name: string; table: string; before: string[]; after: string[] }> = [
  {
    name: "user_subscription_userId_idx",
    table: "user_subscription",
    before: ["userId"],
    after: ["userId", "id"],
  },
  {
    name: "user_subscription_tenantId_tier_idx",
    table: "user_subscription",
    before: ["tenantId", "tier"],
    after: ["tenantId", "tier", "id"],
  },
  {
    name: "github_repository_owner_idx",
    table: "github_repository",
    before: ["owner"],
    after: ["owner", "id"],
  },
  {
    name: "github_repository_category_sortOrder_idx",
    table: "github_repository",
    before: ["category", "sortOrder"],
    after: ["category", "sortOrder", "id"],
  },
];

const VERSIONED = ["user_subscription", "comment", "github_repository", "repository_category"];

export const migration: Migration = {
  async up(db: AnyDb) {
    for (const index of REBUILT) {
      await db.schema.dropIndex(index.name).execute();
      await db.schema.createIndex(index.name).on(index.table).columns(index.after).execute();
    }
    for (const table of VERSIONED) {
      await db.schema
        .alterTable(table)
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
    }
  },
  async down(db: AnyDb) {
    for (const table of VERSIONED) await db.schema.alterTable(table).dropColumn("version").execute();
    for (const index of REBUILT) {
      await db.schema.dropIndex(index.name).execute();
      await db.schema.createIndex(index.name).on(index.table).columns(index.before).execute();
    }
  },
};
