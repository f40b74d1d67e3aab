/**
 * One interface over the places repositories come from: a git repository on disk (local-source.ts)
 * or GitHub's REST API (github-source.ts). Paths and branch names are checked (paths.ts) before a
 * source reads anything; an unknown branch or path is a NotFoundError, a malformed one a
 * BadInputError, a source that cannot answer now a SourceUnavailableError or RateLimitedError.
 */

export type SourceKind = "local" | "github";

export interface TreeEntry {
  name: string;
  /** From the repository root, forward slashes ("src/index.ts"). */
  path: string;
  type: "file" | "dir";
  /** Bytes (files); null for folders. */
  size: number | null;
  /** The git object id of the blob or tree. */
  sha: string;
  /** A symlink inside the repository is listed as a file; one pointing outside is left out. */
  symlink?: boolean;
}

export interface Blob {
  bytes: Uint8Array;
  size: number;
  isBinary: boolean;
  mimeType: string;
  /** The git object id of the blob. */
  sha: string;
}

export interface CommitInfo {
  sha: string;
  message: string;
  author: string;
  /** ISO 8601, UTC. */
  date: string;
}

export interface BranchInfo {
  name: string;
  sha: string;
  /** Filled when the source knows it without another request. */
  lastCommit: CommitInfo | null;
}

export interface Readme {
  path: string;
  text: string;
}

/** What a sync copies into the github_repository row. Unknown values stay null. */
export interface RepositoryMetadata {
  githubId: number | null;
  name: string | null;
  fullName: string | null;
  owner: string | null;
  htmlUrl: string | null;
  description: string | null;
  defaultBranch: string;
  isPrivate: boolean;
  language: string | null;
  stargazersCount: number;
  forksCount: number;
  /** KiB, as GitHub reports it. */
  size: number;
}

export interface IssueInfo {
  githubIssueId: number | null;
  number: number;
  title: string;
  state: "open" | "closed";
  body: string | null;
  labels: string[];
}

export interface WorkflowInfo {
  githubWorkflowId: number | null;
  name: string;
  path: string;
  /** active, disabled_manually … */
  state: string;
  /** The latest run's conclusion when it finished (success, failure …), else its status (queued, in_progress). */
  lastRunStatus: string | null;
  lastRunDate: string | null;
}

export interface RepositorySource {
  readonly kind: SourceKind;
  metadata(): Promise<RepositoryMetadata>;
  defaultBranch(): Promise<string>;
  listBranches(): Promise<BranchInfo[]>;
  /** The direct children of `dir` ("" = root): folders first, then files, by name. */
  listTree(branch: string, dir?: string): Promise<TreeEntry[]>;
  /** Every file and folder of the branch (for the sync's file index and repository search). */
  listAllFiles(branch: string): Promise<TreeEntry[]>;
  readBlob(branch: string, path: string): Promise<Blob>;
  /** Newest first. */
  listCommits(branch: string, limit?: number): Promise<CommitInfo[]>;
  /** The README at the root of the branch, or null. */
  readme(branch: string): Promise<Readme | null>;
  /** Issues (GitHub only; local repositories have none). */
  listIssues(): Promise<IssueInfo[]>;
  /** Workflows with their latest run (GitHub only). */
  listWorkflows(): Promise<WorkflowInfo[]>;
}

/** Folders first, then files, each by name (code-point order, as git sorts). */
export function sortEntries(entries: TreeEntry[]): TreeEntry[] {
  return entries.sort((a, b) =>
    a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === "dir" ? -1 : 1,
  );
}
