/**
 * The cached children of a repository (files, branches, issues, workflows): one generic
 * child-table repo each (`server/db/child-table-repo.ts`), stated here as table, natural key,
 * order, row ↔ record mapping and column builders; plus the file tree's directory listing and
 * README look-up.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import { createChildTableRepo } from "../../db/child-table-repo.ts";
import { fromJson, storedStringListSchema, toJson } from "../../db/json.ts";
import type { DB } from "../../db/schema.ts";
import { definedOnly, isoInputOrNull, toBool } from "../../db/values.ts";
import { BadInputError } from "../../errors.ts";
import { issueLabelsSchema, repositoryPathSchema } from "./repositories.schemas.ts";
import type {
  RepositoryBranch,
  RepositoryBranchInput,
  RepositoryFile,
  RepositoryFileInput,
  RepositoryIssue,
  RepositoryIssueInput,
  RepositoryWorkflow,
  RepositoryWorkflowInput,
} from "./repository-records.ts";

const PARENT = { column: "repositoryId", table: "github_repository", entity: "repository" } as const;

/** A patch's datetime: undefined leaves the column alone, null clears it. */
function isoPatch(value: string | Date | null | undefined, field: string): string | null | undefined {
  return value === undefined ? undefined : isoInputOrNull(value, field);
}

function checkPath(path: string): string {
  const parsed = repositoryPathSchema.safeParse(path);
  if (!parsed.success) throw new BadInputError("repository path is not valid");
  return parsed.data;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function fileFromRow(row: Selectable<DB["repository_file"]>): RepositoryFile {
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

export function createRepositoryFileRepo(db: Kysely<DB>) {
  return createChildTableRepo(db, {
    table: "repository_file",
    entity: "repository file",
    parent: PARENT,
    naturalKey: { column: "path", parse: checkPath },
    order: [["path", "asc"]],
    fromRow: fileFromRow,
    columns: (input: RepositoryFileInput) => {
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
    },
    patchColumns: (patch) =>
      definedOnly({
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
        lastFetchAt: isoPatch(patch.lastFetchAt, "lastFetchAt"),
        cacheExpiry: isoPatch(patch.cacheExpiry, "cacheExpiry"),
      }),
  });
}

/** The file tree's reads that are not plain look-ups: directory listings and the README. */
export function createRepositoryTreeReads(db: Kysely<DB>) {
  return {
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
  };
}

export function createRepositoryBranchRepo(db: Kysely<DB>) {
  return createChildTableRepo(db, {
    table: "repository_branch",
    entity: "repository branch",
    parent: PARENT,
    naturalKey: { column: "name" },
    // The default branch first, then by name.
    order: [
      ["isDefault", "desc"],
      ["name", "asc"],
    ],
    fromRow: (row): RepositoryBranch => ({
      id: row.id,
      repositoryId: row.repositoryId,
      name: row.name,
      sha: row.sha,
      isDefault: toBool(row.isDefault),
      lastCommitMessage: row.lastCommitMessage,
      lastCommitDate: row.lastCommitDate,
    }),
    columns: (input: RepositoryBranchInput) => ({
      name: input.name,
      sha: input.sha,
      isDefault: input.isDefault ?? false,
      lastCommitMessage: input.lastCommitMessage ?? null,
      lastCommitDate: isoInputOrNull(input.lastCommitDate, "lastCommitDate"),
    }),
    patchColumns: (patch) =>
      definedOnly({
        name: patch.name,
        sha: patch.sha,
        isDefault: patch.isDefault,
        lastCommitMessage: patch.lastCommitMessage,
        lastCommitDate: isoPatch(patch.lastCommitDate, "lastCommitDate"),
      }),
  });
}

export function createRepositoryIssueRepo(db: Kysely<DB>) {
  return createChildTableRepo(db, {
    table: "repository_issue",
    entity: "repository issue",
    parent: PARENT,
    order: [["number", "desc"]],
    fromRow: (row): RepositoryIssue => ({
      id: row.id,
      repositoryId: row.repositoryId,
      githubIssueId: row.githubIssueId === null ? null : Number(row.githubIssueId),
      number: row.number,
      title: row.title,
      state: row.state,
      body: row.body,
      labels: fromJson(storedStringListSchema, row.labels, "labels"),
    }),
    columns: (input: RepositoryIssueInput) => ({
      state: input.state,
      githubIssueId: input.githubIssueId ?? null,
      number: input.number ?? null,
      title: input.title ?? null,
      body: input.body ?? null,
      labels: toJson(issueLabelsSchema, input.labels ?? [], "labels"),
    }),
    patchColumns: (patch) =>
      definedOnly({
        state: patch.state,
        githubIssueId: patch.githubIssueId,
        number: patch.number,
        title: patch.title,
        body: patch.body,
        labels: patch.labels === undefined ? undefined : toJson(issueLabelsSchema, patch.labels, "labels"),
      }),
  });
}

export function createRepositoryWorkflowRepo(db: Kysely<DB>) {
  return createChildTableRepo(db, {
    table: "repository_workflow",
    entity: "repository workflow",
    parent: PARENT,
    order: [
      ["name", "asc"],
      ["path", "asc"],
    ],
    fromRow: (row): RepositoryWorkflow => ({
      id: row.id,
      repositoryId: row.repositoryId,
      githubWorkflowId: row.githubWorkflowId === null ? null : Number(row.githubWorkflowId),
      name: row.name,
      path: row.path,
      state: row.state,
      lastRunStatus: row.lastRunStatus,
      lastRunDate: row.lastRunDate,
    }),
    columns: (input: RepositoryWorkflowInput) => ({
      state: input.state,
      githubWorkflowId: input.githubWorkflowId ?? null,
      name: input.name ?? null,
      path: input.path ?? null,
      lastRunStatus: input.lastRunStatus ?? null,
      lastRunDate: isoInputOrNull(input.lastRunDate, "lastRunDate"),
    }),
    patchColumns: (patch) =>
      definedOnly({
        state: patch.state,
        githubWorkflowId: patch.githubWorkflowId,
        name: patch.name,
        path: patch.path,
        lastRunStatus: patch.lastRunStatus,
        lastRunDate: isoPatch(patch.lastRunDate, "lastRunDate"),
      }),
  });
}
