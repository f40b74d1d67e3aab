/**
 * The repository browser's tables: repositories (GitHub or local git) and their categories, and the
 * cached files, branches, issues and workflows of each repository (spec §3).
 *
 * One flat object over the per-table repos: `repository-table.repo.ts`,
 * `repository-category.repo.ts` and the four child tables in `repository-children.repo.ts`
 * (each an instance of the generic `server/db/child-table-repo.ts`). Record types are in
 * `repository-records.ts`.
 */
import type { Kysely, RawBuilder } from "kysely";
import type { ChildTableRepo, TableWithId } from "../../db/child-table-repo.ts";
import type { KeysetQuery } from "../../db/keyset-page.ts";
import type { Page } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { bumpContentRevision } from "../content/content-revision.ts";
import { createRepositoryCategoryRepo } from "./repository-category.repo.ts";
import {
  createRepositoryBranchRepo,
  createRepositoryFileRepo,
  createRepositoryIssueRepo,
  createRepositoryTreeReads,
  createRepositoryWorkflowRepo,
} from "./repository-children.repo.ts";
import type {
  ChildKind,
  ChildRows,
  RepositoryBranch,
  RepositoryBranchInput,
  RepositoryFile,
  RepositoryFileInput,
  RepositoryIssue,
  RepositoryIssueInput,
  RepositoryWorkflow,
  RepositoryWorkflowInput,
} from "./repository-records.ts";
import { createRepositoryTableRepo } from "./repository-table.repo.ts";

export type * from "./repository-records.ts";

type PageQuery<T> = Omit<KeysetQuery<T>, "table" | "map">;

export function createRepositoriesRepo(db: Kysely<DB>) {
  const repositories = createRepositoryTableRepo(db);
  const categories = createRepositoryCategoryRepo(db);
  const files = createRepositoryFileRepo(db);
  const branches = createRepositoryBranchRepo(db);
  const issues = createRepositoryIssueRepo(db);
  const workflows = createRepositoryWorkflowRepo(db);
  const children: {
    [K in ChildKind]: Pick<ChildTableRepo<TableWithId, ChildRows[K], never>, "listByParentIds">;
  } = { files, branches, issues, workflows };

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

    // Files: by (repository, path) for the browser and the sync, by id for the data API.
    getFile: (repositoryId: string, path: string): Promise<RepositoryFile | null> =>
      files.getByKey(repositoryId, path),
    ...createRepositoryTreeReads(db),
    /** Inserts or replaces the file at (repositoryId, path). Unknown repository → NotFoundError. */
    upsertFile: (repositoryId: string, input: RepositoryFileInput): Promise<RepositoryFile> =>
      files.upsert(repositoryId, input),
    /** Deletes the given paths, or every file of the repository when `paths` is omitted. */
    deleteFiles: (repositoryId: string, paths?: readonly string[]): Promise<number> =>
      paths === undefined ? files.deleteByParent(repositoryId) : files.deleteByKeys(repositoryId, paths),
    getFileById: (id: string): Promise<RepositoryFile | null> => files.getById(id),
    listFilePage: (query: PageQuery<RepositoryFile>): Promise<Page<RepositoryFile>> => files.listPage(query),
    /** A new file; a taken (repositoryId, path) → ConflictError, unknown repository → NotFoundError. */
    createFile: (repositoryId: string, input: RepositoryFileInput): Promise<RepositoryFile> =>
      files.create(repositoryId, input),
    updateFileById: (id: string, patch: Partial<RepositoryFileInput>): Promise<RepositoryFile> =>
      files.update(id, patch),
    deleteFileById: (id: string): Promise<boolean> => files.deleteById(id),

    // Branches: by (repository, name) for the browser and the sync, by id for the data API.
    /** Default branch first, then by name. */
    listBranches: (repositoryId: string): Promise<RepositoryBranch[]> => branches.list(repositoryId),
    getBranch: (repositoryId: string, name: string): Promise<RepositoryBranch | null> =>
      branches.getByKey(repositoryId, name),
    /** Inserts or replaces the branch (repositoryId, name). Unknown repository → NotFoundError. */
    upsertBranch: (repositoryId: string, input: RepositoryBranchInput): Promise<RepositoryBranch> =>
      branches.upsert(repositoryId, input),
    deleteBranch: async (repositoryId: string, name: string): Promise<boolean> =>
      (await branches.deleteByKeys(repositoryId, [name])) > 0,
    getBranchById: (id: string): Promise<RepositoryBranch | null> => branches.getById(id),
    listBranchPage: (query: PageQuery<RepositoryBranch>): Promise<Page<RepositoryBranch>> =>
      branches.listPage(query),
    /** A new branch; a taken (repositoryId, name) → ConflictError, unknown repository → NotFoundError. */
    createBranch: (repositoryId: string, input: RepositoryBranchInput): Promise<RepositoryBranch> =>
      branches.create(repositoryId, input),
    updateBranchById: (id: string, patch: Partial<RepositoryBranchInput>): Promise<RepositoryBranch> =>
      branches.update(id, patch),
    deleteBranchById: (id: string): Promise<boolean> => branches.deleteById(id),

    // Issues.
    /** Newest number first; optionally one state ("open", "closed"). */
    listIssues: (repositoryId: string, options: { state?: string } = {}): Promise<RepositoryIssue[]> =>
      issues.list(repositoryId, options.state === undefined ? {} : { state: options.state }),
    getIssue: (id: string): Promise<RepositoryIssue | null> => issues.getById(id),
    listIssuePage: (query: PageQuery<RepositoryIssue>): Promise<Page<RepositoryIssue>> =>
      issues.listPage(query),
    /** A new issue; unknown repository → NotFoundError. */
    createIssue: (repositoryId: string, input: RepositoryIssueInput): Promise<RepositoryIssue> =>
      issues.create(repositoryId, input),
    updateIssue: (id: string, patch: Partial<RepositoryIssueInput>): Promise<RepositoryIssue> =>
      issues.update(id, patch),
    deleteIssue: (id: string): Promise<boolean> => issues.deleteById(id),
    /** Replaces all cached issues of a repository in one transaction (a sync). */
    replaceIssues: (repositoryId: string, inputs: readonly RepositoryIssueInput[]): Promise<void> =>
      issues.replaceAll(repositoryId, inputs),

    // Workflows.
    /** By name, then path. */
    listWorkflows: (repositoryId: string): Promise<RepositoryWorkflow[]> => workflows.list(repositoryId),
    getWorkflow: (id: string): Promise<RepositoryWorkflow | null> => workflows.getById(id),
    listWorkflowPage: (query: PageQuery<RepositoryWorkflow>): Promise<Page<RepositoryWorkflow>> =>
      workflows.listPage(query),
    /** A new workflow; unknown repository → NotFoundError. */
    createWorkflow: (repositoryId: string, input: RepositoryWorkflowInput): Promise<RepositoryWorkflow> =>
      workflows.create(repositoryId, input),
    updateWorkflow: (id: string, patch: Partial<RepositoryWorkflowInput>): Promise<RepositoryWorkflow> =>
      workflows.update(id, patch),
    deleteWorkflow: (id: string): Promise<boolean> => workflows.deleteById(id),
    /** Replaces all cached workflows of a repository in one transaction (a sync). */
    replaceWorkflows: (repositoryId: string, inputs: readonly RepositoryWorkflowInput[]): Promise<void> =>
      workflows.replaceAll(repositoryId, inputs),

    /**
     * The cached rows of several repositories at once (the data loaders): the first
     * `perRepository` of each repository by id, every row matching `conditions` (column
     * references qualified with the table name). One query, whatever the number of repositories.
     */
    listChildrenByRepositoryIds<K extends ChildKind>(
      kind: K,
      repositoryIds: readonly string[],
      conditions: readonly RawBuilder<boolean>[],
      perRepository: number,
    ): Promise<ChildRows[K][]> {
      return children[kind].listByParentIds(repositoryIds, conditions, perRepository);
    },
  };
}

export type RepositoriesRepo = ReturnType<typeof createRepositoriesRepo>;
