/**
 * The `repository_category` table: the groups the /resources page shows repositories under, with
 * optimistic concurrency on updates (`version`).
 */
import type { Kysely, Selectable, Updateable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { type KeysetQuery, keysetPage } from "../../db/keyset-page.ts";
import type { Page } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { definedOnly, toBool } from "../../db/values.ts";
import { NotFoundError, rethrowConstraintError } from "../../errors.ts";
import type {
  NewRepositoryCategory,
  RepositoryCategory,
  RepositoryCategoryPatch,
} from "./repository-records.ts";
import { throwIfStale } from "./repository-table.repo.ts";

type CategoryRow = Selectable<DB["repository_category"]>;

function categoryFromRow(row: CategoryRow): RepositoryCategory {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    icon: row.icon,
    sortOrder: row.sortOrder,
    isVisible: toBool(row.isVisible),
    version: row.version,
  };
}

function categoryColumns(fields: RepositoryCategoryPatch): Updateable<DB["repository_category"]> {
  return definedOnly({
    name: fields.name,
    slug: fields.slug,
    description: fields.description,
    icon: fields.icon,
    sortOrder: fields.sortOrder,
    isVisible: fields.isVisible,
  });
}

export function createRepositoryCategoryRepo(db: Kysely<DB>) {
  const selectCategories = () => db.selectFrom("repository_category").selectAll();

  return {
    async getCategory(id: string): Promise<RepositoryCategory | null> {
      const row = await selectCategories().where("id", "=", id).executeTakeFirst();
      return row ? categoryFromRow(row) : null;
    },

    async getCategoryBySlug(slug: string): Promise<RepositoryCategory | null> {
      const row = await selectCategories().where("slug", "=", slug).executeTakeFirst();
      return row ? categoryFromRow(row) : null;
    },

    /** By sortOrder, then slug; only visible ones unless `includeHidden`. */
    async listCategories(options: { includeHidden?: boolean } = {}): Promise<RepositoryCategory[]> {
      let query = selectCategories();
      if (!options.includeHidden) query = query.where("isVisible", "=", true);
      const rows = await query.orderBy("sortOrder").orderBy("slug").execute();
      return rows.map(categoryFromRow);
    },

    async createCategory(input: NewRepositoryCategory): Promise<RepositoryCategory> {
      try {
        const row = await db
          .insertInto("repository_category")
          .values({ ...categoryColumns(input), id: input.id ?? uuidv7(), slug: input.slug })
          .returningAll()
          .executeTakeFirstOrThrow();
        return categoryFromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "repository category");
      }
    },

    /** Like `updateRepository`: bumps the version, checks `expectedVersion` when given. */
    async updateCategory(
      id: string,
      patch: RepositoryCategoryPatch,
      expectedVersion?: number,
    ): Promise<RepositoryCategory> {
      let row: CategoryRow | undefined;
      try {
        let query = db
          .updateTable("repository_category")
          .set(categoryColumns(patch))
          .set((eb) => ({ version: eb("version", "+", 1) }))
          .where("id", "=", id);
        if (expectedVersion !== undefined) query = query.where("version", "=", expectedVersion);
        row = await query.returningAll().executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "repository category");
      }
      if (row) return categoryFromRow(row);
      await throwIfStale(db, "repository_category", "repository category", id, expectedVersion);
      throw new NotFoundError("repository category", id);
    },

    listCategoryPage(
      query: Omit<KeysetQuery<RepositoryCategory>, "table" | "map">,
    ): Promise<Page<RepositoryCategory>> {
      return keysetPage(db, { ...query, table: "repository_category", map: categoryFromRow });
    },

    async deleteCategory(id: string): Promise<boolean> {
      const result = await db.deleteFrom("repository_category").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
