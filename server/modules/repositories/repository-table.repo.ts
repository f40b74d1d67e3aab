/**
 * The `github_repository` table: repositories read from GitHub or a local git folder, with
 * optimistic concurrency on updates (`version`).
 */
import type { Kysely, Selectable, Updateable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { fromJson, storedStringListSchema, toJson } from "../../db/json.ts";
import { type KeysetQuery, keysetPage } from "../../db/keyset-page.ts";
import type { Page } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { isoInput, isoInputOrNull, nowIso, toBool } from "../../db/values.ts";
import { ConflictError, NotFoundError, rethrowConstraintError } from "../../errors.ts";
import { repositoryTagsSchema } from "./repositories.schemas.ts";
import type {
  GitHubRepository,
  GitHubRepositoryFields,
  GitHubRepositoryPatch,
  NewGitHubRepository,
} from "./repository-records.ts";

type RepositoryRow = Selectable<DB["github_repository"]>;

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

function repositoryColumns(fields: Partial<GitHubRepositoryFields>): Updateable<DB["github_repository"]> {
  const out: Record<string, unknown> = {};
  for (const key of REPOSITORY_FIELDS) {
    const value = fields[key];
    if (value === undefined) continue;
    if (key === "tags") out[key] = toJson(repositoryTagsSchema, (value ?? []) as string[], key);
    else if (key === "lastSyncAt" || key === "cacheExpiry")
      out[key] = isoInputOrNull(value as string | null, key);
    else out[key] = value;
  }
  return out as Updateable<DB["github_repository"]>;
}

function repositoryFromRow(row: RepositoryRow): GitHubRepository {
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

/**
 * After a versioned update matched no row: ConflictError when the row exists (its version moved
 * on); otherwise returns, and the caller reports the row missing.
 */
export async function throwIfStale(
  db: Kysely<DB>,
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

export function createRepositoryTableRepo(db: Kysely<DB>) {
  const selectRepositories = () => db.selectFrom("github_repository").selectAll();

  return {
    async getRepository(id: string): Promise<GitHubRepository | null> {
      const row = await selectRepositories().where("id", "=", id).executeTakeFirst();
      return row ? repositoryFromRow(row) : null;
    },

    /** listGitHubRepositoryBySlug. */
    async getRepositoryBySlug(slug: string): Promise<GitHubRepository | null> {
      const row = await selectRepositories().where("slug", "=", slug).executeTakeFirst();
      return row ? repositoryFromRow(row) : null;
    },

    /** listGitHubRepositoryByOwner: by sortOrder, then slug. */
    async listRepositoriesByOwner(owner: string): Promise<GitHubRepository[]> {
      const rows = await selectRepositories()
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
      let query = selectRepositories().where("category", "=", category);
      if (options.enabledOnly) query = query.where("isEnabled", "=", true);
      const rows = await query.orderBy("sortOrder").orderBy("slug").execute();
      return rows.map(repositoryFromRow);
    },

    /** Every repository by category, sortOrder, slug. */
    async listRepositories(options: { enabledOnly?: boolean } = {}): Promise<GitHubRepository[]> {
      let query = selectRepositories();
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
      let row: RepositoryRow | undefined;
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
      await throwIfStale(db, "github_repository", "repository", id, expectedVersion);
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
}
