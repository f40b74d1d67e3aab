/**
 * The repository browser: repositories (GitHub or local git), their categories, and the cached
 * files, branches, issues and workflows (spec §3). Children cascade with their repository.
 */
import type { Migration } from "kysely";
import { type AnyDb, columnTypes } from "./column-types.ts";

export const migration: Migration = {
  async up(db: AnyDb) {
    const t = columnTypes(db);

    await db.schema
      .createTable("github_repository")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("githubId", t.bigint)
      .addColumn("name", "text")
      .addColumn("fullName", "text")
      .addColumn("owner", "text")
      .addColumn("htmlUrl", "text")
      .addColumn("slug", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("defaultBranch", "text")
      .addColumn("isPrivate", t.bool, t.boolNotNull(false))
      .addColumn("language", "text")
      .addColumn("stargazersCount", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("forksCount", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("size", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("displayName", "text")
      .addColumn("category", "text")
      .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("isEnabled", t.bool, t.boolNotNull(true))
      .addColumn("sortOrder", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("lastSyncAt", "text")
      .addColumn("cacheExpiry", "text")
      .addColumn("createdAt", "text", (c) => c.notNull())
      .addColumn("updatedAt", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("github_repository_owner_idx")
      .on("github_repository")
      .column("owner")
      .execute();
    await db.schema
      .createIndex("github_repository_slug_uidx")
      .on("github_repository")
      .column("slug")
      .unique()
      .execute();
    await db.schema
      .createIndex("github_repository_category_sortOrder_idx")
      .on("github_repository")
      .columns(["category", "sortOrder"])
      .execute();

    await db.schema
      .createTable("repository_category")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("name", "text")
      .addColumn("slug", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("icon", "text")
      .addColumn("sortOrder", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("isVisible", t.bool, t.boolNotNull(true))
      .execute();
    await db.schema
      .createIndex("repository_category_slug_uidx")
      .on("repository_category")
      .column("slug")
      .unique()
      .execute();

    await db.schema
      .createTable("repository_file")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("repositoryId", "text", (c) =>
        c.notNull().references("github_repository.id").onDelete("cascade"),
      )
      .addColumn("path", "text", (c) => c.notNull())
      .addColumn("name", "text")
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("size", t.bigint)
      .addColumn("sha", "text")
      .addColumn("extension", "text")
      .addColumn("mimeType", "text")
      .addColumn("encoding", "text")
      .addColumn("isReadme", t.bool, t.boolNotNull(false))
      .addColumn("content", "text")
      .addColumn("lastFetchAt", "text")
      .addColumn("cacheExpiry", "text")
      .execute();
    await db.schema
      .createIndex("repository_file_repositoryId_path_uidx")
      .on("repository_file")
      .columns(["repositoryId", "path"])
      .unique()
      .execute();

    await db.schema
      .createTable("repository_branch")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("repositoryId", "text", (c) =>
        c.notNull().references("github_repository.id").onDelete("cascade"),
      )
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("sha", "text", (c) => c.notNull())
      .addColumn("isDefault", t.bool, t.boolNotNull(false))
      .addColumn("lastCommitMessage", "text")
      .addColumn("lastCommitDate", "text")
      .execute();
    await db.schema
      .createIndex("repository_branch_repositoryId_name_uidx")
      .on("repository_branch")
      .columns(["repositoryId", "name"])
      .unique()
      .execute();

    await db.schema
      .createTable("repository_issue")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("repositoryId", "text", (c) =>
        c.notNull().references("github_repository.id").onDelete("cascade"),
      )
      .addColumn("githubIssueId", t.bigint)
      .addColumn("number", "integer")
      .addColumn("title", "text")
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("body", "text")
      .addColumn("labels", "text", (c) => c.notNull().defaultTo("[]"))
      .execute();
    await db.schema
      .createIndex("repository_issue_repositoryId_number_idx")
      .on("repository_issue")
      .columns(["repositoryId", "number"])
      .execute();

    await db.schema
      .createTable("repository_workflow")
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("repositoryId", "text", (c) =>
        c.notNull().references("github_repository.id").onDelete("cascade"),
      )
      .addColumn("githubWorkflowId", t.bigint)
      .addColumn("name", "text")
      .addColumn("path", "text")
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("lastRunStatus", "text")
      .addColumn("lastRunDate", "text")
      .execute();
    await db.schema
      .createIndex("repository_workflow_repositoryId_idx")
      .on("repository_workflow")
      .column("repositoryId")
      .execute();
  },

  async down(db: AnyDb) {
    for (const table of [
      "repository_workflow",
      "repository_issue",
      "repository_branch",
      "repository_file",
      "repository_category",
      "github_repository",
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
