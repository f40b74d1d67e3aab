/**
 * The ContentCategory model of the data API (issue 5): readable by everyone (inactive categories
 * only by content writers and platform admins, filtered in SQL); written only by app-owner and
 * app-admin (`canManageContentCatalog`). Categories are not versioned.
 */

import type { Kysely } from "kysely";
import { canManageContentCatalog, canSeeUnpublishedContent } from "../../../core/index.ts";
import { type Dialect, dialectOf } from "../../db/dialect.ts";
import { type FilterFields, filterSql, parseFilter } from "../../db/filters.ts";
import { keysetPage } from "../../db/keyset-page.ts";
import type { Page } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { ForbiddenError, NotFoundError } from "../../errors.ts";
import { type Actor, requireReadScope, requireUser } from "../actor.ts";
import { contentCategoryCreateSchema, contentCategoryWriteSchema, parseInput } from "./content.schemas.ts";
import type { ListArgs } from "./content.types.ts";
import {
  type ContentCategory,
  contentCategoryFromRow,
  createContentCategoryRepo,
  type NewContentCategory,
} from "./content-category.repo.ts";

export const CONTENT_CATEGORY_FILTER_FIELDS: FilterFields = {
  id: "string",
  slug: "string",
  label: "string",
  description: "string",
  defaultTier: "string",
  icon: "string",
  s3Prefix: "string",
  isActive: "boolean",
  createdAt: "datetime",
  updatedAt: "datetime",
};

export function createContentCategoryService(deps: { db: Kysely<DB> }) {
  const { db } = deps;
  const repo = createContentCategoryRepo(db);
  const dialect: Dialect = dialectOf(db);
  const seesInactive = (actor: Actor) =>
    canManageContentCatalog(actor.access) || canSeeUnpublishedContent(actor.access);
  const visible = (actor: Actor, c: ContentCategory | null): c is ContentCategory =>
    c !== null && (c.isActive || seesInactive(actor));

  function requireCatalogManager(actor: Actor): void {
    requireUser(actor);
    if (!canManageContentCatalog(actor.access)) {
      throw new ForbiddenError("only app-owner and app-admin may change content categories");
    }
  }

  return {
    async get(actor: Actor, id: string): Promise<ContentCategory | null> {
      requireReadScope(actor, "content:read");
      const category = await repo.getById(id);
      return visible(actor, category) ? category : null;
    },

    async getMany(actor: Actor, ids: readonly string[]): Promise<ContentCategory[]> {
      requireReadScope(actor, "content:read");
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom("content_category")
        .selectAll()
        .where("id", "in", [...ids])
        .execute();
      return rows.map(contentCategoryFromRow).filter((c) => visible(actor, c));
    },

    async list(actor: Actor, args: ListArgs): Promise<Page<ContentCategory>> {
      requireReadScope(actor, "content:read");
      const filter = parseFilter(CONTENT_CATEGORY_FILTER_FIELDS, args.filter);
      const where = filterSql(CONTENT_CATEGORY_FILTER_FIELDS, filter, { dialect });
      const conditions = [where];
      if (!seesInactive(actor)) {
        conditions.push(filterSql({ isActive: "boolean" }, { isActive: { eq: true } }, { dialect }));
      }
      return keysetPage(db, {
        table: "content_category",
        conditions: conditions.filter((c) => c !== null),
        sortColumn: null,
        limit: args.limit,
        cursor: args.nextToken,
        map: contentCategoryFromRow as (row: never) => ContentCategory,
      });
    },

    async create(actor: Actor, input: unknown): Promise<ContentCategory> {
      requireCatalogManager(actor);
      const fields = parseInput(contentCategoryCreateSchema, input, "input");
      return repo.create(fields as NewContentCategory);
    },

    async update(actor: Actor, id: string, input: unknown): Promise<ContentCategory> {
      requireCatalogManager(actor);
      const fields = parseInput(contentCategoryWriteSchema, input, "input");
      return repo.update(id, fields);
    },

    async delete(actor: Actor, id: string): Promise<ContentCategory> {
      requireCatalogManager(actor);
      const current = await repo.getById(id);
      if (!current || !(await repo.delete(id))) throw new NotFoundError("content category", id);
      return current;
    },
  };
}

export type ContentCategoryService = ReturnType<typeof createContentCategoryService>;
