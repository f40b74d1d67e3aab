/**
 * Sync: copies what a source says about a repository (metadata, branches, the default branch's
 * file index and README, issues, workflows) into the cache tables, in one transaction. A failed
 * sync (source unreachable, rate limited, unknown repository) leaves every cached row as it was and
 * records the reason in `lastSyncError`; it never throws to the caller of the background refresh.
 *
 * Freshness: a successful sync sets `cacheExpiry = now + ttl`; a failed one `now + retry` (or the
 * rate limit's reset). The background refresh syncs enabled repositories whose cacheExpiry has
 * passed (or was never set), one at a time, on an unref'd timer, on one process per tick (the
 * `repository-refresh` job's lease, decision 028).
 *
 * Several processes (decision 028): a local repository's default-branch text files are copied
 * into the cache tables by its sync, so every process shows its files whether or not it has the
 * folder. A process without the folder (LocalFolderMissingError) leaves a repository synced
 * before as it is (no error recorded over that sync, its cacheExpiry not moved), and the refresh
 * frees its lease so a process that has the folder takes the next tick. A repository never synced
 * records the error as any failed sync does (nothing to keep; an administrator should see it).
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { v7 as uuidv7 } from "uuid";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { bumpContentRevision } from "../content/content-revision.ts";
import type { LeaseControl } from "../operations/job-lease.ts";
import type { SharedJobTrack } from "../operations/job-registry.ts";
import { createRepositoriesRepo, type GitHubRepository } from "./repositories.repo.ts";
import {
  type BranchInfo,
  describeSourceError,
  extensionOf,
  isReadmeName,
  LocalFolderMissingError,
  RateLimitedError,
  type RepositorySources,
  SourceUnavailableError,
  type TreeEntry,
} from "./sources/index.ts";

export const DEFAULT_SYNC_TTL_MS = 60 * 60 * 1000;
export const DEFAULT_SYNC_RETRY_MS = 15 * 60 * 1000;
/** A local repository's text files copied by its sync: each at most this size (as the browser's). */
const LOCAL_CONTENT_FILE_LIMIT = 1024 * 1024;
/** ... and at most this much per repository (the rest is read from the folder when viewed). */
const LOCAL_CONTENT_TOTAL_LIMIT = 32 * 1024 * 1024;

export interface RepositorySyncDeps {
  db: Kysely<DB>;
  sources: RepositorySources;
  now?: () => number;
  logger?: Logger;
  /** How long a successful sync stays fresh (default 1 h). */
  ttlMs?: number;
  /** How long after a failed sync to try again (default 15 min; a rate limit waits for its reset). */
  retryMs?: number;
}

export type SyncOutcome =
  | { ok: true; repositoryId: string; files: number; branches: number; issues: number; workflows: number }
  | { ok: false; repositoryId: string; error: string; retryAt: string; notOnThisProcess?: true };

const clip = (value: string | null | undefined, max: number) =>
  value == null ? null : value.length > max ? value.slice(0, max) : value;

export function createRepositorySync(deps: RepositorySyncDeps) {
  const { db, sources } = deps;
  const now = deps.now ?? Date.now;
  const ttl = deps.ttlMs ?? DEFAULT_SYNC_TTL_MS;
  const retry = deps.retryMs ?? DEFAULT_SYNC_RETRY_MS;
  const running = new Map<string, Promise<SyncOutcome>>();

  async function pull(row: GitHubRepository) {
    const source = sources.forRepository(row);
    const meta = await source.metadata();
    if (meta.isPrivate) throw new SourceUnavailableError("private repositories are not synced");
    const branches = await source.listBranches();
    const files = await source.listAllFiles(meta.defaultBranch);
    const readme = await source.readme(meta.defaultBranch);
    const issues = await source.listIssues();
    const workflows = await source.listWorkflows();
    const contents = new Map<string, string>();
    if (row.sourceType === "local") {
      // Cheap here (no network): every process then shows these files from the shared tables.
      let total = 0;
      for (const entry of files) {
        const size = entry.size ?? 0;
        if (entry.type !== "file" || size > LOCAL_CONTENT_FILE_LIMIT) continue;
        if (total + size > LOCAL_CONTENT_TOTAL_LIMIT) break;
        const blob = await source.readBlob(meta.defaultBranch, entry.path);
        if (blob.isBinary) continue;
        total += blob.size;
        contents.set(entry.path, new TextDecoder().decode(blob.bytes));
      }
    }
    // GitHub's branch list has no commit details: fetch them for the default branch only.
    const withCommits: BranchInfo[] = [];
    for (const b of branches) {
      if (!b.lastCommit && b.name === meta.defaultBranch) {
        const [last] = await source.listCommits(b.name, 1);
        withCommits.push({ ...b, lastCommit: last ?? null });
      } else withCommits.push(b);
    }
    return { meta, branches: withCommits, files, readme, issues, workflows, contents };
  }

  async function store(
    row: GitHubRepository,
    data: Awaited<ReturnType<typeof pull>>,
    at: number,
  ): Promise<void> {
    const { meta } = data;
    const iso = new Date(at).toISOString();
    await inTransaction(db, async (trx) => {
      const repo = createRepositoriesRepo(trx);
      const local = row.sourceType === "local";
      await trx
        .updateTable("github_repository")
        .set({
          defaultBranch: meta.defaultBranch,
          size: meta.size,
          // Local repositories keep what the admin wrote; GitHub's values are the source's.
          ...(local
            ? { language: row.language ?? meta.language, name: row.name ?? meta.name }
            : {
                githubId: meta.githubId,
                name: meta.name,
                fullName: meta.fullName,
                owner: meta.owner,
                htmlUrl: meta.htmlUrl,
                description: clip(meta.description, 2000),
                isPrivate: meta.isPrivate,
                language: meta.language,
                stargazersCount: meta.stargazersCount,
                forksCount: meta.forksCount,
              }),
          lastSyncAt: iso,
          cacheExpiry: new Date(at + ttl).toISOString(),
          lastSyncError: null,
          lastSyncErrorAt: null,
          updatedAt: iso,
        })
        .where("id", "=", row.id)
        .execute();

      await trx.deleteFrom("repository_branch").where("repositoryId", "=", row.id).execute();
      for (const b of data.branches) {
        await trx
          .insertInto("repository_branch")
          .values({
            id: uuidv7(),
            repositoryId: row.id,
            name: b.name,
            sha: b.sha,
            isDefault: b.name === meta.defaultBranch,
            lastCommitMessage: clip(b.lastCommit?.message, 5000),
            lastCommitDate: b.lastCommit?.date ?? null,
          })
          .execute();
      }

      await replaceFiles(trx, row.id, data.files, data.readme, data.contents, iso);
      await repo.replaceIssues(
        row.id,
        data.issues.map((i) => ({
          ...i,
          title: clip(i.title, 1000),
          body: clip(i.body, 65_536),
        })),
      );
      await repo.replaceWorkflows(row.id, data.workflows);
      await bumpContentRevision(trx);
    });
  }

  /** The default branch's file index; content already cached for an unchanged blob is kept. */
  async function replaceFiles(
    trx: Kysely<DB>,
    repositoryId: string,
    entries: TreeEntry[],
    readme: { path: string; text: string } | null,
    contents: ReadonlyMap<string, string>,
    iso: string,
  ): Promise<void> {
    const kept = new Map(
      (
        await trx
          .selectFrom("repository_file")
          .select(["path", "sha", "content", "lastFetchAt", "cacheExpiry"])
          .where("repositoryId", "=", repositoryId)
          .where("content", "is not", null)
          .execute()
      ).map((r) => [r.path, r]),
    );
    await trx.deleteFrom("repository_file").where("repositoryId", "=", repositoryId).execute();
    const rows = entries.map((e) => {
      const old = kept.get(e.path);
      const same = old && old.sha === e.sha;
      const isReadme = readme?.path === e.path;
      // Copied by this sync (local sources): current until the next sync replaces the index.
      const synced = isReadme ? readme.text : contents.get(e.path);
      return {
        id: uuidv7(),
        repositoryId,
        path: e.path,
        name: e.name,
        type: e.type,
        size: e.size,
        sha: e.sha,
        extension: e.type === "file" ? extensionOf(e.name) : null,
        mimeType: null,
        encoding: null,
        isReadme: isReadme || (e.type === "file" && !e.path.includes("/") && isReadmeName(e.name) && !readme),
        content: synced ?? (same ? old.content : null),
        lastFetchAt: synced !== undefined ? iso : same ? old.lastFetchAt : null,
        cacheExpiry: synced !== undefined ? null : same ? old.cacheExpiry : null,
      };
    });
    for (let i = 0; i < rows.length; i += 200) {
      await trx
        .insertInto("repository_file")
        .values(rows.slice(i, i + 200))
        .execute();
    }
  }

  async function recordFailure(row: GitHubRepository, error: unknown, at: number): Promise<SyncOutcome> {
    const message = describeSourceError(error);
    if (error instanceof LocalFolderMissingError && row.lastSyncAt !== null) {
      // Not on this process's disk, but synced before by one that has it: that sync stays as it
      // is (no error over it, its expiry unmoved, so a process with the folder takes it next).
      const iso = new Date(at).toISOString();
      deps.logger?.warn(
        { repositoryId: row.id, slug: row.slug },
        "repository sync skipped: the local folder is not on this process",
      );
      return { ok: false, repositoryId: row.id, error: message, retryAt: iso, notOnThisProcess: true };
    }
    const retryAt = error instanceof RateLimitedError ? error.resetAt.getTime() : at + retry;
    const iso = new Date(at).toISOString();
    await db
      .updateTable("github_repository")
      .set({ lastSyncError: message, lastSyncErrorAt: iso, cacheExpiry: new Date(retryAt).toISOString() })
      .where("id", "=", row.id)
      .execute();
    deps.logger?.warn({ repositoryId: row.id, slug: row.slug, reason: message }, "repository sync failed");
    return { ok: false, repositoryId: row.id, error: message, retryAt: new Date(retryAt).toISOString() };
  }

  async function run(row: GitHubRepository): Promise<SyncOutcome> {
    const at = now();
    let data: Awaited<ReturnType<typeof pull>>;
    try {
      data = await pull(row);
    } catch (error) {
      return recordFailure(row, error, at);
    }
    await store(row, data, at);
    return {
      ok: true,
      repositoryId: row.id,
      files: data.files.length,
      branches: data.branches.length,
      issues: data.issues.length,
      workflows: data.workflows.length,
    };
  }

  /** Syncs one repository now (a second call while one runs joins it). */
  function syncRepository(row: GitHubRepository): Promise<SyncOutcome> {
    const current = running.get(row.id);
    if (current) return current;
    const promise = run(row).finally(() => running.delete(row.id));
    running.set(row.id, promise);
    return promise;
  }

  /**
   * Syncs every enabled repository whose cache has expired (or never synced). A local repository
   * whose folder this process lacks frees the job's lease for another process (`lease`).
   */
  async function refreshDue(lease?: LeaseControl): Promise<SyncOutcome[]> {
    const iso = new Date(now()).toISOString();
    const due = await db
      .selectFrom("github_repository")
      .select("id")
      .where("isEnabled", "=", true)
      .where((eb) => eb.or([eb("cacheExpiry", "is", null), eb("cacheExpiry", "<=", iso)]))
      .orderBy("cacheExpiry")
      .orderBy("id")
      .execute();
    const repo = createRepositoriesRepo(db);
    const outcomes: SyncOutcome[] = [];
    for (const { id } of due) {
      const row = await repo.getRepository(id);
      if (!row) continue;
      try {
        const outcome = await syncRepository(row);
        if (!outcome.ok && outcome.notOnThisProcess) lease?.freeAtEnd();
        outcomes.push(outcome);
      } catch (error) {
        deps.logger?.error({ err: error, repositoryId: id }, "repository sync could not be stored");
      }
    }
    return outcomes;
  }

  /** The background refresh: every `intervalMs`, unref'd (never keeps the process alive). */
  function start(
    intervalMs = 5 * 60 * 1000,
    /** Records each pass in the background jobs registry (/super-admin/infrastructure). */
    track: SharedJobTrack = (pass) => pass(),
  ): { stop(): Promise<void> } {
    let stopped = false;
    let current: Promise<unknown> = Promise.resolve();
    const tick = () => {
      if (stopped) return;
      current = track((lease) => refreshDue(lease)).catch((error) =>
        deps.logger?.error({ err: error }, "repository background refresh failed"),
      );
    };
    const timer = setInterval(tick, intervalMs);
    timer.unref();
    return {
      async stop() {
        stopped = true;
        clearInterval(timer);
        await current;
      },
    };
  }

  return { syncRepository, refreshDue, start };
}

export type RepositorySync = ReturnType<typeof createRepositorySync>;
