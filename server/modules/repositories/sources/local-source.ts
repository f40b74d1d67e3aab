/**
 * Git repositories on disk, read with isomorphic-git (pure JavaScript, no git binary). Bare
 * repositories and working copies both work; only the object database is read (never the working
 * tree), so files on disk outside git cannot be reached. The repository folder must resolve (after
 * symlinks) inside the configured root; a symlink stored in the repository is followed only while
 * its target stays inside the repository.
 */
import fs from "node:fs";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { TreeEntry as GitTreeEntry } from "isomorphic-git";
import { LocalFolderMissingError, NotFoundError, SourceUnavailableError } from "./errors.ts";
import { describeFile, dominantLanguage, isReadmeName } from "./file-types.ts";
import { resolveSymlinkTarget, safeBranchName, safeDirectory, safeRepositoryPath } from "./paths.ts";
import {
  type Blob,
  type BranchInfo,
  type CommitInfo,
  type RepositoryMetadata,
  type RepositorySource,
  sortEntries,
  type TreeEntry,
} from "./types.ts";

/** isomorphic-git, imported when a local repository is first read (not at start). */
let gitModule: Promise<typeof import("isomorphic-git").default> | null = null;
const loadGit = () => {
  gitModule ??= import("isomorphic-git").then((module) => module.default);
  return gitModule;
};

export interface LocalSourceOptions {
  /** The folder local repositories must live in (DATA_DIR/repositories). */
  root: string;
  /** The repository folder, relative to `root` ("prompt-eval-kit"). */
  path: string;
}

const MODE_TREE = "040000";
const MODE_SYMLINK = "120000";
const MODE_SUBMODULE = "160000";
const MAX_SYMLINK_HOPS = 5;

function inside(parent: string, child: string): boolean {
  return child.startsWith(parent + path.sep);
}

/** The git folder of a repository folder under `root`, checked to stay inside it. */
export async function resolveGitDir(root: string, relative: string): Promise<string> {
  const rel = safeDirectory(relative);
  if (rel === "") throw new SourceUnavailableError("local repository path is empty");
  let rootReal: string;
  let dir: string;
  try {
    rootReal = await realpath(root);
    dir = await realpath(path.join(rootReal, rel));
  } catch (error) {
    throw new LocalFolderMissingError({ cause: error });
  }
  if (!inside(rootReal, dir))
    throw new SourceUnavailableError("local repository is outside the repository root");
  const dotGit = path.join(dir, ".git");
  const dotGitStat = await stat(dotGit).catch(() => null);
  if (dotGitStat?.isDirectory()) {
    const gitdir = await realpath(dotGit);
    if (!inside(rootReal, gitdir))
      throw new SourceUnavailableError("local repository is outside the repository root");
    return gitdir;
  }
  const [head, objects] = await Promise.all([
    stat(path.join(dir, "HEAD")).catch(() => null),
    stat(path.join(dir, "objects")).catch(() => null),
  ]);
  if (head?.isFile() && objects?.isDirectory()) return dir;
  throw new SourceUnavailableError("local folder is not a git repository");
}

function commitInfo(oid: string, commit: { message: string; author: { name: string; timestamp: number } }) {
  return {
    sha: oid,
    message: commit.message.trim(),
    author: commit.author.name,
    date: new Date(commit.author.timestamp * 1000).toISOString(),
  } satisfies CommitInfo;
}

export function createLocalSource(options: LocalSourceOptions): RepositorySource {
  let gitdirPromise: Promise<string> | null = null;
  const cache = {};
  const sizes = new Map<string, number>();

  function gitdir(): Promise<string> {
    gitdirPromise ??= resolveGitDir(options.root, options.path);
    gitdirPromise.catch(() => {
      gitdirPromise = null;
    });
    return gitdirPromise;
  }

  async function commitOf(branch: string): Promise<string> {
    const name = safeBranchName(branch);
    const dir = await gitdir();
    try {
      return await (await loadGit()).resolveRef({ fs, gitdir: dir, ref: `refs/heads/${name}` });
    } catch {
      throw new NotFoundError("branch", name);
    }
  }

  /** The entries of a tree by oid or by path from a commit. */
  async function readTreeAt(commit: string, dir: string): Promise<{ oid: string; entries: GitTreeEntry[] }> {
    const gd = await gitdir();
    try {
      const result = await (await loadGit()).readTree({
        fs,
        gitdir: gd,
        oid: commit,
        filepath: dir || undefined,
        cache,
      });
      return { oid: result.oid, entries: result.tree };
    } catch {
      throw new NotFoundError("path", dir);
    }
  }

  async function blobBytes(oid: string): Promise<Uint8Array> {
    const { blob } = await (await loadGit()).readBlob({ fs, gitdir: await gitdir(), oid, cache });
    sizes.set(oid, blob.length);
    return blob;
  }

  async function sizeOf(oid: string): Promise<number> {
    const known = sizes.get(oid);
    if (known !== undefined) return known;
    if (sizes.size > 50_000) sizes.clear();
    return (await blobBytes(oid)).length;
  }

  async function toEntry(parent: string, entry: GitTreeEntry): Promise<TreeEntry | null> {
    const full = parent ? `${parent}/${entry.path}` : entry.path;
    if (entry.mode === MODE_SUBMODULE || entry.type === "commit") return null;
    if (entry.mode === MODE_TREE || entry.type === "tree") {
      return { name: entry.path, path: full, type: "dir", size: null, sha: entry.oid };
    }
    if (entry.mode === MODE_SYMLINK) {
      const target = await symlinkTarget(full, entry.oid);
      if (!target) return null;
      return {
        name: entry.path,
        path: full,
        type: "file",
        size: await sizeOf(entry.oid),
        sha: entry.oid,
        symlink: true,
      };
    }
    return { name: entry.path, path: full, type: "file", size: await sizeOf(entry.oid), sha: entry.oid };
  }

  /** A symlink's target inside the repository, or null (outside, or nothing there). */
  async function symlinkTarget(linkPath: string, oid: string): Promise<string | null> {
    const target = new TextDecoder().decode(await blobBytes(oid));
    return resolveSymlinkTarget(linkPath, target);
  }

  async function findEntry(commit: string, filePath: string): Promise<GitTreeEntry> {
    const slash = filePath.lastIndexOf("/");
    const parent = slash < 0 ? "" : filePath.slice(0, slash);
    const name = filePath.slice(slash + 1);
    const { entries } = await readTreeAt(commit, parent);
    const entry = entries.find((e) => e.path === name);
    if (!entry) throw new NotFoundError("path", filePath);
    return entry;
  }

  async function readFileAt(commit: string, filePath: string, hops = 0): Promise<Blob> {
    const entry = await findEntry(commit, filePath);
    if (entry.type !== "blob") throw new NotFoundError("path", filePath);
    if (entry.mode === MODE_SYMLINK) {
      const target = await symlinkTarget(filePath, entry.oid);
      if (!target || hops >= MAX_SYMLINK_HOPS) throw new NotFoundError("path", filePath);
      return readFileAt(commit, target, hops + 1);
    }
    const bytes = await blobBytes(entry.oid);
    return { bytes, size: bytes.length, sha: entry.oid, ...describeFile(filePath, bytes) };
  }

  async function defaultBranch(): Promise<string> {
    const gd = await gitdir();
    const head = await (await loadGit()).currentBranch({ fs, gitdir: gd, test: true }).catch(() => undefined);
    if (head) return head;
    const names = await (await loadGit()).listBranches({ fs, gitdir: gd });
    const fallback = ["main", "master"].find((n) => names.includes(n)) ?? names.sort()[0];
    if (!fallback) throw new SourceUnavailableError("local repository has no branches");
    return fallback;
  }

  async function listAllFiles(branch: string): Promise<TreeEntry[]> {
    const commit = await commitOf(branch);
    const out: TreeEntry[] = [];
    const walk = async (dir: string, oid: string) => {
      const { entries } = await readTreeAt(oid, "");
      for (const e of entries) {
        const entry = await toEntry(dir, e);
        if (!entry) continue;
        out.push(entry);
        if (entry.type === "dir") await walk(entry.path, e.oid);
      }
    };
    await walk("", commit);
    return out;
  }

  const source: RepositorySource = {
    kind: "local",
    defaultBranch,

    async metadata(): Promise<RepositoryMetadata> {
      const branch = await defaultBranch();
      const files = await listAllFiles(branch);
      return {
        githubId: null,
        name: path.basename(options.path),
        fullName: null,
        owner: null,
        htmlUrl: null,
        description: null,
        defaultBranch: branch,
        isPrivate: false,
        language: dominantLanguage(files.filter((f) => f.type === "file")),
        stargazersCount: 0,
        forksCount: 0,
        size: Math.ceil(files.reduce((sum, f) => sum + (f.size ?? 0), 0) / 1024),
      };
    },

    async listBranches(): Promise<BranchInfo[]> {
      const gd = await gitdir();
      const names = (await (await loadGit()).listBranches({ fs, gitdir: gd })).sort();
      const out: BranchInfo[] = [];
      for (const name of names) {
        const sha = await (await loadGit()).resolveRef({ fs, gitdir: gd, ref: `refs/heads/${name}` });
        const { commit } = await (await loadGit()).readCommit({ fs, gitdir: gd, oid: sha, cache });
        out.push({ name, sha, lastCommit: commitInfo(sha, commit) });
      }
      return out;
    },

    async listTree(branch: string, dir = ""): Promise<TreeEntry[]> {
      const folder = safeDirectory(dir);
      const commit = await commitOf(branch);
      const { entries } = await readTreeAt(commit, folder);
      const out: TreeEntry[] = [];
      for (const e of entries) {
        const entry = await toEntry(folder, e);
        if (entry) out.push(entry);
      }
      return sortEntries(out);
    },

    listAllFiles,

    async readBlob(branch: string, filePath: string): Promise<Blob> {
      const file = safeRepositoryPath(filePath);
      return readFileAt(await commitOf(branch), file);
    },

    async listCommits(branch: string, limit = 20): Promise<CommitInfo[]> {
      const commit = await commitOf(branch);
      const entries = await (await loadGit()).log({
        fs,
        gitdir: await gitdir(),
        ref: commit,
        depth: Math.max(1, Math.min(limit, 500)),
        cache,
      });
      return entries.map((e) => commitInfo(e.oid, e.commit));
    },

    async readme(branch: string) {
      const commit = await commitOf(branch);
      const { entries } = await readTreeAt(commit, "");
      const candidates = entries
        .filter((e) => e.type === "blob" && isReadmeName(e.path))
        .sort((a, b) => Number(!/\.md$/i.test(a.path)) - Number(!/\.md$/i.test(b.path)));
      const first = candidates[0];
      if (!first) return null;
      const blob = await readFileAt(commit, first.path);
      if (blob.isBinary) return null;
      return { path: first.path, text: new TextDecoder().decode(blob.bytes) };
    },

    listIssues: async () => [],
    listWorkflows: async () => [],
  };
  return source;
}
