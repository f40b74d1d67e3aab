/**
 * What the repository pages read (issue 6): a repository's header data, its tree, a file, the
 * README and commits, for any branch. Access as the data API's read rule (decision 007): everyone
 * with the `repositories:read` scope where scopes apply; a disabled repository is NOT_FOUND except
 * for platform admins. A later tier rule for repositories belongs in `visible()`.
 *
 * Caching: the default branch's tree comes from the synced file index (repository_file); a default
 * branch text file up to CACHE_CONTENT_LIMIT is kept in its row's `content` until the row's
 * cacheExpiry. Other branches and binary files are kept in a bounded in-memory cache for the same
 * time. When the source cannot be reached, an expired cached copy is served with `stale: true`;
 * without one the SourceUnavailableError/RateLimitedError goes to the caller.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { type Actor, requireReadScope } from "../actor.ts";
import {
  createRepositoriesRepo,
  type GitHubRepository,
  type RepositoryBranch,
  type RepositoryCategory,
} from "./repositories.repo.ts";
import {
  type CommitInfo,
  describeFile,
  languageOf,
  NotFoundError,
  RateLimitedError,
  type Readme,
  type RepositorySources,
  SourceUnavailableError,
  safeBranchName,
  safeDirectory,
  safeRepositoryPath,
  type TreeEntry,
} from "./sources/index.ts";

export const READ_SCOPE = "repositories:read";
/** Text files above this are shown without highlighting (issue 6, limits). */
export const HIGHLIGHT_LIMIT_BYTES = 1024 * 1024;
/** Files above this are offered as a download only. */
export const VIEW_LIMIT_BYTES = 8 * 1024 * 1024;
/** Default-branch text files up to this size are kept in repository_file.content. */
export const CACHE_CONTENT_LIMIT_BYTES = 1024 * 1024;
const MEMORY_CACHE_BYTES = 32 * 1024 * 1024;
const DEFAULT_TTL_MS = 60 * 60 * 1000;

export interface RepositoryOverview {
  repository: GitHubRepository;
  category: RepositoryCategory | null;
  /** Default branch first. */
  branches: RepositoryBranch[];
  readme: Readme | null;
}

export interface TreeListing {
  branch: string;
  dir: string;
  entries: TreeEntry[];
  /** Served from an expired cache because the source could not be reached. */
  stale: boolean;
}

export interface FileView {
  branch: string;
  path: string;
  name: string;
  size: number;
  sha: string | null;
  isBinary: boolean;
  mimeType: string;
  /** Shiki language id for highlighting (null = plain text). */
  language: string | null;
  /** UTF-8 text of a text file; null for binary files. */
  text: string | null;
  /** The raw bytes (raw view and download). */
  bytes: Uint8Array;
  /** Above HIGHLIGHT_LIMIT_BYTES: shown plain. */
  tooLargeToHighlight: boolean;
  /** Above VIEW_LIMIT_BYTES: download only. */
  downloadOnly: boolean;
  stale: boolean;
}

export interface RepositoryBrowserDeps {
  db: Kysely<DB>;
  sources: RepositorySources;
  now?: () => number;
  /** Lifetime of cached file content (default 1 h). */
  ttlMs?: number;
}

interface MemoryEntry {
  value: unknown;
  bytes: number;
  expires: number;
}

const isUnavailable = (error: unknown) =>
  error instanceof SourceUnavailableError || error instanceof RateLimitedError;

export function createRepositoryBrowser(deps: RepositoryBrowserDeps) {
  const { db, sources } = deps;
  const repo = createRepositoriesRepo(db);
  const now = deps.now ?? Date.now;
  const ttl = deps.ttlMs ?? DEFAULT_TTL_MS;
  const memory = new Map<string, MemoryEntry>();
  let memoryBytes = 0;

  function remember(key: string, value: unknown, bytes: number) {
    const old = memory.get(key);
    if (old) {
      memoryBytes -= old.bytes;
      memory.delete(key);
    }
    if (bytes > MEMORY_CACHE_BYTES / 4) return;
    memory.set(key, { value, bytes, expires: now() + ttl });
    memoryBytes += bytes;
    for (const [k, e] of memory) {
      if (memoryBytes <= MEMORY_CACHE_BYTES) break;
      memory.delete(k);
      memoryBytes -= e.bytes;
    }
  }

  /** Fresh value from memory, or a fetch; on an unreachable source, an expired value (stale). */
  async function cached<T>(key: string, bytesOf: (v: T) => number, fetch: () => Promise<T>) {
    const hit = memory.get(key);
    if (hit && hit.expires > now()) return { value: hit.value as T, stale: false };
    try {
      const value = await fetch();
      remember(key, value, bytesOf(value));
      return { value, stale: false };
    } catch (error) {
      if (hit && isUnavailable(error)) return { value: hit.value as T, stale: true };
      throw error;
    }
  }

  async function visible(actor: Actor, slug: string): Promise<GitHubRepository> {
    requireReadScope(actor, READ_SCOPE);
    if (typeof slug !== "string" || slug.length === 0 || slug.length > 100) {
      throw new NotFoundError("repository", String(slug));
    }
    const row = await repo.getRepositoryBySlug(slug);
    if (!row || (!row.isEnabled && !actor.platformAdmin)) throw new NotFoundError("repository", slug);
    return row;
  }

  function branchOf(row: GitHubRepository, branch: string | undefined): string {
    if (branch === undefined || branch === "") {
      if (!row.defaultBranch) throw new NotFoundError("branch", "(default)");
      return row.defaultBranch;
    }
    return safeBranchName(branch);
  }

  /** The default branch is served from the synced index when the repository has been synced. */
  const fromIndex = (row: GitHubRepository, branch: string) =>
    row.lastSyncAt !== null && branch === row.defaultBranch;

  function view(
    branch: string,
    path: string,
    bytes: Uint8Array,
    sha: string | null,
    stale: boolean,
  ): FileView {
    const { isBinary, mimeType } = describeFile(path, bytes);
    return {
      branch,
      path,
      name: path.slice(path.lastIndexOf("/") + 1),
      size: bytes.length,
      sha,
      isBinary,
      mimeType,
      language: isBinary ? null : languageOf(path),
      text: isBinary ? null : new TextDecoder().decode(bytes),
      bytes,
      tooLargeToHighlight: bytes.length > HIGHLIGHT_LIMIT_BYTES,
      downloadOnly: bytes.length > VIEW_LIMIT_BYTES,
      stale,
    };
  }

  return {
    /** Header, branches and README of a repository by slug. */
    async getRepositoryOverview(actor: Actor, slug: string): Promise<RepositoryOverview> {
      const row = await visible(actor, slug);
      const category = row.category ? await repo.getCategoryBySlug(row.category) : null;
      const readmeRow = await repo.getReadme(row.id);
      return {
        repository: row,
        category: category && (category.isVisible || actor.platformAdmin) ? category : null,
        branches: await repo.listBranches(row.id),
        readme: readmeRow?.content != null ? { path: readmeRow.path, text: readmeRow.content } : null,
      };
    },

    /** The entries of one folder of a branch (default: the default branch, root folder). */
    async listRepositoryTree(
      actor: Actor,
      slug: string,
      options: { branch?: string; dir?: string } = {},
    ): Promise<TreeListing> {
      const row = await visible(actor, slug);
      const branch = branchOf(row, options.branch);
      const dir = safeDirectory(options.dir ?? "");
      if (fromIndex(row, branch)) {
        if (dir !== "") {
          const folder = await repo.getFile(row.id, dir);
          if (folder?.type !== "dir") throw new NotFoundError("path", dir);
        }
        const rows = await repo.listDirectory(row.id, dir);
        const entries = rows.map((f) => ({
          name: f.name ?? f.path,
          path: f.path,
          type: f.type === "dir" ? ("dir" as const) : ("file" as const),
          size: f.size,
          sha: f.sha ?? "",
        }));
        return { branch, dir, entries, stale: false };
      }
      const source = sources.forRepository(row);
      const { value, stale } = await cached(
        `tree\0${row.id}\0${branch}\0${dir}`,
        (v: TreeEntry[]) => v.length * 200,
        () => source.listTree(branch, dir),
      );
      return { branch, dir, entries: value, stale };
    },

    /** One file of a branch: text (UTF-8) or binary, with its size limits. */
    async readRepositoryFile(
      actor: Actor,
      slug: string,
      options: { branch?: string; path: string },
    ): Promise<FileView> {
      const row = await visible(actor, slug);
      const branch = branchOf(row, options.branch);
      const path = safeRepositoryPath(options.path);
      const source = sources.forRepository(row);

      if (fromIndex(row, branch)) {
        const indexed = await repo.getFile(row.id, path);
        if (indexed?.type !== "file") throw new NotFoundError("path", path);
        const expiry = indexed.cacheExpiry ? Date.parse(indexed.cacheExpiry) : null;
        // No expiry: copied by the sync (the README; a local repository's files), current until
        // the next sync replaces the index, on every process whether or not it has the folder.
        const fresh = indexed.isReadme || expiry === null || expiry > now();
        if (indexed.content !== null && fresh) {
          return view(branch, path, new TextEncoder().encode(indexed.content), indexed.sha, false);
        }
        try {
          const blob = await source.readBlob(branch, path);
          if (!blob.isBinary && blob.size <= CACHE_CONTENT_LIMIT_BYTES) {
            await repo.updateFileById(indexed.id, {
              content: new TextDecoder().decode(blob.bytes),
              sha: blob.sha,
              size: blob.size,
              mimeType: blob.mimeType,
              encoding: "utf-8",
              lastFetchAt: new Date(now()).toISOString(),
              cacheExpiry: new Date(now() + ttl).toISOString(),
            });
          } else remember(`blob\0${row.id}\0${branch}\0${path}`, blob, blob.size);
          return view(branch, path, blob.bytes, blob.sha, false);
        } catch (error) {
          if (isUnavailable(error) && indexed.content !== null) {
            return view(branch, path, new TextEncoder().encode(indexed.content), indexed.sha, true);
          }
          if (isUnavailable(error)) {
            const hit = memory.get(`blob\0${row.id}\0${branch}\0${path}`);
            if (hit) {
              const blob = hit.value as { bytes: Uint8Array; sha: string };
              return view(branch, path, blob.bytes, blob.sha, true);
            }
          }
          throw error;
        }
      }

      const { value, stale } = await cached(
        `blob\0${row.id}\0${branch}\0${path}`,
        (b: { size: number }) => b.size,
        () => source.readBlob(branch, path),
      );
      return view(branch, path, value.bytes, value.sha, stale);
    },

    /** The README of a branch (the default branch's comes from the sync). */
    async readRepositoryReadme(
      actor: Actor,
      slug: string,
      options: { branch?: string } = {},
    ): Promise<Readme | null> {
      const row = await visible(actor, slug);
      const branch = branchOf(row, options.branch);
      if (fromIndex(row, branch)) {
        const readme = await repo.getReadme(row.id);
        return readme?.content != null ? { path: readme.path, text: readme.content } : null;
      }
      const source = sources.forRepository(row);
      const { value } = await cached(
        `readme\0${row.id}\0${branch}`,
        (r: Readme | null) => r?.text.length ?? 0,
        () => source.readme(branch),
      );
      return value;
    },

    /** Newest commits of a branch (1..100, default 20). */
    async listRepositoryCommits(
      actor: Actor,
      slug: string,
      options: { branch?: string; limit?: number } = {},
    ): Promise<{ branch: string; commits: CommitInfo[]; stale: boolean }> {
      const row = await visible(actor, slug);
      const branch = branchOf(row, options.branch);
      const limit = Math.max(1, Math.min(Math.trunc(options.limit ?? 20) || 20, 100));
      const source = sources.forRepository(row);
      const { value, stale } = await cached(
        `commits\0${row.id}\0${branch}\0${limit}`,
        (c: CommitInfo[]) => c.length * 300,
        () => source.listCommits(branch, limit),
      );
      return { branch, commits: value, stale };
    },
  };
}

export type RepositoryBrowser = ReturnType<typeof createRepositoryBrowser>;
