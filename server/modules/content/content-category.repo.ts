/**
 * Content categories (spec §3 ContentCategory).
 */
import type { Kysely, Selectable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { ContentCategoryTable, DB } from "../../db/schema.ts";
import { definedOnly, isoInput, nowIso, toBool } from "../../db/values.ts";
import { NotFoundError, rethrowConstraintError } from "../../errors.ts";
import { bumpContentRevision } from "./content-revision.ts";

export interface ContentCategory {
  id: string;
  slug: string;
  label: string;
  description: string | null;
  defaultTier: string | null;
  icon: string | null;
  s3Prefix: string | null;
  isActive: boolean;
  /** Readers' order (migration 028): lower first, then label. */
  sortOrder: number;
  /** The section an administrator filed it under; null: the section of its items. */
  section: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ContentCategoryFields {
  slug: string;
  label: string;
  description: string | null;
  defaultTier: string | null;
  icon: string | null;
  s3Prefix: string | null;
  isActive: boolean;
  sortOrder: number;
  section: string | null;
}

export type NewContentCategory = Pick<ContentCategoryFields, "slug" | "label"> &
  Partial<Omit<ContentCategoryFields, "slug" | "label">> & {
    id?: string;
    createdAt?: string | Date;
  };

export type ContentCategoryPatch = Partial<ContentCategoryFields>;

function fromRow(row: Selectable<ContentCategoryTable>): ContentCategory {
  return {
    id: row.id,
    slug: row.slug,
    label: row.label,
    description: row.description,
    defaultTier: row.defaultTier,
    icon: row.icon,
    s3Prefix: row.s3Prefix,
    isActive: toBool(row.isActive),
    sortOrder: Number(row.sortOrder ?? 0),
    section: row.section ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function pickFields(input: Partial<ContentCategoryFields>): Partial<ContentCategoryFields> {
  return definedOnly({
    slug: input.slug,
    label: input.label,
    description: input.description,
    defaultTier: input.defaultTier,
    icon: input.icon,
    s3Prefix: input.s3Prefix,
    isActive: input.isActive,
    sortOrder: input.sortOrder,
    section: input.section,
  });
}

export function createContentCategoryRepo(db: Kysely<DB>) {
  return {
    async getById(id: string): Promise<ContentCategory | null> {
      const row = await db.selectFrom("content_category").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    async getBySlug(slug: string): Promise<ContentCategory | null> {
      const row = await db
        .selectFrom("content_category")
        .selectAll()
        .where("slug", "=", slug)
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    /** Every category in readers' order (sortOrder, label, slug); only active ones unless `includeInactive`. */
    async list(options: { includeInactive?: boolean } = {}): Promise<ContentCategory[]> {
      let query = db.selectFrom("content_category").selectAll();
      if (!options.includeInactive) query = query.where("isActive", "=", true);
      const rows = await query.orderBy("sortOrder").orderBy("label").orderBy("slug").execute();
      return rows.map(fromRow);
    },

    async create(input: NewContentCategory): Promise<ContentCategory> {
      const createdAt = input.createdAt === undefined ? nowIso() : isoInput(input.createdAt, "createdAt");
      try {
        const row = await db
          .insertInto("content_category")
          .values({
            ...pickFields(input),
            id: input.id ?? uuidv7(),
            slug: input.slug,
            label: input.label,
            createdAt,
            updatedAt: createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await bumpContentRevision(db);
        return fromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "content category");
      }
    },

    async update(id: string, patch: ContentCategoryPatch): Promise<ContentCategory> {
      let row: Selectable<ContentCategoryTable> | undefined;
      try {
        row = await db
          .updateTable("content_category")
          .set({ ...pickFields(patch), updatedAt: nowIso() })
          .where("id", "=", id)
          .returningAll()
          .executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "content category");
      }
      if (row) await bumpContentRevision(db);
      if (!row) throw new NotFoundError("content category", id);
      return fromRow(row);
    },

    /** Deletes the category; content keeps its rows with categoryId set to null. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("content_category").where("id", "=", id).executeTakeFirst();
      const deleted = Number(result.numDeletedRows) > 0;
      if (deleted) await bumpContentRevision(db);
      return deleted;
    },
  };
}

export type ContentCategoryRepo = ReturnType<typeof createContentCategoryRepo>;

/** A row of `content_category` as a domain object (for queries built outside this repository). */
export const contentCategoryFromRow = fromRow;
