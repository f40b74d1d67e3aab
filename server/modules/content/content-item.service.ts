/**
 * The ContentItem model of the data API (issue 5): the API projection of content. Metadata is
 * readable by everyone (items without publishedAt only by content writers and platform admins,
 * filtered in SQL); locked or not by the same rule as content (`content-projection.ts`): the
 * item's tier and its content record's required roles. `bodyS3Key` is the content record's own
 * key, only for readers who may open both (resolved through the record; a client never sets it);
 * written only by app-owner and app-admin (`canManageContentCatalog`). Items are not versioned.
 */

import { type Kysely, sql } from "kysely";
import { canManageContentCatalog } from "../../../core/index.ts";
import { type Dialect, dialectOf } from "../../db/dialect.ts";
import { type FilterFields, filterSql, parseFilter } from "../../db/filters.ts";
import { fromJson, storedStringListSchema } from "../../db/json.ts";
import { keysetPage } from "../../db/keyset-page.ts";
import type { Page } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { ForbiddenError, NotFoundError } from "../../errors.ts";
import { type Actor, requireReadScope, requireUser } from "../actor.ts";
import {
  contentItemCreateSchema,
  contentItemWriteSchema,
  parseInput,
  refuseServerChosenFields,
} from "./content.schemas.ts";
import type { ListArgs } from "./content.types.ts";
import {
  type ContentItem,
  contentItemFromRow,
  createContentItemRepo,
  type NewContentItem,
} from "./content-item.repo.ts";
import { type ContentItemView, viewContentItem } from "./content-projection.ts";
import { seesUnpublished as seesUnpublishedContent } from "./readable-sql.ts";

export type { ContentItemView } from "./content-projection.ts";

export const CONTENT_ITEM_FILTER_FIELDS: FilterFields = {
  id: "string",
  contentId: "string",
  title: "string",
  slug: "string",
  tier: "string",
  tenant: "string",
  categoryId: "string",
  category: "string",
  categorySlug: "string",
  categoryTier: "string",
  section: "string",
  isPublic: "boolean",
  publishedAt: "datetime",
  updatedAt: "datetime",
  createdAt: "datetime",
  excerpt: "string",
};

export function createContentItemService(deps: { db: Kysely<DB> }) {
  const { db } = deps;
  const repo = createContentItemRepo(db);
  const dialect: Dialect = dialectOf(db);
  const seesUnpublished = (actor: Actor) =>
    canManageContentCatalog(actor.access) || seesUnpublishedContent(actor);

  /** The roles each item's content record requires, read in one query for all of them. */
  async function parentRoles(items: readonly ContentItem[]): Promise<Map<string, string[]>> {
    const ids = [...new Set(items.map((i) => i.contentId).filter((id): id is string => !!id))];
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom("content")
      .select(["id", "rolesRequired"])
      .where("id", "in", ids)
      .execute();
    return new Map(
      rows.map((r) => [r.id, fromJson(storedStringListSchema, r.rolesRequired, "rolesRequired")]),
    );
  }

  /** The reader's views of items, each under its content record's roles. */
  async function views(actor: Actor, items: readonly ContentItem[]): Promise<ContentItemView[]> {
    const roles = await parentRoles(items);
    return items.map((i) => viewContentItem(actor, i, (i.contentId && roles.get(i.contentId)) || []));
  }
  const view = async (actor: Actor, item: ContentItem) => (await views(actor, [item]))[0]!;
  const visible = (actor: Actor, item: ContentItem | null): item is ContentItem =>
    item !== null && (item.publishedAt !== null || seesUnpublished(actor));

  function requireCatalogManager(actor: Actor): void {
    requireUser(actor);
    if (!canManageContentCatalog(actor.access)) {
      throw new ForbiddenError("only app-owner and app-admin may change content items");
    }
  }

  return {
    async get(actor: Actor, id: string): Promise<ContentItemView | null> {
      requireReadScope(actor, "content:read");
      const item = await repo.getById(id);
      return visible(actor, item) ? view(actor, item) : null;
    },

    /** Visible items of several content records (the data loaders), by id within each record. */
    async listByContentIds(actor: Actor, contentIds: readonly string[]): Promise<ContentItemView[]> {
      requireReadScope(actor, "content:read");
      if (contentIds.length === 0) return [];
      // The records' required roles come with the rows (one query for the whole batch).
      let query = db
        .selectFrom("content_item")
        .leftJoin("content", "content.id", "content_item.contentId")
        .selectAll("content_item")
        .select("content.rolesRequired as parentRolesRequired")
        .where("content_item.contentId", "in", [...contentIds]);
      if (!seesUnpublished(actor)) query = query.where("content_item.publishedAt", "is not", null);
      const rows = await query.orderBy("content_item.id").execute();
      return rows.map(({ parentRolesRequired, ...row }) =>
        viewContentItem(
          actor,
          contentItemFromRow(row),
          fromJson(storedStringListSchema, parentRolesRequired ?? null, "rolesRequired"),
        ),
      );
    },

    async list(actor: Actor, args: ListArgs): Promise<Page<ContentItemView>> {
      requireReadScope(actor, "content:read");
      const filter = parseFilter(CONTENT_ITEM_FILTER_FIELDS, args.filter);
      const conditions = [filterSql(CONTENT_ITEM_FILTER_FIELDS, filter, { dialect })];
      if (!seesUnpublished(actor)) {
        conditions.push(sql<boolean>`${sql.ref("publishedAt")} is not null`);
      }
      const page = await keysetPage(db, {
        table: "content_item",
        conditions: conditions.filter((c) => c !== null),
        sortColumn: null,
        limit: args.limit,
        cursor: args.nextToken,
        map: contentItemFromRow as (row: never) => ContentItem,
      });
      return { items: await views(actor, page.items), nextCursor: page.nextCursor };
    },

    async create(actor: Actor, input: unknown): Promise<ContentItemView> {
      requireCatalogManager(actor);
      refuseServerChosenFields(input, "input", false);
      const fields = parseInput(contentItemCreateSchema, input, "input");
      return view(actor, await repo.create(fields as NewContentItem));
    },

    async update(actor: Actor, id: string, input: unknown): Promise<ContentItemView> {
      requireCatalogManager(actor);
      refuseServerChosenFields(input, "input", false);
      const fields = parseInput(contentItemWriteSchema, input, "input");
      return view(actor, await repo.update(id, fields));
    },

    async delete(actor: Actor, id: string): Promise<ContentItemView> {
      requireCatalogManager(actor);
      const current = await repo.getById(id);
      if (!current || !(await repo.delete(id))) throw new NotFoundError("content item", id);
      return view(actor, current);
    },
  };
}

export type ContentItemService = ReturnType<typeof createContentItemService>;
