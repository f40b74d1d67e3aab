/**
 * Content items (spec §3 ContentItem): the API projection of content, optionally tied to a
 * content record (deleted with it).
 */
import type { Kysely, Selectable, Updateable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { fromJson, storedStringListSchema, toJson, toJsonOrNull } from "../../db/json.ts";
import { clampLimit, decodeCursor, type Page, type PageOptions, toPage } from "../../db/pagination.ts";
import type { ContentItemTable, DB } from "../../db/schema.ts";
import { isoInput, isoInputOrNull, nowIso, toBool } from "../../db/values.ts";
import { NotFoundError, rethrowConstraintError } from "../../errors.ts";
import type { StructuredData } from "./content.repo.ts";
import {
  contentStringListSchema,
  contentStructuredDataSchema,
  publishedCursorSchema,
} from "./content.schemas.ts";
import { bumpContentRevision } from "./content-revision.ts";

export interface ContentItem {
  id: string;
  contentId: string | null;
  title: string | null;
  slug: string | null;
  tier: string;
  tenant: string | null;
  categoryId: string | null;
  category: string | null;
  categorySlug: string | null;
  categoryTier: string | null;
  section: string | null;
  isPublic: boolean;
  publishedAt: string | null;
  updatedAt: string;
  bodyS3Key: string | null;
  excerpt: string | null;
  tags: string[];
  seoTitle: string | null;
  metaDescription: string | null;
  canonicalUrl: string | null;
  featuredImage: string | null;
  structuredData: StructuredData | null;
  createdAt: string;
}

export interface ContentItemFields {
  contentId: string | null;
  title: string | null;
  slug: string | null;
  tier: string;
  tenant: string | null;
  categoryId: string | null;
  category: string | null;
  categorySlug: string | null;
  categoryTier: string | null;
  section: string | null;
  isPublic: boolean;
  publishedAt: string | Date | null;
  bodyS3Key: string | null;
  excerpt: string | null;
  tags: string[];
  seoTitle: string | null;
  metaDescription: string | null;
  canonicalUrl: string | null;
  featuredImage: string | null;
  structuredData: StructuredData | null;
}

export type NewContentItem = Pick<ContentItemFields, "tier"> &
  Partial<Omit<ContentItemFields, "tier">> & { id?: string; createdAt?: string | Date };

export type ContentItemPatch = Partial<ContentItemFields>;

const FIELDS = [
  "contentId",
  "title",
  "slug",
  "tier",
  "tenant",
  "categoryId",
  "category",
  "categorySlug",
  "categoryTier",
  "section",
  "isPublic",
  "publishedAt",
  "bodyS3Key",
  "excerpt",
  "tags",
  "seoTitle",
  "metaDescription",
  "canonicalUrl",
  "featuredImage",
  "structuredData",
] as const satisfies readonly (keyof ContentItemFields)[];

type Row = Selectable<ContentItemTable>;

function toColumns(fields: Partial<ContentItemFields>): Updateable<ContentItemTable> {
  const out: Record<string, unknown> = {};
  for (const key of FIELDS) {
    const value = fields[key];
    if (value === undefined) continue;
    if (key === "tags") out[key] = toJson(contentStringListSchema, (value ?? []) as string[], key);
    else if (key === "structuredData") {
      out[key] = toJsonOrNull(contentStructuredDataSchema, value as StructuredData | null, key);
    } else if (key === "publishedAt") out[key] = isoInputOrNull(value as string | Date | null, key);
    else out[key] = value;
  }
  return out as Updateable<ContentItemTable>;
}

function fromRow(row: Row): ContentItem {
  return {
    id: row.id,
    contentId: row.contentId,
    title: row.title,
    slug: row.slug,
    tier: row.tier,
    tenant: row.tenant,
    categoryId: row.categoryId,
    category: row.category,
    categorySlug: row.categorySlug,
    categoryTier: row.categoryTier,
    section: row.section,
    isPublic: toBool(row.isPublic),
    publishedAt: row.publishedAt,
    updatedAt: row.updatedAt,
    bodyS3Key: row.bodyS3Key,
    excerpt: row.excerpt,
    tags: fromJson(storedStringListSchema, row.tags, "tags"),
    seoTitle: row.seoTitle,
    metaDescription: row.metaDescription,
    canonicalUrl: row.canonicalUrl,
    featuredImage: row.featuredImage,
    structuredData: fromJson(contentStructuredDataSchema.nullable(), row.structuredData, "structuredData"),
    createdAt: row.createdAt,
  };
}

export function createContentItemRepo(db: Kysely<DB>) {
  return {
    async getById(id: string): Promise<ContentItem | null> {
      const row = await db.selectFrom("content_item").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    async getBySlug(slug: string): Promise<ContentItem | null> {
      const row = await db
        .selectFrom("content_item")
        .selectAll()
        .where("slug", "=", slug)
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    async listByContentId(contentId: string): Promise<ContentItem[]> {
      const rows = await db
        .selectFrom("content_item")
        .selectAll()
        .where("contentId", "=", contentId)
        .orderBy("id")
        .execute();
      return rows.map(fromRow);
    },

    /** Items of one category slug with a publishedAt, newest first (then id desc), keyset-paginated. */
    async listByCategorySlug(categorySlug: string, page: PageOptions = {}): Promise<Page<ContentItem>> {
      const limit = clampLimit(page.limit);
      const cursor = page.cursor ? decodeCursor(publishedCursorSchema, page.cursor) : null;
      let query = db
        .selectFrom("content_item")
        .selectAll()
        .where("categorySlug", "=", categorySlug)
        .where("publishedAt", "is not", null);
      if (cursor) {
        query = query.where((eb) =>
          eb(eb.refTuple("publishedAt", "id"), "<", eb.tuple(cursor.publishedAt, cursor.id)),
        );
      }
      const rows = await query
        .orderBy("publishedAt", "desc")
        .orderBy("id", "desc")
        .limit(limit + 1)
        .execute();
      return toPage(rows, limit, fromRow, (r) => ({ publishedAt: r.publishedAt ?? "", id: r.id }));
    },

    async create(input: NewContentItem): Promise<ContentItem> {
      const createdAt = input.createdAt === undefined ? nowIso() : isoInput(input.createdAt, "createdAt");
      try {
        const row = await db
          .insertInto("content_item")
          .values({
            ...toColumns(input),
            id: input.id ?? uuidv7(),
            tier: input.tier,
            createdAt,
            updatedAt: createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await bumpContentRevision(db);
        return fromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "content item");
      }
    },

    async update(id: string, patch: ContentItemPatch): Promise<ContentItem> {
      let row: Row | undefined;
      try {
        row = await db
          .updateTable("content_item")
          .set({ ...toColumns(patch), updatedAt: nowIso() })
          .where("id", "=", id)
          .returningAll()
          .executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "content item");
      }
      if (row) await bumpContentRevision(db);
      if (!row) throw new NotFoundError("content item", id);
      return fromRow(row);
    },

    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("content_item").where("id", "=", id).executeTakeFirst();
      const deleted = Number(result.numDeletedRows) > 0;
      if (deleted) await bumpContentRevision(db);
      return deleted;
    },
  };
}

export type ContentItemRepo = ReturnType<typeof createContentItemRepo>;

/** A row of `content_item` as a domain object (for queries built outside this repository). */
export const contentItemFromRow = fromRow;
