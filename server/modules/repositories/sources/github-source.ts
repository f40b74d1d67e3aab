/**
 * A public GitHub repository by owner/name, read through the REST API (github-client.ts).
 * The file tree comes from one recursive tree request per branch (conditional, so a refresh of an
 * unchanged branch costs a 304); file contents from the contents API, falling back to the blob API
 * for files over 1 MB.
 */
import { BadInputError, NotFoundError } from "../../../errors.ts";
import { SourceUnavailableError } from "./errors.ts";
import { describeFile } from "./file-types.ts";
import type { GitHubClient } from "./github-client.ts";
import { resolveSymlinkTarget, safeBranchName, safeDirectory, safeRepositoryPath } from "./paths.ts";
import {
  type Blob,
  type BranchInfo,
  type CommitInfo,
  type IssueInfo,
  type RepositoryMetadata,
  type RepositorySource,
  sortEntries,
  type TreeEntry,
  type WorkflowInfo,
} from "./types.ts";

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** Checks a GitHub owner and repository name (BadInputError otherwise). */
export function checkGitHubName(owner: string, name: string): { owner: string; name: string } {
  if (!OWNER.test(owner) || !NAME.test(name) || name === "." || name === "..") {
    throw new BadInputError("GitHub owner/name is not valid");
  }
  return { owner, name };
}

interface GhRepo {
  id: number;
  name: string;
  full_name: string;
  owner: { login: string };
  html_url: string;
  description: string | null;
  default_branch: string;
  private: boolean;
  language: string | null;
  stargazers_count: number;
  forks_count: number;
  size: number;
}
interface GhBranch {
  name: string;
  commit: { sha: string };
}
interface GhTree {
  sha: string;
  truncated: boolean;
  tree: Array<{ path: string; mode: string; type: "blob" | "tree" | "commit"; sha: string; size?: number }>;
}
interface GhContent {
  type: "file" | "dir" | "symlink" | "submodule";
  path: string;
  sha: string;
  size: number;
  encoding?: string;
  content?: string;
  target?: string;
}
interface GhCommit {
  sha: string;
  commit: { message: string; author: { name: string; date: string } | null };
  author: { login: string } | null;
}
interface GhIssue {
  id: number;
  number: number;
  title: string;
  state: string;
  body: string | null;
  labels: Array<string | { name?: string }>;
  pull_request?: unknown;
}
interface GhWorkflows {
  workflows: Array<{ id: number; name: string; path: string; state: string }>;
}
interface GhRuns {
  workflow_runs: Array<{
    workflow_id: number;
    status: string | null;
    conclusion: string | null;
    created_at: string;
    run_started_at?: string;
    updated_at?: string;
  }>;
}

const seg = (s: string) => encodeURIComponent(s);
const pathUrl = (p: string) => p.split("/").map(seg).join("/");

function decodeBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.replace(/\s+/g, ""), "base64"));
}

export interface GitHubSourceOptions {
  client: GitHubClient;
  owner: string;
  name: string;
}

export function createGitHubSource(options: GitHubSourceOptions): RepositorySource {
  const { owner, name } = checkGitHubName(options.owner, options.name);
  const { client } = options;
  const repoPath = `/repos/${seg(owner)}/${seg(name)}`;

  async function repo(): Promise<GhRepo> {
    return (await client.get<GhRepo>(repoPath)).data;
  }

  async function tree(branch: string): Promise<GhTree> {
    const b = safeBranchName(branch);
    try {
      return (await client.get<GhTree>(`${repoPath}/git/trees/${seg(b)}?recursive=1`)).data;
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError("branch", b);
      throw error;
    }
  }

  function entriesOf(t: GhTree): TreeEntry[] {
    const out: TreeEntry[] = [];
    for (const e of t.tree) {
      if (e.type === "commit") continue;
      const entryName = e.path.slice(e.path.lastIndexOf("/") + 1);
      if (e.type === "tree") {
        out.push({ name: entryName, path: e.path, type: "dir", size: null, sha: e.sha });
      } else {
        out.push({
          name: entryName,
          path: e.path,
          type: "file",
          size: e.size ?? null,
          sha: e.sha,
          ...(e.mode === "120000" ? { symlink: true } : {}),
        });
      }
    }
    return out;
  }

  async function readFile(branch: string, file: string, hops = 0): Promise<Blob> {
    const b = safeBranchName(branch);
    let content: GhContent | GhContent[];
    try {
      content = (
        await client.get<GhContent | GhContent[]>(`${repoPath}/contents/${pathUrl(file)}?ref=${seg(b)}`)
      ).data;
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError("path", file);
      throw error;
    }
    if (Array.isArray(content) || content.type === "dir" || content.type === "submodule") {
      throw new NotFoundError("path", file);
    }
    if (content.type === "symlink") {
      const target = resolveSymlinkTarget(file, content.target ?? "");
      if (!target || hops >= 5) throw new NotFoundError("path", file);
      return readFile(branch, target, hops + 1);
    }
    let bytes: Uint8Array;
    if (content.encoding === "base64" && typeof content.content === "string") {
      bytes = decodeBase64(content.content);
    } else {
      // Over 1 MB the contents API sends no content: the blob API has it (up to 100 MB).
      const blob = await client.get<{ content: string; encoding: string }>(
        `${repoPath}/git/blobs/${seg(content.sha)}`,
      );
      if (blob.data.encoding !== "base64")
        throw new SourceUnavailableError("GitHub blob has an unknown encoding");
      bytes = decodeBase64(blob.data.content);
    }
    return { bytes, size: bytes.length, sha: content.sha, ...describeFile(file, bytes) };
  }

  return {
    kind: "github",

    async metadata(): Promise<RepositoryMetadata> {
      const r = await repo();
      return {
        githubId: r.id,
        name: r.name,
        fullName: r.full_name,
        owner: r.owner.login,
        htmlUrl: r.html_url,
        description: r.description,
        defaultBranch: r.default_branch,
        isPrivate: r.private,
        language: r.language,
        stargazersCount: r.stargazers_count,
        forksCount: r.forks_count,
        size: r.size,
      };
    },

    async defaultBranch() {
      return (await repo()).default_branch;
    },

    async listBranches(): Promise<BranchInfo[]> {
      const branches = await client.getAll<GhBranch>(`${repoPath}/branches?per_page=100`);
      return branches
        .map((b) => ({ name: b.name, sha: b.commit.sha, lastCommit: null }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async listTree(branch: string, dir = ""): Promise<TreeEntry[]> {
      const folder = safeDirectory(dir);
      const all = entriesOf(await tree(branch));
      if (folder && !all.some((e) => e.type === "dir" && e.path === folder))
        throw new NotFoundError("path", folder);
      const prefix = folder ? `${folder}/` : "";
      return sortEntries(
        all.filter((e) => e.path.startsWith(prefix) && !e.path.slice(prefix.length).includes("/")),
      );
    },

    async listAllFiles(branch: string) {
      return entriesOf(await tree(branch));
    },

    async readBlob(branch: string, filePath: string): Promise<Blob> {
      return readFile(branch, safeRepositoryPath(filePath));
    },

    async listCommits(branch: string, limit = 20): Promise<CommitInfo[]> {
      const b = safeBranchName(branch);
      const perPage = Math.max(1, Math.min(limit, 100));
      let commits: GhCommit[];
      try {
        commits = (await client.get<GhCommit[]>(`${repoPath}/commits?sha=${seg(b)}&per_page=${perPage}`))
          .data;
      } catch (error) {
        if (error instanceof NotFoundError) throw new NotFoundError("branch", b);
        throw error;
      }
      return commits.slice(0, perPage).map((c) => ({
        sha: c.sha,
        message: c.commit.message.trim(),
        author: c.commit.author?.name ?? c.author?.login ?? "unknown",
        date: new Date(c.commit.author?.date ?? 0).toISOString(),
      }));
    },

    async readme(branch: string) {
      const b = safeBranchName(branch);
      let readme: GhContent;
      try {
        readme = (await client.get<GhContent>(`${repoPath}/readme?ref=${seg(b)}`)).data;
      } catch (error) {
        if (error instanceof NotFoundError) return null;
        throw error;
      }
      if (readme.encoding !== "base64" || typeof readme.content !== "string") return null;
      const bytes = decodeBase64(readme.content);
      if (describeFile(readme.path, bytes).isBinary) return null;
      return { path: readme.path, text: new TextDecoder().decode(bytes) };
    },

    async listIssues(): Promise<IssueInfo[]> {
      const issues = await client.getAll<GhIssue>(`${repoPath}/issues?state=all&per_page=100`, 3);
      return issues
        .filter((i) => i.pull_request === undefined)
        .map((i) => ({
          githubIssueId: i.id,
          number: i.number,
          title: i.title,
          state: i.state === "closed" ? "closed" : "open",
          body: i.body,
          labels: i.labels
            .map((l) => (typeof l === "string" ? l : (l.name ?? "")))
            .filter((l) => l.length > 0)
            .slice(0, 50),
        }));
    },

    async listWorkflows(): Promise<WorkflowInfo[]> {
      const workflows = (await client.get<GhWorkflows>(`${repoPath}/actions/workflows?per_page=100`)).data
        .workflows;
      if (workflows.length === 0) return [];
      const runs = (await client.get<GhRuns>(`${repoPath}/actions/runs?per_page=100`)).data.workflow_runs;
      return workflows.map((w) => {
        // Runs come newest first: the first one of a workflow is its latest.
        const last = runs.find((r) => r.workflow_id === w.id);
        return {
          githubWorkflowId: w.id,
          name: w.name,
          path: w.path,
          state: w.state,
          lastRunStatus: last
            ? last.status === "completed"
              ? (last.conclusion ?? "completed")
              : last.status
            : null,
          lastRunDate: last ? new Date(last.run_started_at ?? last.created_at).toISOString() : null,
        };
      });
    },
  };
}
