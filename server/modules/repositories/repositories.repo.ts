/**
 * The repository browser's tables: repositories (GitHub or local git) and their categories, and the
 * cached files, branches, issues and workflows of each repository (spec §3).
 */
import { type Kysely, type RawBuilder, type Selectable, sql, type Updateable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { fromJson, storedStringListSchema, toJson } from "../../db/json.ts";
import { type KeysetQuery, keysetPage } from "../../db/keyset-page.ts";
import type { Page } from "../../db/pagination.ts";
import type {
  DB,
  GithubRepositoryTable,
  RepositoryBranchTable,
  RepositoryCategoryTable,
  RepositoryFileTable,
  RepositoryIssueTable,
  RepositoryWorkflowTable,
} from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { definedOnly, isoInput, isoInputOrNull, nowIso, toBool } from "../../db/values.ts";
import { BadInputError, ConflictError, NotFoundError, rethrowConstraintError } from "../../errors.ts";
import { bumpContentRevision } from "../content/content-revision.ts";
import { issueLabelsSchema, repositoryPathSchema, repositoryTagsSchema } from "./repositories.schemas.ts";

// Types ------------------------------------------------------------------------------------------

export interface GitHubRepository {
  id: string;
  githubId: number | null;
  name: string | null;
  fullName: string | null;
  owner: string | null;
  htmlUrl: string | null;
  slug: string;
  description: string | null;
  defaultBranch: string | null;
  isPrivate: boolean;
  language: string | null;
  stargazersCount: number;
  forksCount: number;
  size: number;
  displayName: string | null;
  category: string | null;
  tags: string[];
  isEnabled: boolean;
  sortOrder: number;
  lastSyncAt: string | null;
  cacheExpiry: string | null;
  createdAt: string;
  updatedAt: string;
  /** Optimistic concurrency: 1 on create, +1 on every update. */
  version: number;
  /** Where it is read from (migration 013): GitHub's API by owner/name, or a git folder on disk. */
  sourceType: RepositorySourceType;
  /** Local repositories: the folder under DATA_DIR/repositories. */
  localPath: string | null;
  /** The last failed sync's reason (null after a successful one); the cached rows are kept. */
  lastSyncError: string | null;
  lastSyncErrorAt: string | null;
}

export type RepositorySourceType = "github" | "local";

export interface GitHubRepositoryFields {
  githubId: number | null;
  name: string | null;
  fullName: string | null;
  owner: string | null;
  htmlUrl: string | null;
  slug: string;
  description: string | null;
  defaultBranch: string | null;
  isPrivate: boolean;
  language: string | null;
  stargazersCount: number;
  forksCount: number;
  size: number;
  displayName: string | null;
  category: string | null;
  tags: string[];
  isEnabled: boolean;
  sortOrder: number;
  lastSyncAt: string | Date | null;
  cacheExpiry: string | Date | null;
  sourceType: RepositorySourceType;
  localPath: string | null;
}

export type NewGitHubRepository = Pick<GitHubRepositoryFields, "slug"> &
  Partial<Omit<GitHubRepositoryFields, "slug">> & { id?: string; createdAt?: string | Date };

export type GitHubRepositoryPatch = Partial<GitHubRepositoryFields>;

export interface RepositoryCategory {
  id: string;
  name: string | null;
  slug: string;
  description: string | null;
  icon: string | null;
  sortOrder: number;
  isVisible: boolean;
  /** Optimistic concurrency: 1 on create, +1 on every update. */
  version: number;
}

export type NewRepositoryCategory = Omit<Partial<RepositoryCategory>, "slug" | "version"> & { slug: string };
export type RepositoryCategoryPatch = Partial<Omit<RepositoryCategory, "id" | "version">>;

export interface RepositoryFile {
  id: string;
  repositoryId: string;
  path: string;
  name: string | null;
  type: string;
  size: number | null;
  sha: string | null;
  extension: string | null;
  mimeType: string | null;
  encoding: string | null;
  isReadme: boolean;
  content: string | null;
  lastFetchAt: string | null;
  cacheExpiry: string | null;
}

export interface RepositoryFileInput {
  path: string;
  type: string;
  name?: string | null;
  size?: number | null;
  sha?: string | null;
  extension?: string | null;
  mimeType?: string | null;
  encoding?: string | null;
  isReadme?: boolean;
  content?: string | null;
  lastFetchAt?: string | Date | null;
  cacheExpiry?: string | Date | null;
}

export interface RepositoryBranch {
  id: string;
  repositoryId: string;
  name: string;
  sha: string;
  isDefault: boolean;
  lastCommitMessage: string | null;
  lastCommitDate: string | null;
}

export interface RepositoryBranchInput {
  name: string;
  sha: string;
  isDefault?: boolean;
  lastCommitMessage?: string | null;
  lastCommitDate?: string | Date | null;
}

export interface RepositoryIssue {
  id: string;
  repositoryId: string;
  githubIssueId: number | null;
  number: number | null;
  title: string | null;
  state: string;
  body: string | null;
  labels: string[];
}

export interface RepositoryIssueInput {
  state: string;
  githubIssueId?: number | null;
  number?: number | null;
  title?: string | null;
  body?: string | null;
  labels?: string[];
}

export interface RepositoryWorkflow {
  id: string;
  repositoryId: string;
  githubWorkflowId: number | null;
  name: string | null;
  path: string | null;
  state: string;
  lastRunStatus: string | null;
  lastRunDate: string | null;
}

export interface RepositoryWorkflowInput {
  state: string;
  githubWorkflowId?: number | null;
  name?: string | null;
  path?: string | null;
  lastRunStatus?: string | null;
  lastRunDate?: string | Date | null;
}

// Mapping ----------------------------------------------------------------------------------------

const REPOSITORY_FIELDS = [
  "githubId",
  "name",
  "fullName",
  "owner",
  "htmlUrl",
  "slug",
  "description",
  "defaultBranch",
  "isPrivate",
  "language",
  "stargazersCount",
  "forksCount",
  "size",
  "displayName",
  "category",
  "tags",
  "isEnabled",
  "sortOrder",
  "lastSyncAt",
  "cacheExpiry",
  "sourceType",
  "localPath",
] as const satisfies readonly (keyof GitHubRepositoryFields)[];

function repositoryColumns(fields: Partial<GitHubRepositoryFields>): Updateable<GithubRepositoryTable> {
  const out: Record<string, unknown> = {};
  for (const key of REPOSITORY_FIELDS) {
    const value = fields[key];
    if (value === undefined) continue;
    if (key === "tags") out[key] = toJson(repositoryTagsSchema, (value ?? []) as string[], key);
    else if (key === "lastSyncAt" || key === "cacheExpiry")
      out[key] = isoInputOrNull(value as string | null, key);
    else out[key] = value;
  }
  return out as Updateable<GithubRepositoryTable>;
}

function repositoryFromRow(row: Selectable<GithubRepositoryTable>): GitHubRepository {
  return {
    id: row.id,
    githubId: row.githubId === null ? null : Number(row.githubId),
    name: row.name,
    fullName: row.fullName,
    owner: row.owner,
    htmlUrl: row.htmlUrl,
    slug: row.slug,
    description: row.description,
    defaultBranch: row.defaultBranch,
    isPrivate: toBool(row.isPrivate),
    language: row.language,
    stargazersCount: row.stargazersCount,
    forksCount: row.forksCount,
    size: row.size,
    displayName: row.displayName,
    category: row.category,
    tags: fromJson(storedStringListSchema, row.tags, "tags"),
    isEnabled: toBool(row.isEnabled),
    sortOrder: row.sortOrder,
    lastSyncAt: row.lastSyncAt,
    cacheExpiry: row.cacheExpiry,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
    sourceType: row.sourceType === "local" ? "local" : "github",
    localPath: row.localPath,
    lastSyncError: row.lastSyncError,
    lastSyncErrorAt: row.lastSyncErrorAt,
  };
}

function categoryFromRow(row: Selectable<RepositoryCategoryTable>): RepositoryCategory {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    icon: row.icon,
    sortOrder: row.sortOrder,
    isVisible: toBool(row.isVisible),
    version: row.version,
  };
}

function categoryColumns(fields: RepositoryCategoryPatch): Updateable<RepositoryCategoryTable> {
  return definedOnly({
    name: fields.name,
    slug: fields.slug,
    description: fields.description,
    icon: fields.icon,
    sortOrder: fields.sortOrder,
    isVisible: fields.isVisible,
  }) as Updateable<RepositoryCategoryTable>;
}

function fileFromRow(row: Selectable<RepositoryFileTable>): RepositoryFile {
  return {
    id: row.id,
    repositoryId: row.repositoryId,
    path: row.path,
    name: row.name,
    type: row.type,
    size: row.size === null ? null : Number(row.size),
    sha: row.sha,
    extension: row.extension,
    mimeType: row.mimeType,
    encoding: row.encoding,
    isReadme: toBool(row.isReadme),
    content: row.content,
    lastFetchAt: row.lastFetchAt,
    cacheExpiry: row.cacheExpiry,
  };
}

function branchFromRow(row: Selectable<RepositoryBranchTable>): RepositoryBranch {
  return {
    id: row.id,
    repositoryId: row.repositoryId,
    name: row.name,
    sha: row.sha,
    isDefault: toBool(row.isDefault),
    lastCommitMessage: row.lastCommitMessage,
    lastCommitDate: row.lastCommitDate,
  };
}

function issueFromRow(row: Selectable<RepositoryIssueTable>): RepositoryIssue {
  return {
    id: row.id,
    repositoryId: row.repositoryId,
    githubIssueId: row.githubIssueId === null ? null : Number(row.githubIssueId),
    number: row.number,
    title: row.title,
    state: row.state,
    body: row.body,
    labels: fromJson(storedStringListSchema, row.labels, "labels"),
  };
}

function workflowFromRow(row: Selectable<RepositoryWorkflowTable>): RepositoryWorkflow {
  return {
    id: row.id,
    repositoryId: row.repositoryId,
    githubWorkflowId: row.githubWorkflowId === null ? null : Number(row.githubWorkflowId),
    name: row.name,
    path: row.path,
    state: row.state,
    lastRunStatus: row.lastRunStatus,
    lastRunDate: row.lastRunDate,
  };
}

/** The cached children of a repository, by the name the data API uses. */
export interface ChildRows {
  files: RepositoryFile;
  branches: RepositoryBranch;
  issues: RepositoryIssue;
  workflows: RepositoryWorkflow;
}
export type ChildKind = keyof ChildRows;

const CHILD_TABLES = {
  files: { table: "repository_file", map: fileFromRow },
  branches: { table: "repository_branch", map: branchFromRow },
  issues: { table: "repository_issue", map: issueFromRow },
  workflows: { table: "repository_workflow", map: workflowFromRow },
} as const;

function checkPath(path: string): string {
  const parsed = repositoryPathSchema.safeParse(path);
  if (!parsed.success) throw new BadInputError("repository path is not valid");
  return parsed.data;
}

function fileColumns(input: RepositoryFileInput) {
  const path = checkPath(input.path);
  return {
    path,
    type: input.type,
    name: input.name ?? path.slice(path.lastIndexOf("/") + 1),
    size: input.size ?? null,
    sha: input.sha ?? null,
    extension: input.extension ?? null,
    mimeType: input.mimeType ?? null,
    encoding: input.encoding ?? null,
    isReadme: input.isReadme ?? false,
    content: input.content ?? null,
    lastFetchAt: isoInputOrNull(input.lastFetchAt, "lastFetchAt"),
    cacheExpiry: isoInputOrNull(input.cacheExpiry, "cacheExpiry"),
  };
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// Repository -------------------------------------------------------------------------------------

type ChildTable = "repository_file" | "repository_branch" | "repository_issue" | "repository_workflow";

/** Deletes one cached child row by id; true when a row was deleted. */
async function deleteChildById(db: Kysely<DB>, table: ChildTable, id: string): Promise<boolean> {
  const result = await db.deleteFrom(table).where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function createRepositoriesRepo(db: Kysely<DB>) {
  async function requireRepository(id: string): Promise<void> {
    const row = await db.selectFrom("github_repository").select("id").where("id", "=", id).executeTakeFirst();
    if (!row) throw new NotFoundError("repository", id);
  }

  /** After an update matched no row: ConflictError when the row exists (stale version). */
  async function staleOrMissing(
    table: "github_repository" | "repository_category",
    entity: string,
    id: string,
    expectedVersion: number | undefined,
  ): Promise<void> {
    const current = await db.selectFrom(table).select("version").where("id", "=", id).executeTakeFirst();
    if (current) {
      throw new ConflictError(`${entity} was changed by someone else; reload and try again`, {
        details: { id, expectedVersion, currentVersion: current.version },
      });
    }
  }

  const repositories = {
    async getRepository(id: string): Promise<GitHubRepository | null> {
      const row = await db
        .selectFrom("github_repository")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? repositoryFromRow(row) : null;
    },

    /** listGitHubRepositoryBySlug. */
    async getRepositoryBySlug(slug: string): Promise<GitHubRepository | null> {
      const row = await db
        .selectFrom("github_repository")
        .selectAll()
        .where("slug", "=", slug)
        .executeTakeFirst();
      return row ? repositoryFromRow(row) : null;
    },

    /** listGitHubRepositoryByOwner: by sortOrder, then slug. */
    async listRepositoriesByOwner(owner: string): Promise<GitHubRepository[]> {
      const rows = await db
        .selectFrom("github_repository")
        .selectAll()
        .where("owner", "=", owner)
        .orderBy("sortOrder")
        .orderBy("slug")
        .execute();
      return rows.map(repositoryFromRow);
    },

    /** listGitHubRepositoryByCategoryAndSortOrder: by sortOrder, then slug. */
    async listRepositoriesByCategory(
      category: string,
      options: { enabledOnly?: boolean } = {},
    ): Promise<GitHubRepository[]> {
      let query = db.selectFrom("github_repository").selectAll().where("category", "=", category);
      if (options.enabledOnly) query = query.where("isEnabled", "=", true);
      const rows = await query.orderBy("sortOrder").orderBy("slug").execute();
      return rows.map(repositoryFromRow);
    },

    /** Every repository by category, sortOrder, slug. */
    async listRepositories(options: { enabledOnly?: boolean } = {}): Promise<GitHubRepository[]> {
      let query = db.selectFrom("github_repository").selectAll();
      if (options.enabledOnly) query = query.where("isEnabled", "=", true);
      const rows = await query.orderBy("category").orderBy("sortOrder").orderBy("slug").execute();
      return rows.map(repositoryFromRow);
    },

    async createRepository(input: NewGitHubRepository): Promise<GitHubRepository> {
      const createdAt = input.createdAt === undefined ? nowIso() : isoInput(input.createdAt, "createdAt");
      try {
        const row = await db
          .insertInto("github_repository")
          .values({
            ...repositoryColumns(input),
            id: input.id ?? uuidv7(),
            slug: input.slug,
            createdAt,
            updatedAt: createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return repositoryFromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "repository");
      }
    },

    /**
     * Applies `patch` and bumps the version. With `expectedVersion`, only if the stored version is
     * still that one: a stale version → ConflictError (the row is untouched); no row → NotFoundError.
     */
    async updateRepository(
      id: string,
      patch: GitHubRepositoryPatch,
      expectedVersion?: number,
    ): Promise<GitHubRepository> {
      let row: Selectable<GithubRepositoryTable> | undefined;
      try {
        let query = db
          .updateTable("github_repository")
          .set({ ...repositoryColumns(patch), updatedAt: nowIso() })
          .set((eb) => ({ version: eb("version", "+", 1) }))
          .where("id", "=", id);
        if (expectedVersion !== undefined) query = query.where("version", "=", expectedVersion);
        row = await query.returningAll().executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "repository");
      }
      if (row) return repositoryFromRow(row);
      await staleOrMissing("github_repository", "repository", id, expectedVersion);
      throw new NotFoundError("repository", id);
    },

    /** One keyset page of repositories matching every condition (the data API's lists). */
    listRepositoryPage(
      query: Omit<KeysetQuery<GitHubRepository>, "table" | "map">,
    ): Promise<Page<GitHubRepository>> {
      return keysetPage(db, { ...query, table: "github_repository", map: repositoryFromRow });
    },

    /** Deletes the repository and (cascade) its files, branches, issues and workflows. */
    async deleteRepository(id: string): Promise<boolean> {
      const result = await db.deleteFrom("github_repository").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };

  const categories = {
    async getCategory(id: string): Promise<RepositoryCategory | null> {
      const row = await db
        .selectFrom("repository_category")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? categoryFromRow(row) : null;
    },

    async getCategoryBySlug(slug: string): Promise<RepositoryCategory | null> {
      const row = await db
        .selectFrom("repository_category")
        .selectAll()
        .where("slug", "=", slug)
        .executeTakeFirst();
      return row ? categoryFromRow(row) : null;
    },

    /** By sortOrder, then slug; only visible ones unless `includeHidden`. */
    async listCategories(options: { includeHidden?: boolean } = {}): Promise<RepositoryCategory[]> {
      let query = db.selectFrom("repository_category").selectAll();
      if (!options.includeHidden) query = query.where("isVisible", "=", true);
      const rows = await query.orderBy("sortOrder").orderBy("slug").execute();
      return rows.map(categoryFromRow);
    },

    async createCategory(input: NewRepositoryCategory): Promise<RepositoryCategory> {
      try {
        const row = await db
          .insertInto("repository_category")
          .values({ ...categoryColumns(input), id: input.id ?? uuidv7(), slug: input.slug })
          .returningAll()
          .executeTakeFirstOrThrow();
        return categoryFromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "repository category");
      }
    },

    /** Like `updateRepository`: bumps the version, checks `expectedVersion` when given. */
    async updateCategory(
      id: string,
      patch: RepositoryCategoryPatch,
      expectedVersion?: number,
    ): Promise<RepositoryCategory> {
      let row: Selectable<RepositoryCategoryTable> | undefined;
      try {
        let query = db
          .updateTable("repository_category")
          .set(categoryColumns(patch))
          .set((eb) => ({ version: eb("version", "+", 1) }))
          .where("id", "=", id);
        if (expectedVersion !== undefined) query = query.where("version", "=", expectedVersion);
        row = await query.returningAll().executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "repository category");
      }
      if (row) return categoryFromRow(row);
      await staleOrMissing("repository_category", "repository category", id, expectedVersion);
      throw new NotFoundError("repository category", id);
    },

    listCategoryPage(
      query: Omit<KeysetQuery<RepositoryCategory>, "table" | "map">,
    ): Promise<Page<RepositoryCategory>> {
      return keysetPage(db, { ...query, table: "repository_category", map: categoryFromRow });
    },

    async deleteCategory(id: string): Promise<boolean> {
      const result = await db.deleteFrom("repository_category").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };

  const files = {
    async getFile(repositoryId: string, path: string): Promise<RepositoryFile | null> {
      const row = await db
        .selectFrom("repository_file")
        .selectAll()
        .where("repositoryId", "=", repositoryId)
        .where("path", "=", checkPath(path))
        .executeTakeFirst();
      return row ? fileFromRow(row) : null;
    },

    /**
     * Entries of one directory ("" for the root), without content, directories first then by
     * name. Only direct children: `src` lists `src/a.ts`, not `src/lib/b.ts`.
     */
    async listDirectory(repositoryId: string, directory = ""): Promise<Omit<RepositoryFile, "content">[]> {
      const dir = directory === "" ? "" : checkPath(directory.replace(/\/+$/, ""));
      let query = db
        .selectFrom("repository_file")
        .select([
          "id",
          "repositoryId",
          "path",
          "name",
          "type",
          "size",
          "sha",
          "extension",
          "mimeType",
          "encoding",
          "isReadme",
          "lastFetchAt",
          "cacheExpiry",
        ])
        .where("repositoryId", "=", repositoryId);
      if (dir !== "") {
        // SQLite has no default LIKE escape character: name it for both dialects.
        query = query.where(sql<boolean>`${sql.ref("path")} like ${`${escapeLike(dir)}/%`} escape '\\'`);
      }
      const rows = await query.orderBy("path").execute();
      const prefix = dir === "" ? "" : `${dir}/`;
      return rows
        .filter((r) => r.path.startsWith(prefix) && !r.path.slice(prefix.length).includes("/"))
        .map((r) => {
          const { content: _content, ...rest } = fileFromRow({ ...r, content: null });
          return rest;
        })
        .sort((a, b) => {
          const dirFirst = Number(b.type === "dir") - Number(a.type === "dir");
          return dirFirst !== 0 ? dirFirst : (a.name ?? a.path).localeCompare(b.name ?? b.path);
        });
    },

    /** The repository's README: the one flagged isReadme with the shortest path. */
    async getReadme(repositoryId: string): Promise<RepositoryFile | null> {
      const rows = await db
        .selectFrom("repository_file")
        .selectAll()
        .where("repositoryId", "=", repositoryId)
        .where("isReadme", "=", true)
        .execute();
      rows.sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path));
      const first = rows[0];
      return first ? fileFromRow(first) : null;
    },

    /** Inserts or replaces the file at (repositoryId, path). Unknown repository → NotFoundError. */
    async upsertFile(repositoryId: string, input: RepositoryFileInput): Promise<RepositoryFile> {
      const columns = fileColumns(input);
      await requireRepository(repositoryId);
      const row = await db
        .insertInto("repository_file")
        .values({ ...columns, id: uuidv7(), repositoryId })
        .onConflict((oc) => oc.columns(["repositoryId", "path"]).doUpdateSet(columns))
        .returningAll()
        .executeTakeFirstOrThrow();
      return fileFromRow(row);
    },

    /** Deletes the given paths, or every file of the repository when `paths` is omitted. */
    async deleteFiles(repositoryId: string, paths?: readonly string[]): Promise<number> {
      if (paths !== undefined && paths.length === 0) return 0;
      let query = db.deleteFrom("repository_file").where("repositoryId", "=", repositoryId);
      if (paths !== undefined) query = query.where("path", "in", paths.map(checkPath));
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };

  const branches = {
    /** Default branch first, then by name. */
    async listBranches(repositoryId: string): Promise<RepositoryBranch[]> {
      const rows = await db
        .selectFrom("repository_branch")
        .selectAll()
        .where("repositoryId", "=", repositoryId)
        .orderBy("name")
        .execute();
      return rows.map(branchFromRow).sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
    },

    async getBranch(repositoryId: string, name: string): Promise<RepositoryBranch | null> {
      const row = await db
        .selectFrom("repository_branch")
        .selectAll()
        .where("repositoryId", "=", repositoryId)
        .where("name", "=", name)
        .executeTakeFirst();
      return row ? branchFromRow(row) : null;
    },

    /** Inserts or replaces the branch (repositoryId, name). Unknown repository → NotFoundError. */
    async upsertBranch(repositoryId: string, input: RepositoryBranchInput): Promise<RepositoryBranch> {
      const columns = {
        name: input.name,
        sha: input.sha,
        isDefault: input.isDefault ?? false,
        lastCommitMessage: input.lastCommitMessage ?? null,
        lastCommitDate: isoInputOrNull(input.lastCommitDate, "lastCommitDate"),
      };
      await requireRepository(repositoryId);
      const row = await db
        .insertInto("repository_branch")
        .values({ ...columns, id: uuidv7(), repositoryId })
        .onConflict((oc) => oc.columns(["repositoryId", "name"]).doUpdateSet(columns))
        .returningAll()
        .executeTakeFirstOrThrow();
      return branchFromRow(row);
    },

    async deleteBranch(repositoryId: string, name: string): Promise<boolean> {
      const result = await db
        .deleteFrom("repository_branch")
        .where("repositoryId", "=", repositoryId)
        .where("name", "=", name)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };

  function issueColumns(input: RepositoryIssueInput) {
    return {
      state: input.state,
      githubIssueId: input.githubIssueId ?? null,
      number: input.number ?? null,
      title: input.title ?? null,
      body: input.body ?? null,
      labels: toJson(issueLabelsSchema, input.labels ?? [], "labels"),
    };
  }

  function workflowColumns(input: RepositoryWorkflowInput) {
    return {
      state: input.state,
      githubWorkflowId: input.githubWorkflowId ?? null,
      name: input.name ?? null,
      path: input.path ?? null,
      lastRunStatus: input.lastRunStatus ?? null,
      lastRunDate: isoInputOrNull(input.lastRunDate, "lastRunDate"),
    };
  }

  const issues = {
    /** Newest number first; optionally one state ("open", "closed"). */
    async listIssues(repositoryId: string, options: { state?: string } = {}): Promise<RepositoryIssue[]> {
      let query = db.selectFrom("repository_issue").selectAll().where("repositoryId", "=", repositoryId);
      if (options.state !== undefined) query = query.where("state", "=", options.state);
      const rows = await query.orderBy("number", "desc").orderBy("id").execute();
      return rows.map(issueFromRow);
    },

    async createIssue(repositoryId: string, input: RepositoryIssueInput): Promise<RepositoryIssue> {
      const columns = issueColumns(input);
      try {
        const row = await db
          .insertInto("repository_issue")
          .values({ ...columns, id: uuidv7(), repositoryId })
          .returningAll()
          .executeTakeFirstOrThrow();
        return issueFromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "repository issue");
      }
    },

    async updateIssue(id: string, patch: Partial<RepositoryIssueInput>): Promise<RepositoryIssue> {
      const set = definedOnly({
        state: patch.state,
        githubIssueId: patch.githubIssueId,
        number: patch.number,
        title: patch.title,
        body: patch.body,
        labels: patch.labels === undefined ? undefined : toJson(issueLabelsSchema, patch.labels, "labels"),
      });
      const row = await db
        .updateTable("repository_issue")
        .set(set)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new NotFoundError("repository issue", id);
      return issueFromRow(row);
    },

    async deleteIssue(id: string): Promise<boolean> {
      return deleteChildById(db, "repository_issue", id);
    },

    /** Replaces all cached issues of a repository in one transaction (a sync). */
    async replaceIssues(repositoryId: string, inputs: readonly RepositoryIssueInput[]): Promise<void> {
      const rows = inputs.map((i) => ({ ...issueColumns(i), id: uuidv7(), repositoryId }));
      await requireRepository(repositoryId);
      await inTransaction(db, async (trx) => {
        await trx.deleteFrom("repository_issue").where("repositoryId", "=", repositoryId).execute();
        for (let i = 0; i < rows.length; i += 200) {
          await trx
            .insertInto("repository_issue")
            .values(rows.slice(i, i + 200))
            .execute();
        }
      });
    },
  };

  const workflows = {
    /** By name, then path. */
    async listWorkflows(repositoryId: string): Promise<RepositoryWorkflow[]> {
      const rows = await db
        .selectFrom("repository_workflow")
        .selectAll()
        .where("repositoryId", "=", repositoryId)
        .orderBy("name")
        .orderBy("path")
        .execute();
      return rows.map(workflowFromRow);
    },

    async createWorkflow(repositoryId: string, input: RepositoryWorkflowInput): Promise<RepositoryWorkflow> {
      const columns = workflowColumns(input);
      try {
        const row = await db
          .insertInto("repository_workflow")
          .values({ ...columns, id: uuidv7(), repositoryId })
          .returningAll()
          .executeTakeFirstOrThrow();
        return workflowFromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "repository workflow");
      }
    },

    async updateWorkflow(id: string, patch: Partial<RepositoryWorkflowInput>): Promise<RepositoryWorkflow> {
      const set = definedOnly({
        state: patch.state,
        githubWorkflowId: patch.githubWorkflowId,
        name: patch.name,
        path: patch.path,
        lastRunStatus: patch.lastRunStatus,
        lastRunDate:
          patch.lastRunDate === undefined ? undefined : isoInputOrNull(patch.lastRunDate, "lastRunDate"),
      });
      const row = await db
        .updateTable("repository_workflow")
        .set(set)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new NotFoundError("repository workflow", id);
      return workflowFromRow(row);
    },

    async deleteWorkflow(id: string): Promise<boolean> {
      return deleteChildById(db, "repository_workflow", id);
    },

    /** Replaces all cached workflows of a repository in one transaction (a sync). */
    async replaceWorkflows(repositoryId: string, inputs: readonly RepositoryWorkflowInput[]): Promise<void> {
      const rows = inputs.map((w) => ({ ...workflowColumns(w), id: uuidv7(), repositoryId }));
      await requireRepository(repositoryId);
      await inTransaction(db, async (trx) => {
        await trx.deleteFrom("repository_workflow").where("repositoryId", "=", repositoryId).execute();
        for (let i = 0; i < rows.length; i += 200) {
          await trx
            .insertInto("repository_workflow")
            .values(rows.slice(i, i + 200))
            .execute();
        }
      });
    },
  };

  /** The data API's by-id operations on the cached children (files, branches, issues, workflows). */
  const children = {
    /**
     * The cached rows of several repositories at once (the data loaders): the first
     * `perRepository` of each repository by id, every row matching `conditions` (column
     * references qualified with the table name). One query, whatever the number of repositories.
     */
    async listChildrenByRepositoryIds<K extends ChildKind>(
      kind: K,
      repositoryIds: readonly string[],
      conditions: readonly RawBuilder<boolean>[],
      perRepository: number,
    ): Promise<ChildRows[K][]> {
      if (repositoryIds.length === 0) return [];
      const { table, map } = CHILD_TABLES[kind];
      const where = sql.join(
        [sql`${sql.ref(`${table}.repositoryId`)} in (${sql.join([...repositoryIds])})`, ...conditions],
        sql` and `,
      );
      const ranked = await sql<
        Record<string, unknown>
      >`select * from (select ${sql.table(table)}.*, row_number() over (partition by ${sql.ref(`${table}.repositoryId`)} order by ${sql.ref(`${table}.id`)}) as ${sql.ref("rowNumber")} from ${sql.table(table)} where ${where}) as ${sql.ref("ranked")} where ${sql.ref("rowNumber")} <= ${perRepository} order by ${sql.ref("repositoryId")}, ${sql.ref("id")}`.execute(
        db,
      );
      const toRow = map as unknown as (row: unknown) => ChildRows[K];
      return ranked.rows.map(toRow);
    },

    async getFileById(id: string): Promise<RepositoryFile | null> {
      const row = await db.selectFrom("repository_file").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? fileFromRow(row) : null;
    },
    listFilePage(query: Omit<KeysetQuery<RepositoryFile>, "table" | "map">): Promise<Page<RepositoryFile>> {
      return keysetPage(db, { ...query, table: "repository_file", map: fileFromRow });
    },
    /** A new file; a taken (repositoryId, path) → ConflictError, unknown repository → NotFoundError. */
    async createFile(repositoryId: string, input: RepositoryFileInput): Promise<RepositoryFile> {
      const columns = fileColumns(input);
      await requireRepository(repositoryId);
      try {
        const row = await db
          .insertInto("repository_file")
          .values({ ...columns, id: uuidv7(), repositoryId })
          .returningAll()
          .executeTakeFirstOrThrow();
        return fileFromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "repository file");
      }
    },
    async updateFileById(id: string, patch: Partial<RepositoryFileInput>): Promise<RepositoryFile> {
      const set = definedOnly({
        path: patch.path === undefined ? undefined : checkPath(patch.path),
        type: patch.type,
        name: patch.name,
        size: patch.size,
        sha: patch.sha,
        extension: patch.extension,
        mimeType: patch.mimeType,
        encoding: patch.encoding,
        isReadme: patch.isReadme,
        content: patch.content,
        lastFetchAt:
          patch.lastFetchAt === undefined ? undefined : isoInputOrNull(patch.lastFetchAt, "lastFetchAt"),
        cacheExpiry:
          patch.cacheExpiry === undefined ? undefined : isoInputOrNull(patch.cacheExpiry, "cacheExpiry"),
      });
      return updateChild("repository_file", "repository file", id, set, fileFromRow);
    },
    async deleteFileById(id: string): Promise<boolean> {
      return deleteChildById(db, "repository_file", id);
    },

    async getBranchById(id: string): Promise<RepositoryBranch | null> {
      const row = await db
        .selectFrom("repository_branch")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? branchFromRow(row) : null;
    },
    listBranchPage(
      query: Omit<KeysetQuery<RepositoryBranch>, "table" | "map">,
    ): Promise<Page<RepositoryBranch>> {
      return keysetPage(db, { ...query, table: "repository_branch", map: branchFromRow });
    },
    /** A new branch; a taken (repositoryId, name) → ConflictError, unknown repository → NotFoundError. */
    async createBranch(repositoryId: string, input: RepositoryBranchInput): Promise<RepositoryBranch> {
      await requireRepository(repositoryId);
      try {
        const row = await db
          .insertInto("repository_branch")
          .values({
            id: uuidv7(),
            repositoryId,
            name: input.name,
            sha: input.sha,
            isDefault: input.isDefault ?? false,
            lastCommitMessage: input.lastCommitMessage ?? null,
            lastCommitDate: isoInputOrNull(input.lastCommitDate, "lastCommitDate"),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return branchFromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "repository branch");
      }
    },
    async updateBranchById(id: string, patch: Partial<RepositoryBranchInput>): Promise<RepositoryBranch> {
      const set = definedOnly({
        name: patch.name,
        sha: patch.sha,
        isDefault: patch.isDefault,
        lastCommitMessage: patch.lastCommitMessage,
        lastCommitDate:
          patch.lastCommitDate === undefined
            ? undefined
            : isoInputOrNull(patch.lastCommitDate, "lastCommitDate"),
      });
      return updateChild("repository_branch", "repository branch", id, set, branchFromRow);
    },
    async deleteBranchById(id: string): Promise<boolean> {
      return deleteChildById(db, "repository_branch", id);
    },

    async getIssue(id: string): Promise<RepositoryIssue | null> {
      const row = await db.selectFrom("repository_issue").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? issueFromRow(row) : null;
    },
    listIssuePage(
      query: Omit<KeysetQuery<RepositoryIssue>, "table" | "map">,
    ): Promise<Page<RepositoryIssue>> {
      return keysetPage(db, { ...query, table: "repository_issue", map: issueFromRow });
    },

    async getWorkflow(id: string): Promise<RepositoryWorkflow | null> {
      const row = await db
        .selectFrom("repository_workflow")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? workflowFromRow(row) : null;
    },
    listWorkflowPage(
      query: Omit<KeysetQuery<RepositoryWorkflow>, "table" | "map">,
    ): Promise<Page<RepositoryWorkflow>> {
      return keysetPage(db, { ...query, table: "repository_workflow", map: workflowFromRow });
    },
  };

  async function updateChild<T, R>(
    table: "repository_file" | "repository_branch",
    entity: string,
    id: string,
    set: Record<string, unknown>,
    map: (row: R) => T,
  ): Promise<T> {
    let row: unknown;
    try {
      row =
        Object.keys(set).length === 0
          ? await db.selectFrom(table).selectAll().where("id", "=", id).executeTakeFirst()
          : await db
              .updateTable(table)
              .set(set as never)
              .where("id", "=", id)
              .returningAll()
              .executeTakeFirst();
    } catch (error) {
      rethrowConstraintError(error, entity);
    }
    if (!row) throw new NotFoundError(entity, id);
    return map(row as R);
  }

  // Repository and category changes show on visitors' cached /resources pages: move the content
  // revision so every process drops its page cache (as content writes do).
  const revising =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await write(...args);
      await bumpContentRevision(db);
      return result;
    };
  return {
    ...repositories,
    createRepository: revising(repositories.createRepository),
    updateRepository: revising(repositories.updateRepository),
    deleteRepository: revising(repositories.deleteRepository),
    ...categories,
    createCategory: revising(categories.createCategory),
    updateCategory: revising(categories.updateCategory),
    deleteCategory: revising(categories.deleteCategory),
    ...files,
    ...branches,
    ...issues,
    ...workflows,
    ...children,
  };
}

export type RepositoriesRepo = ReturnType<typeof createRepositoriesRepo>;
