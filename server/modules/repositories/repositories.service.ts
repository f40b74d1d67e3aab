/**
 * Repository-browser operations of the data API: GitHubRepository, RepositoryCategory,
 * RepositoryFile, RepositoryBranch, RepositoryIssue, RepositoryWorkflow
 * (docs/decisions/007-data-rules.md). Deny by default:
 * - read: everyone (visitors and signed-in users; API keys and service credentials with the
 *   `repositories:read` scope). A disabled repository (isEnabled false), everything cached for
 *   it, and a hidden category (isVisible false) are visible to platform admins only; to anyone
 *   else they are NOT_FOUND (lists leave them out, in SQL).
 * - create, update, delete: platform admins only (signed in). GitHubRepository and
 *   RepositoryCategory are versioned: update takes the expected version (stale → CONFLICT).
 */

import { type Kysely, type RawBuilder, sql } from "kysely";
import { z } from "zod";
import { dialectOf } from "../../db/dialect.ts";
import type { FilterFields } from "../../db/filters.ts";
import type { DB } from "../../db/schema.ts";
import { BadInputError, NotFoundError } from "../../errors.ts";
import { type Actor, requirePlatformAdmin, requireReadScope } from "../actor.ts";
import {
  type Connection,
  direction,
  filterConditions,
  type ListArgs,
  type ListByKeyArgs,
  parseInput,
  requireId,
  requireVersion,
  sortKeyConditions,
  toConnection,
} from "../data-service.ts";
import {
  type ChildKind,
  type ChildRows,
  createRepositoriesRepo,
  type GitHubRepository,
  type RepositoryBranch,
  type RepositoryCategory,
  type RepositoryFile,
  type RepositoryIssue,
  type RepositoryWorkflow,
} from "./repositories.repo.ts";
import { repositoryPathSchema } from "./repositories.schemas.ts";
import { createRepositorySearch } from "./repository-search.ts";
import { createRepositorySourceOperations } from "./repository-source-operations.ts";
import type { RepositorySync } from "./repository-sync.ts";
import type { RepositorySources } from "./sources/index.ts";

export type {
  GitHubRepository,
  RepositoryBranch,
  RepositoryCategory,
  RepositoryFile,
  RepositoryIssue,
  RepositoryWorkflow,
};

export const READ_SCOPE = "repositories:read";

export const REPOSITORY_FILTER_FIELDS: FilterFields = {
  id: "string",
  githubId: "number",
  name: "string",
  fullName: "string",
  owner: "string",
  htmlUrl: "string",
  slug: "string",
  description: "string",
  defaultBranch: "string",
  isPrivate: "boolean",
  language: "string",
  stargazersCount: "number",
  forksCount: "number",
  size: "number",
  displayName: "string",
  category: "string",
  isEnabled: "boolean",
  sortOrder: "number",
  lastSyncAt: "datetime",
  cacheExpiry: "datetime",
  createdAt: "datetime",
  updatedAt: "datetime",
  version: "number",
};
export const CATEGORY_FILTER_FIELDS: FilterFields = {
  id: "string",
  name: "string",
  slug: "string",
  description: "string",
  icon: "string",
  sortOrder: "number",
  isVisible: "boolean",
  version: "number",
};
/** File content is not filterable (large text). */
export const FILE_FILTER_FIELDS: FilterFields = {
  id: "string",
  repositoryId: "string",
  path: "string",
  name: "string",
  type: "string",
  size: "number",
  sha: "string",
  extension: "string",
  mimeType: "string",
  encoding: "string",
  isReadme: "boolean",
  lastFetchAt: "datetime",
  cacheExpiry: "datetime",
};
export const BRANCH_FILTER_FIELDS: FilterFields = {
  id: "string",
  repositoryId: "string",
  name: "string",
  sha: "string",
  isDefault: "boolean",
  lastCommitMessage: "string",
  lastCommitDate: "datetime",
};
export const ISSUE_FILTER_FIELDS: FilterFields = {
  id: "string",
  repositoryId: "string",
  githubIssueId: "number",
  number: "number",
  title: "string",
  state: "string",
  body: "string",
};
export const WORKFLOW_FILTER_FIELDS: FilterFields = {
  id: "string",
  repositoryId: "string",
  githubWorkflowId: "number",
  name: "string",
  path: "string",
  state: "string",
  lastRunStatus: "string",
  lastRunDate: "datetime",
};

const text = (max: number) => z.string().max(max);
const slug = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case letters, digits and hyphens");
const httpsUrl = z
  .url()
  .max(2000)
  .refine((v) => v.startsWith("https://"), "must be an https URL");
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const githubNumber = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable();
const datetime = z.iso.datetime({ offset: true }).nullable();
const tags = z.array(z.string().min(1).max(50)).max(50);

const repositoryFields = {
  githubId: githubNumber,
  name: text(200).nullable(),
  fullName: text(300).nullable(),
  owner: text(100).nullable(),
  htmlUrl: httpsUrl.nullable(),
  slug,
  description: text(2000).nullable(),
  defaultBranch: text(200).nullable(),
  isPrivate: z.boolean(),
  language: text(100).nullable(),
  stargazersCount: count,
  forksCount: count,
  size: count,
  displayName: text(200).nullable(),
  category: text(100).nullable(),
  tags,
  isEnabled: z.boolean(),
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000),
  lastSyncAt: datetime,
  cacheExpiry: datetime,
};
export const createRepositoryInput = z.strictObject(repositoryFields).partial().required({ slug: true });
export const updateRepositoryInput = z.strictObject(repositoryFields).partial();

const categoryFields = {
  name: text(200).nullable(),
  slug,
  description: text(2000).nullable(),
  icon: text(100).nullable(),
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000),
  isVisible: z.boolean(),
};
export const createCategoryInput = z.strictObject(categoryFields).partial().required({ slug: true });
export const updateCategoryInput = z.strictObject(categoryFields).partial();

const fileFields = {
  path: repositoryPathSchema,
  type: z.enum(["file", "dir", "symlink", "submodule"]),
  name: text(255).nullable(),
  size: count.nullable(),
  sha: text(64).nullable(),
  extension: text(50).nullable(),
  mimeType: text(200).nullable(),
  encoding: text(50).nullable(),
  isReadme: z.boolean(),
  content: text(1_000_000).nullable(),
  lastFetchAt: datetime,
  cacheExpiry: datetime,
};
export const createFileInput = z
  .strictObject({ repositoryId: z.string().min(1).max(200), ...fileFields })
  .partial()
  .required({ repositoryId: true, path: true, type: true });
export const updateFileInput = z.strictObject(fileFields).partial();

const branchFields = {
  name: z.string().min(1).max(255),
  sha: z.string().min(1).max(64),
  isDefault: z.boolean(),
  lastCommitMessage: text(5000).nullable(),
  lastCommitDate: datetime,
};
export const createBranchInput = z
  .strictObject({ repositoryId: z.string().min(1).max(200), ...branchFields })
  .partial()
  .required({ repositoryId: true, name: true, sha: true });
export const updateBranchInput = z.strictObject(branchFields).partial();

const issueFields = {
  state: z.enum(["open", "closed"]),
  githubIssueId: githubNumber,
  number: z.number().int().min(0).max(2_147_483_647).nullable(),
  title: text(1000).nullable(),
  body: text(65_536).nullable(),
  labels: tags,
};
export const createIssueInput = z
  .strictObject({ repositoryId: z.string().min(1).max(200), ...issueFields })
  .partial()
  .required({ repositoryId: true, state: true });
export const updateIssueInput = z.strictObject(issueFields).partial();

const workflowFields = {
  state: z.string().min(1).max(50),
  githubWorkflowId: githubNumber,
  name: text(200).nullable(),
  path: text(500).nullable(),
  lastRunStatus: text(50).nullable(),
  lastRunDate: datetime,
};
export const createWorkflowInput = z
  .strictObject({ repositoryId: z.string().min(1).max(200), ...workflowFields })
  .partial()
  .required({ repositoryId: true, state: true });
export const updateWorkflowInput = z.strictObject(workflowFields).partial();

export interface RepositoriesServiceDeps {
  db: Kysely<DB>;
  /** Repository sources and their sync (issue 6); without them the source operations refuse. */
  sources?: RepositorySources;
  sync?: RepositorySync;
  now?: () => number;
}

type ChildTable = "repository_file" | "repository_branch" | "repository_issue" | "repository_workflow";

const CHILD_TABLE: Record<ChildKind, ChildTable> = {
  files: "repository_file",
  branches: "repository_branch",
  issues: "repository_issue",
  workflows: "repository_workflow",
};

/** How many files, branches, issues or workflows a repository shows nested (the lists page the rest). */
export const NESTED_LIMIT = 100;

/** Distinct, well-formed keys in batches of at most 100 (one query each). */
function chunks(keys: readonly string[]): string[][] {
  const unique = [...new Set(keys)].filter((k) => k.length > 0 && k.length <= 200);
  const out: string[][] = [];
  for (let i = 0; i < unique.length; i += 100) out.push(unique.slice(i, i + 100));
  return out;
}

export function createRepositoriesService(deps: RepositoriesServiceDeps) {
  const { db } = deps;
  const repo = createRepositoriesRepo(db);
  const dialect = dialectOf(db);

  function read(actor: Actor): void {
    requireReadScope(actor, READ_SCOPE);
  }

  const enabled = (): RawBuilder<boolean> => sql<boolean>`${sql.ref("isEnabled")} = ${true}`;
  /** Children of enabled repositories only (the child table is the query's table). */
  const parentEnabled = (table: ChildTable): RawBuilder<boolean> =>
    sql<boolean>`exists (select 1 from ${sql.table("github_repository")} as r where ${sql.ref("r.id")} = ${sql.ref(`${table}.repositoryId`)} and ${sql.ref("r.isEnabled")} = ${true})`;

  async function visibleRepository(actor: Actor, id: string): Promise<GitHubRepository> {
    const row = await repo.getRepository(id);
    if (!row || (!row.isEnabled && !actor.platformAdmin)) throw new NotFoundError("repository", id);
    return row;
  }

  /** A child row is visible when its repository is (the repository is looked up by id). */
  async function visibleChild<T extends { repositoryId: string }>(
    actor: Actor,
    row: T | null,
    entity: string,
    id: string,
  ): Promise<T> {
    if (!row) throw new NotFoundError(entity, id);
    if (actor.platformAdmin) return row;
    const parent = await repo.getRepository(row.repositoryId);
    if (!parent?.isEnabled) throw new NotFoundError(entity, id);
    return row;
  }

  function page(args: ListByKeyArgs, sortColumn: string | null = null) {
    return {
      sortColumn,
      direction: direction(args.sortDirection),
      limit: args.limit,
      cursor: args.nextToken,
    };
  }

  async function listRepositories(
    actor: Actor,
    keyConditions: RawBuilder<boolean>[],
    sortColumn: string | null,
    args: ListByKeyArgs,
  ): Promise<Connection<GitHubRepository>> {
    read(actor);
    const conditions = [
      ...(actor.platformAdmin ? [] : [enabled()]),
      ...keyConditions,
      ...filterConditions(REPOSITORY_FILTER_FIELDS, args.filter, dialect),
    ];
    return toConnection(await repo.listRepositoryPage({ conditions, ...page(args, sortColumn) }), (r) => r);
  }

  function childConditions(actor: Actor, table: ChildTable, fields: FilterFields, args: ListArgs) {
    return [
      ...(actor.platformAdmin ? [] : [parentEnabled(table)]),
      ...filterConditions(fields, args.filter, dialect, table),
    ];
  }

  const noSortKey = (args: ListByKeyArgs, name: string) => {
    if (args.sortKey) throw new BadInputError(`sortKey: ${name} has no sort key`);
  };

  const repositories = {
    async getGitHubRepository(actor: Actor, id: string): Promise<GitHubRepository> {
      read(actor);
      return visibleRepository(actor, requireId(id));
    },
    listGitHubRepositories: async (actor: Actor, args: ListArgs = {}) =>
      listRepositories(actor, [], null, args),
    /** listGitHubRepositoryByOwner (index owner, id); no sort key. */
    async listGitHubRepositoryByOwner(actor: Actor, owner: string, args: ListByKeyArgs = {}) {
      noSortKey(args, "listGitHubRepositoryByOwner");
      return listRepositories(
        actor,
        [sql<boolean>`${sql.ref("owner")} = ${requireId(owner, "owner")}`],
        null,
        args,
      );
    },
    /** listGitHubRepositoryBySlug (unique index slug); no sort key. */
    async listGitHubRepositoryBySlug(actor: Actor, slugValue: string, args: ListByKeyArgs = {}) {
      noSortKey(args, "listGitHubRepositoryBySlug");
      return listRepositories(
        actor,
        [sql<boolean>`${sql.ref("slug")} = ${requireId(slugValue, "slug")}`],
        null,
        args,
      );
    },
    /** listGitHubRepositoryByCategoryAndSortOrder (index category, sortOrder, id). */
    async listGitHubRepositoryByCategoryAndSortOrder(
      actor: Actor,
      category: string,
      args: ListByKeyArgs = {},
    ) {
      return listRepositories(
        actor,
        [
          sql<boolean>`${sql.ref("category")} = ${requireId(category, "category")}`,
          ...sortKeyConditions("sortOrder", "number", args.sortKey, dialect),
        ],
        "sortOrder",
        args,
      );
    },
    async createGitHubRepository(actor: Actor, input: unknown): Promise<GitHubRepository> {
      requirePlatformAdmin(actor);
      return repo.createRepository(parseInput(createRepositoryInput, input));
    },
    async updateGitHubRepository(
      actor: Actor,
      id: string,
      expectedVersion: number,
      patch: unknown,
    ): Promise<GitHubRepository> {
      requirePlatformAdmin(actor);
      const version = requireVersion(expectedVersion);
      return repo.updateRepository(requireId(id), parseInput(updateRepositoryInput, patch), version);
    },
    /** Deletes the repository and everything cached for it; returns the repository. */
    async deleteGitHubRepository(actor: Actor, id: string): Promise<GitHubRepository> {
      requirePlatformAdmin(actor);
      const row = await repo.getRepository(requireId(id));
      if (!row || !(await repo.deleteRepository(id))) throw new NotFoundError("repository", id);
      return row;
    },
  };

  const categories = {
    async getRepositoryCategory(actor: Actor, id: string): Promise<RepositoryCategory> {
      read(actor);
      const row = await repo.getCategory(requireId(id));
      if (!row || (!row.isVisible && !actor.platformAdmin))
        throw new NotFoundError("repository category", id);
      return row;
    },
    async listRepositoryCategories(
      actor: Actor,
      args: ListArgs = {},
    ): Promise<Connection<RepositoryCategory>> {
      read(actor);
      const conditions = [
        ...(actor.platformAdmin ? [] : [sql<boolean>`${sql.ref("isVisible")} = ${true}`]),
        ...filterConditions(CATEGORY_FILTER_FIELDS, args.filter, dialect),
      ];
      return toConnection(await repo.listCategoryPage({ conditions, ...page(args) }), (c) => c);
    },
    async createRepositoryCategory(actor: Actor, input: unknown): Promise<RepositoryCategory> {
      requirePlatformAdmin(actor);
      return repo.createCategory(parseInput(createCategoryInput, input));
    },
    async updateRepositoryCategory(
      actor: Actor,
      id: string,
      expectedVersion: number,
      patch: unknown,
    ): Promise<RepositoryCategory> {
      requirePlatformAdmin(actor);
      const version = requireVersion(expectedVersion);
      return repo.updateCategory(requireId(id), parseInput(updateCategoryInput, patch), version);
    },
    async deleteRepositoryCategory(actor: Actor, id: string): Promise<RepositoryCategory> {
      requirePlatformAdmin(actor);
      const row = await repo.getCategory(requireId(id));
      if (!row || !(await repo.deleteCategory(id))) throw new NotFoundError("repository category", id);
      return row;
    },
  };

  const files = {
    async getRepositoryFile(actor: Actor, id: string): Promise<RepositoryFile> {
      read(actor);
      return visibleChild(actor, await repo.getFileById(requireId(id)), "repository file", id);
    },
    async listRepositoryFiles(actor: Actor, args: ListArgs = {}): Promise<Connection<RepositoryFile>> {
      read(actor);
      const conditions = childConditions(actor, "repository_file", FILE_FILTER_FIELDS, args);
      return toConnection(await repo.listFilePage({ conditions, ...page(args) }), (f) => f);
    },
    async createRepositoryFile(actor: Actor, input: unknown): Promise<RepositoryFile> {
      requirePlatformAdmin(actor);
      const { repositoryId, ...data } = parseInput(createFileInput, input);
      return repo.createFile(repositoryId, data);
    },
    async updateRepositoryFile(actor: Actor, id: string, patch: unknown): Promise<RepositoryFile> {
      requirePlatformAdmin(actor);
      return repo.updateFileById(requireId(id), parseInput(updateFileInput, patch));
    },
    async deleteRepositoryFile(actor: Actor, id: string): Promise<RepositoryFile> {
      requirePlatformAdmin(actor);
      const row = await repo.getFileById(requireId(id));
      if (!row || !(await repo.deleteFileById(id))) throw new NotFoundError("repository file", id);
      return row;
    },
  };

  const branches = {
    async getRepositoryBranch(actor: Actor, id: string): Promise<RepositoryBranch> {
      read(actor);
      return visibleChild(actor, await repo.getBranchById(requireId(id)), "repository branch", id);
    },
    async listRepositoryBranches(actor: Actor, args: ListArgs = {}): Promise<Connection<RepositoryBranch>> {
      read(actor);
      const conditions = childConditions(actor, "repository_branch", BRANCH_FILTER_FIELDS, args);
      return toConnection(await repo.listBranchPage({ conditions, ...page(args) }), (b) => b);
    },
    async createRepositoryBranch(actor: Actor, input: unknown): Promise<RepositoryBranch> {
      requirePlatformAdmin(actor);
      const { repositoryId, ...data } = parseInput(createBranchInput, input);
      return repo.createBranch(repositoryId, data);
    },
    async updateRepositoryBranch(actor: Actor, id: string, patch: unknown): Promise<RepositoryBranch> {
      requirePlatformAdmin(actor);
      return repo.updateBranchById(requireId(id), parseInput(updateBranchInput, patch));
    },
    async deleteRepositoryBranch(actor: Actor, id: string): Promise<RepositoryBranch> {
      requirePlatformAdmin(actor);
      const row = await repo.getBranchById(requireId(id));
      if (!row || !(await repo.deleteBranchById(id))) throw new NotFoundError("repository branch", id);
      return row;
    },
  };

  const issues = {
    async getRepositoryIssue(actor: Actor, id: string): Promise<RepositoryIssue> {
      read(actor);
      return visibleChild(actor, await repo.getIssue(requireId(id)), "repository issue", id);
    },
    async listRepositoryIssues(actor: Actor, args: ListArgs = {}): Promise<Connection<RepositoryIssue>> {
      read(actor);
      const conditions = childConditions(actor, "repository_issue", ISSUE_FILTER_FIELDS, args);
      return toConnection(await repo.listIssuePage({ conditions, ...page(args) }), (i) => i);
    },
    async createRepositoryIssue(actor: Actor, input: unknown): Promise<RepositoryIssue> {
      requirePlatformAdmin(actor);
      const { repositoryId, ...data } = parseInput(createIssueInput, input);
      await visibleRepository(actor, repositoryId);
      return repo.createIssue(repositoryId, data);
    },
    async updateRepositoryIssue(actor: Actor, id: string, patch: unknown): Promise<RepositoryIssue> {
      requirePlatformAdmin(actor);
      const data = parseInput(updateIssueInput, patch);
      if (Object.keys(data).length === 0) {
        const row = await repo.getIssue(requireId(id));
        if (!row) throw new NotFoundError("repository issue", id);
        return row;
      }
      return repo.updateIssue(requireId(id), data);
    },
    async deleteRepositoryIssue(actor: Actor, id: string): Promise<RepositoryIssue> {
      requirePlatformAdmin(actor);
      const row = await repo.getIssue(requireId(id));
      if (!row || !(await repo.deleteIssue(id))) throw new NotFoundError("repository issue", id);
      return row;
    },
  };

  const workflows = {
    async getRepositoryWorkflow(actor: Actor, id: string): Promise<RepositoryWorkflow> {
      read(actor);
      return visibleChild(actor, await repo.getWorkflow(requireId(id)), "repository workflow", id);
    },
    async listRepositoryWorkflows(
      actor: Actor,
      args: ListArgs = {},
    ): Promise<Connection<RepositoryWorkflow>> {
      read(actor);
      const conditions = childConditions(actor, "repository_workflow", WORKFLOW_FILTER_FIELDS, args);
      return toConnection(await repo.listWorkflowPage({ conditions, ...page(args) }), (w) => w);
    },
    async createRepositoryWorkflow(actor: Actor, input: unknown): Promise<RepositoryWorkflow> {
      requirePlatformAdmin(actor);
      const { repositoryId, ...data } = parseInput(createWorkflowInput, input);
      await visibleRepository(actor, repositoryId);
      return repo.createWorkflow(repositoryId, data);
    },
    async updateRepositoryWorkflow(actor: Actor, id: string, patch: unknown): Promise<RepositoryWorkflow> {
      requirePlatformAdmin(actor);
      const data = parseInput(updateWorkflowInput, patch);
      if (Object.keys(data).length === 0) {
        const row = await repo.getWorkflow(requireId(id));
        if (!row) throw new NotFoundError("repository workflow", id);
        return row;
      }
      return repo.updateWorkflow(requireId(id), data);
    },
    async deleteRepositoryWorkflow(actor: Actor, id: string): Promise<RepositoryWorkflow> {
      requirePlatformAdmin(actor);
      const row = await repo.getWorkflow(requireId(id));
      if (!row || !(await repo.deleteWorkflow(id))) throw new NotFoundError("repository workflow", id);
      return row;
    },
  };

  const nested = {
    /** Repositories by id for the data loaders: the visible ones, in no particular order. */
    async getGitHubRepositoriesByIds(actor: Actor, ids: readonly string[]): Promise<GitHubRepository[]> {
      read(actor);
      const out: GitHubRepository[] = [];
      for (const chunk of chunks(ids)) {
        const conditions = [
          ...(actor.platformAdmin ? [] : [enabled()]),
          sql<boolean>`${sql.ref("id")} in (${sql.join(chunk)})`,
        ];
        out.push(...(await repo.listRepositoryPage({ conditions, ...page({ limit: chunk.length }) })).items);
      }
      return out;
    },
    /** Categories by slug (a repository's `category`) for the data loaders: the visible ones. */
    async getRepositoryCategoriesBySlugs(
      actor: Actor,
      slugs: readonly string[],
    ): Promise<RepositoryCategory[]> {
      read(actor);
      const out: RepositoryCategory[] = [];
      for (const chunk of chunks(slugs)) {
        const conditions = [
          ...(actor.platformAdmin ? [] : [sql<boolean>`${sql.ref("isVisible")} = ${true}`]),
          sql<boolean>`${sql.ref("slug")} in (${sql.join(chunk)})`,
        ];
        out.push(...(await repo.listCategoryPage({ conditions, ...page({ limit: chunk.length }) })).items);
      }
      return out;
    },
    /**
     * The cached files, branches, issues or workflows of several repositories (the data
     * loaders): at most `perRepository` each (by id), only of repositories the actor may read.
     */
    async listChildrenByRepositoryIds<K extends ChildKind>(
      actor: Actor,
      kind: K,
      repositoryIds: readonly string[],
      perRepository = NESTED_LIMIT,
    ): Promise<ChildRows[K][]> {
      read(actor);
      const table = CHILD_TABLE[kind];
      const out: ChildRows[K][] = [];
      for (const chunk of chunks(repositoryIds)) {
        const conditions = actor.platformAdmin ? [] : [parentEnabled(table)];
        out.push(...(await repo.listChildrenByRepositoryIds(kind, chunk, conditions, perRepository)));
      }
      return out;
    },
  };

  const sourceOperations = createRepositorySourceOperations(deps);

  return {
    ...repositories,
    ...categories,
    ...files,
    ...branches,
    ...issues,
    ...workflows,
    ...nested,
    ...sourceOperations,
    ...createRepositorySearch(sourceOperations),
  };
}

export type RepositoriesService = ReturnType<typeof createRepositoriesService>;
