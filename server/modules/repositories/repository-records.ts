/**
 * The repository browser's records as the repositories repo returns them (camelCase, booleans,
 * parsed JSON lists, ISO datetimes) and the inputs its writes take (spec §3). The stored rows
 * are the `Selectable` types of `server/db/schema.ts`.
 */

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

/** The fields a write may set: the record's own, less what the repo keeps (id, times, version, sync errors). */
export type GitHubRepositoryFields = Omit<
  GitHubRepository,
  | "id"
  | "createdAt"
  | "updatedAt"
  | "version"
  | "lastSyncAt"
  | "cacheExpiry"
  | "lastSyncError"
  | "lastSyncErrorAt"
> & {
  lastSyncAt: string | Date | null;
  cacheExpiry: string | Date | null;
};

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

/** The cached children of a repository, by the name the data API uses. */
export interface ChildRows {
  files: RepositoryFile;
  branches: RepositoryBranch;
  issues: RepositoryIssue;
  workflows: RepositoryWorkflow;
}
export type ChildKind = keyof ChildRows;
