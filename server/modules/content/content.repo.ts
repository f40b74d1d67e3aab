/**
 * Content queries. Thin and typed: no access checks here (the service does them); rows come back
 * as domain objects (booleans, parsed JSON, ISO-8601 strings).
 */
import {
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type Selectable,
  sql,
  type Updateable,
} from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import { toJson, toJsonOrNull } from "../../db/json.ts";
import { clampLimit, decodeCursor, type Page, type PageOptions, toPage } from "../../db/pagination.ts";
import type { ContentTable, DB } from "../../db/schema.ts";
import { epochOf, epochOrNull, isoInput, isoInputOrNull, nowIso, toBool } from "../../db/values.ts";
import {
  BadInputError,
  ConflictError,
  DataIntegrityError,
  NotFoundError,
  rethrowConstraintError,
} from "../../errors.ts";
import {
  CONTENT_COUNTERS,
  CONTENT_LIST_FIELDS,
  type ContentCounter,
  contentStringListSchema,
  contentStructuredDataSchema,
  counterDeltasSchema,
  publishedCursorSchema,
  updatedCursorSchema,
} from "./content.schemas.ts";
import { bumpContentRevision } from "./content-revision.ts";

/** schema.org JSON-LD: an object or a list of objects. */
export type StructuredData = z.output<typeof contentStructuredDataSchema>;

/** A content record (spec §3 Content, plus templateId, rolesRequired and bodyFormat). */
export interface Content {
  id: string;
  gid: string | null;
  tenant: string | null;
  type: string;
  title: string;
  slug: string;
  status: string;
  category: string | null;
  categoryId: string | null;
  categorySlug: string | null;
  categoryTier: string | null;
  section: string | null;
  taxon: string | null;
  /** The minimum tier needed to read the body (the product's `minTier`). */
  tier: string;
  classification: string | null;
  pii: boolean;
  retention: string | null;
  isPublic: boolean;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  eventTime: string | null;
  createdEpoch: number;
  updatedEpoch: number;
  publishedEpoch: number | null;
  eventEpoch: number | null;
  bodyS3Key: string | null;
  bodySize: number | null;
  bodyChecksum: string | null;
  bodyFormat: string;
  excerpt: string | null;
  tags: string[];
  aliases: string[];
  audience: string[];
  related: string[];
  seoKeywords: string[];
  seoTitle: string | null;
  metaDescription: string | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImage: string | null;
  twitterCard: string | null;
  schemaType: string | null;
  canonicalUrl: string | null;
  noindex: boolean;
  structuredData: StructuredData | null;
  authorId: string | null;
  lastEditedBy: string | null;
  version: number;
  viewCount: number;
  likeCount: number;
  shareCount: number;
  commentCount: number;
  featured: boolean;
  featuredOrder: number | null;
  featuredImage: string | null;
  featuredImageAlt: string | null;
  workflowStatus: string | null;
  reviewerNotes: string | null;
  templateId: string | null;
  rolesRequired: string[];
  /** The item's own review-by date (decision 038); null: the section's default period applies. */
  reviewBy: string | null;
  /** When an editor last marked the item reviewed, and who (decision 038). */
  lastReviewedAt: string | null;
  lastReviewedBy: string | null;
}

/** The columns a list or search summary needs (content-projection `summarizeContent`). */
export const SUMMARY_COLUMNS = [
  "id",
  "slug",
  "title",
  "type",
  "status",
  "templateId",
  "section",
  "categorySlug",
  "tier",
  "rolesRequired",
  "excerpt",
  "tags",
  "authorId",
  "publishedAt",
  "updatedAt",
  "featured",
  "featuredImage",
  "featuredImageAlt",
  "bodySize",
  "bodyS3Key",
  "reviewBy",
  "lastReviewedAt",
] as const satisfies readonly (keyof Content)[];

/** What lists read of a row: the summary's columns only (never the ~60 of a full record). */
export type ContentSummaryRow = Pick<Content, (typeof SUMMARY_COLUMNS)[number]>;

/** Fields a caller may write (the rest are derived: epochs, version, counters, timestamps). */
export interface ContentFields {
  gid: string | null;
  tenant: string | null;
  type: string;
  title: string;
  slug: string;
  status: string;
  category: string | null;
  categoryId: string | null;
  categorySlug: string | null;
  categoryTier: string | null;
  section: string | null;
  taxon: string | null;
  tier: string;
  classification: string | null;
  pii: boolean;
  retention: string | null;
  isPublic: boolean;
  publishedAt: string | Date | null;
  eventTime: string | Date | null;
  bodyS3Key: string | null;
  bodySize: number | null;
  bodyChecksum: string | null;
  bodyFormat: string;
  excerpt: string | null;
  tags: string[];
  aliases: string[];
  audience: string[];
  related: string[];
  seoKeywords: string[];
  seoTitle: string | null;
  metaDescription: string | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImage: string | null;
  twitterCard: string | null;
  schemaType: string | null;
  canonicalUrl: string | null;
  noindex: boolean;
  structuredData: StructuredData | null;
  authorId: string | null;
  lastEditedBy: string | null;
  featured: boolean;
  featuredOrder: number | null;
  featuredImage: string | null;
  featuredImageAlt: string | null;
  workflowStatus: string | null;
  reviewerNotes: string | null;
  templateId: string | null;
  rolesRequired: string[];
  reviewBy: string | Date | null;
}

export type NewContent = Pick<ContentFields, "title" | "slug"> &
  Partial<Omit<ContentFields, "title" | "slug">> & {
    /** Defaults to a new UUID v7 (seeds pass fixed ids). */
    id?: string;
    /** Defaults to now (seeds pass fixed dates). */
    createdAt?: string | Date;
    /** Defaults to createdAt. */
    updatedAt?: string | Date;
  };

export type ContentPatch = Partial<ContentFields>;

export interface ContentListFilter {
  section?: string;
  /** Content type (article, course, video, markdown, category, collection). */
  type?: string;
  categoryId?: string;
  categorySlug?: string;
  categoryTier?: string;
  /** One tier, or any of several (e.g. the tiers a reader may open). */
  tier?: string | readonly string[];
  featured?: boolean;
  tenant?: string;
  isPublic?: boolean;
  /** false: only items that may be indexed (sitemap, feeds). */
  noindex?: boolean;
  /**
   * Status filter; defaults to "published". Pass null for every status.
   * Items without publishedAt are never listed by these publishedAt-ordered lists.
   */
  status?: string | readonly string[] | null;
}

/** Every field a content write may set (the repository writes nothing else). */
export const WRITABLE_FIELDS = [
  "gid",
  "tenant",
  "type",
  "title",
  "slug",
  "status",
  "category",
  "categoryId",
  "categorySlug",
  "categoryTier",
  "section",
  "taxon",
  "tier",
  "classification",
  "pii",
  "retention",
  "isPublic",
  "publishedAt",
  "eventTime",
  "bodyS3Key",
  "bodySize",
  "bodyChecksum",
  "bodyFormat",
  "excerpt",
  "tags",
  "aliases",
  "audience",
  "related",
  "seoKeywords",
  "seoTitle",
  "metaDescription",
  "ogTitle",
  "ogDescription",
  "ogImage",
  "twitterCard",
  "schemaType",
  "canonicalUrl",
  "noindex",
  "structuredData",
  "authorId",
  "lastEditedBy",
  "featured",
  "featuredOrder",
  "featuredImage",
  "featuredImageAlt",
  "workflowStatus",
  "reviewerNotes",
  "templateId",
  "rolesRequired",
  "reviewBy",
] as const satisfies readonly (keyof ContentFields)[];

const LIST_FIELDS: ReadonlySet<string> = new Set(CONTENT_LIST_FIELDS);

type ContentRow = Selectable<ContentTable>;
type ContentUpdate = Updateable<ContentTable>;

/** Domain fields → column values (JSON validated, datetimes normalised, epochs derived). */
function toColumns(fields: Partial<ContentFields>): ContentUpdate {
  const out: Record<string, unknown> = {};
  for (const key of WRITABLE_FIELDS) {
    const value = fields[key];
    if (value === undefined) continue;
    if (LIST_FIELDS.has(key)) {
      out[key] = toJson(contentStringListSchema, (value ?? []) as string[], key);
    } else if (key === "structuredData") {
      out[key] = toJsonOrNull(contentStructuredDataSchema, value as StructuredData | null, key);
    } else if (key === "publishedAt" || key === "eventTime" || key === "reviewBy") {
      const iso = isoInputOrNull(value as string | Date | null, key);
      out[key] = iso;
      out[`${key === "publishedAt" ? "published" : key === "eventTime" ? "event" : "reviewBy"}Epoch`] =
        epochOrNull(iso);
    } else {
      out[key] = value;
    }
  }
  return out as ContentUpdate;
}

/**
 * A stored string list (JSON text written by `toColumns` after validation): parsed without a schema
 * on the read path, checked only for its shape. NULL reads as an empty list.
 */
function storedList(text: string | null, field: string): string[] {
  if (text === null || text === "[]") return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DataIntegrityError(`stored ${field} is not JSON`, { cause: error });
  }
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new DataIntegrityError(`stored ${field} has an unexpected shape`);
  }
  return value;
}

/** Stored JSON-LD (validated when written): an object or a list of objects, or NULL. */
function storedStructuredData(text: string | null): StructuredData | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DataIntegrityError("stored structuredData is not JSON", { cause: error });
  }
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (value === null) return null;
  if (!isObject(value) && !(Array.isArray(value) && value.every(isObject))) {
    throw new DataIntegrityError("stored structuredData has an unexpected shape");
  }
  return value as StructuredData;
}

type SummaryColumns = Pick<ContentRow, (typeof SUMMARY_COLUMNS)[number]>;

function summaryFromRow(row: SummaryColumns): ContentSummaryRow {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    type: row.type,
    status: row.status,
    templateId: row.templateId,
    section: row.section,
    categorySlug: row.categorySlug,
    tier: row.tier,
    rolesRequired: storedList(row.rolesRequired, "rolesRequired"),
    excerpt: row.excerpt,
    tags: storedList(row.tags, "tags"),
    authorId: row.authorId,
    publishedAt: row.publishedAt,
    updatedAt: row.updatedAt,
    featured: toBool(row.featured),
    featuredImage: row.featuredImage,
    featuredImageAlt: row.featuredImageAlt,
    bodySize: row.bodySize === null ? null : Number(row.bodySize),
    bodyS3Key: row.bodyS3Key,
    reviewBy: row.reviewBy,
    lastReviewedAt: row.lastReviewedAt,
  };
}

function fromRow(row: ContentRow): Content {
  return {
    id: row.id,
    gid: row.gid,
    tenant: row.tenant,
    type: row.type,
    title: row.title,
    slug: row.slug,
    status: row.status,
    category: row.category,
    categoryId: row.categoryId,
    categorySlug: row.categorySlug,
    categoryTier: row.categoryTier,
    section: row.section,
    taxon: row.taxon,
    tier: row.tier,
    classification: row.classification,
    pii: toBool(row.pii),
    retention: row.retention,
    isPublic: toBool(row.isPublic),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    publishedAt: row.publishedAt,
    eventTime: row.eventTime,
    createdEpoch: Number(row.createdEpoch),
    updatedEpoch: Number(row.updatedEpoch),
    publishedEpoch: row.publishedEpoch === null ? null : Number(row.publishedEpoch),
    eventEpoch: row.eventEpoch === null ? null : Number(row.eventEpoch),
    bodyS3Key: row.bodyS3Key,
    bodySize: row.bodySize === null ? null : Number(row.bodySize),
    bodyChecksum: row.bodyChecksum,
    bodyFormat: row.bodyFormat,
    excerpt: row.excerpt,
    tags: storedList(row.tags, "tags"),
    aliases: storedList(row.aliases, "aliases"),
    audience: storedList(row.audience, "audience"),
    related: storedList(row.related, "related"),
    seoKeywords: storedList(row.seoKeywords, "seoKeywords"),
    seoTitle: row.seoTitle,
    metaDescription: row.metaDescription,
    ogTitle: row.ogTitle,
    ogDescription: row.ogDescription,
    ogImage: row.ogImage,
    twitterCard: row.twitterCard,
    schemaType: row.schemaType,
    canonicalUrl: row.canonicalUrl,
    noindex: toBool(row.noindex),
    structuredData: storedStructuredData(row.structuredData),
    authorId: row.authorId,
    lastEditedBy: row.lastEditedBy,
    version: row.version,
    viewCount: row.viewCount,
    likeCount: row.likeCount,
    shareCount: row.shareCount,
    commentCount: row.commentCount,
    featured: toBool(row.featured),
    featuredOrder: row.featuredOrder,
    featuredImage: row.featuredImage,
    featuredImageAlt: row.featuredImageAlt,
    workflowStatus: row.workflowStatus,
    reviewerNotes: row.reviewerNotes,
    templateId: row.templateId,
    rolesRequired: storedList(row.rolesRequired, "rolesRequired"),
    reviewBy: row.reviewBy,
    lastReviewedAt: row.lastReviewedAt,
    lastReviewedBy: row.lastReviewedBy,
  };
}

function applyFilter(eb: ExpressionBuilder<DB, "content">, filter: ContentListFilter) {
  const conditions = [eb("publishedAt", "is not", null)];
  const status = filter.status === undefined ? "published" : filter.status;
  if (typeof status === "string") conditions.push(eb("status", "=", status));
  else if (status !== null) conditions.push(eb("status", "in", [...status]));
  if (filter.section !== undefined) conditions.push(eb("section", "=", filter.section));
  if (filter.type !== undefined) conditions.push(eb("type", "=", filter.type));
  if (filter.categoryId !== undefined) conditions.push(eb("categoryId", "=", filter.categoryId));
  if (filter.categorySlug !== undefined) conditions.push(eb("categorySlug", "=", filter.categorySlug));
  if (filter.categoryTier !== undefined) conditions.push(eb("categoryTier", "=", filter.categoryTier));
  if (typeof filter.tier === "string") conditions.push(eb("tier", "=", filter.tier));
  else if (filter.tier !== undefined) conditions.push(eb("tier", "in", [...filter.tier]));
  if (filter.featured !== undefined) conditions.push(eb("featured", "=", filter.featured));
  if (filter.tenant !== undefined) conditions.push(eb("tenant", "=", filter.tenant));
  if (filter.isPublic !== undefined) conditions.push(eb("isPublic", "=", filter.isPublic));
  if (filter.noindex !== undefined) conditions.push(eb("noindex", "=", filter.noindex));
  return eb.and(conditions);
}

function isEmptyList(value: string | readonly string[] | null | undefined): boolean {
  return Array.isArray(value) && value.length === 0;
}

/** Called after a content row is created, updated or deleted (the search index listens). */
export interface ContentWriteHooks {
  /** `executor` is the repository's own (a transaction when the writer uses one). */
  afterWrite?(change: { kind: "upsert" | "delete"; id: string }, executor: Kysely<DB>): Promise<void>;
}

export function createContentRepo(db: Kysely<DB>, hooks: ContentWriteHooks = {}) {
  async function getById(id: string): Promise<Content | null> {
    const row = await db.selectFrom("content").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async function getBySlug(slug: string): Promise<Content | null> {
    const row = await db.selectFrom("content").selectAll().where("slug", "=", slug).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** The published-ordered list query (see `list`), selecting `columns`. */
  async function listRows<R>(
    filter: ContentListFilter,
    page: PageOptions,
    summaryOnly: boolean,
    map: (row: never) => R,
  ): Promise<Page<R>> {
    const limit = clampLimit(page.limit);
    const cursor = page.cursor ? decodeCursor(publishedCursorSchema, page.cursor) : null;
    if (isEmptyList(filter.tier) || isEmptyList(filter.status)) return { items: [], nextCursor: null };
    const from = db.selectFrom("content");
    let query = (summaryOnly ? from.select(SUMMARY_COLUMNS) : from.selectAll()).where((eb) =>
      applyFilter(eb, filter),
    );
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
    return toPage(rows, limit, map as (row: (typeof rows)[number]) => R, (r) => ({
      publishedAt: r.publishedAt ?? "",
      id: r.id,
    }));
  }

  /** Published-ordered list (publishedAt desc, then id desc), keyset-paginated. */
  const list = (filter: ContentListFilter = {}, page: PageOptions = {}): Promise<Page<Content>> =>
    listRows(filter, page, false, fromRow as (row: never) => Content);

  /** `list` reading the summary columns only (the reader-facing lists). */
  const listSummaries = (
    filter: ContentListFilter = {},
    page: PageOptions = {},
  ): Promise<Page<ContentSummaryRow>> =>
    listRows(filter, page, true, summaryFromRow as (row: never) => ContentSummaryRow);

  /** The featured list's query (see `listFeatured`). */
  async function featuredRows<R>(
    filter: ContentListFilter,
    limit: number | undefined,
    summaryOnly: boolean,
    map: (row: never) => R,
  ): Promise<R[]> {
    if (isEmptyList(filter.tier) || isEmptyList(filter.status)) return [];
    const from = db.selectFrom("content");
    const rows = await (summaryOnly ? from.select(SUMMARY_COLUMNS) : from.selectAll())
      .where((eb) => applyFilter(eb, { ...filter, featured: true }))
      .orderBy(sql`case when ${sql.ref("featuredOrder")} is null then 1 else 0 end`)
      .orderBy("featuredOrder", "asc")
      .orderBy("publishedAt", "desc")
      .orderBy("id", "desc")
      .limit(clampLimit(limit))
      .execute();
    return rows.map(map as (row: (typeof rows)[number]) => R);
  }

  /**
   * The featured items matching `filter` in their featured order (featuredOrder ascending, items
   * without one last, then newest published): one page, no cursor.
   */
  const listFeatured = (filter: ContentListFilter = {}, limit?: number): Promise<Content[]> =>
    featuredRows(filter, limit, false, fromRow as (row: never) => Content);

  /** `listFeatured` reading the summary columns only. */
  const listFeaturedSummaries = (
    filter: ContentListFilter = {},
    limit?: number,
  ): Promise<ContentSummaryRow[]> =>
    featuredRows(filter, limit, true, summaryFromRow as (row: never) => ContentSummaryRow);

  /** Lists ordered by updatedAt desc, then id desc (editor views), keyset-paginated. */
  async function listByUpdated(
    column: "status" | "authorId",
    value: string,
    page: PageOptions,
  ): Promise<Page<Content>> {
    const limit = clampLimit(page.limit);
    const cursor = page.cursor ? decodeCursor(updatedCursorSchema, page.cursor) : null;
    let query = db.selectFrom("content").selectAll().where(column, "=", value);
    if (cursor) {
      query = query.where((eb) =>
        eb(eb.refTuple("updatedAt", "id"), "<", eb.tuple(cursor.updatedAt, cursor.id)),
      );
    }
    const rows = await query
      .orderBy("updatedAt", "desc")
      .orderBy("id", "desc")
      .limit(limit + 1)
      .execute();
    return toPage(rows, limit, fromRow, (r) => ({ updatedAt: r.updatedAt, id: r.id }));
  }

  async function create(input: NewContent): Promise<Content> {
    const createdAt = input.createdAt === undefined ? nowIso() : isoInput(input.createdAt, "createdAt");
    const updatedAt = input.updatedAt === undefined ? createdAt : isoInput(input.updatedAt, "updatedAt");
    const values = {
      ...toColumns(input),
      id: input.id ?? uuidv7(),
      title: input.title,
      slug: input.slug,
      createdAt,
      updatedAt,
      createdEpoch: epochOf(createdAt),
      updatedEpoch: epochOf(updatedAt),
    };
    let row: ContentRow;
    try {
      row = await db.insertInto("content").values(values).returningAll().executeTakeFirstOrThrow();
      await bumpContentRevision(db);
    } catch (error) {
      rethrowConstraintError(error, "content");
    }
    await hooks.afterWrite?.({ kind: "upsert", id: row.id }, db);
    return fromRow(row);
  }

  /**
   * Applies `patch` if the stored version is still `expectedVersion`, bumping the version and
   * updatedAt. A stale version → ConflictError (the stored row is untouched); no row → NotFoundError.
   */
  async function update(id: string, expectedVersion: number, patch: ContentPatch): Promise<Content> {
    const updatedAt = nowIso();
    const set = { ...toColumns(patch), updatedAt, updatedEpoch: epochOf(updatedAt) };
    let row: ContentRow | undefined;
    try {
      row = await db
        .updateTable("content")
        .set(set)
        .set((eb) => ({ version: eb("version", "+", 1) }))
        .where("id", "=", id)
        .where("version", "=", expectedVersion)
        .returningAll()
        .executeTakeFirst();
    } catch (error) {
      rethrowConstraintError(error, "content");
    }
    if (row) {
      await bumpContentRevision(db);
      await hooks.afterWrite?.({ kind: "upsert", id }, db);
      return fromRow(row);
    }
    const current = await db.selectFrom("content").select("version").where("id", "=", id).executeTakeFirst();
    if (!current) throw new NotFoundError("content", id);
    throw new ConflictError("content was changed by someone else; reload and try again", {
      details: { id, expectedVersion, currentVersion: current.version },
    });
  }

  /**
   * Deletes the content (comments and content items cascade). True when a row was deleted. With
   * `expectedVersion`, only that version is deleted: a stale one → ConflictError (nothing deleted).
   */
  async function remove(id: string, expectedVersion?: number): Promise<boolean> {
    let query = db.deleteFrom("content").where("id", "=", id);
    if (expectedVersion !== undefined) query = query.where("version", "=", expectedVersion);
    const result = await query.executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (!deleted && expectedVersion !== undefined) {
      const current = await db
        .selectFrom("content")
        .select("version")
        .where("id", "=", id)
        .executeTakeFirst();
      if (current) {
        throw new ConflictError("content was changed by someone else; reload and try again", {
          details: { id, expectedVersion, currentVersion: current.version },
        });
      }
    }
    if (deleted) {
      await bumpContentRevision(db);
      await hooks.afterWrite?.({ kind: "delete", id }, db);
    }
    return deleted;
  }

  /**
   * Adds the given deltas to the counters atomically (never below zero). Does not touch version
   * or updatedAt. Unknown counter names or non-integer deltas → BadInputError.
   */
  async function incrementCounters(
    id: string,
    deltas: Partial<Record<ContentCounter, number>>,
  ): Promise<void> {
    const parsed = counterDeltasSchema.safeParse(deltas);
    if (!parsed.success) throw new BadInputError("counter deltas are not valid");
    const entries = CONTENT_COUNTERS.flatMap((name) => {
      const delta = parsed.data[name];
      return delta ? [[name, delta] as const] : [];
    });
    if (entries.length === 0) return;
    const result = await db
      .updateTable("content")
      .set(() => {
        const set: Partial<Record<ContentCounter, RawBuilder<number>>> = {};
        for (const [name, delta] of entries) {
          const next = sql<number>`${sql.ref(name)} + ${delta}`;
          set[name] = sql<number>`case when ${next} < 0 then 0 else ${next} end`;
        }
        return set;
      })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFoundError("content", id);
  }

  async function count(filter: { status?: string } = {}): Promise<number> {
    let query = db.selectFrom("content").select((eb) => eb.fn.countAll<number>().as("n"));
    if (filter.status !== undefined) query = query.where("status", "=", filter.status);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  return {
    getById,
    getBySlug,
    /** GET /api/content/{id or slug}: tries the id, then the slug. */
    async getByIdOrSlug(key: string): Promise<Content | null> {
      return (await getById(key)) ?? (await getBySlug(key));
    },
    /** GET /api/content/{id or slug} as a summary: the id, then the slug; summary columns only. */
    async getSummaryByIdOrSlug(key: string): Promise<ContentSummaryRow | null> {
      const row =
        (await db.selectFrom("content").select(SUMMARY_COLUMNS).where("id", "=", key).executeTakeFirst()) ??
        (await db.selectFrom("content").select(SUMMARY_COLUMNS).where("slug", "=", key).executeTakeFirst());
      return row ? summaryFromRow(row) : null;
    },
    /** Summaries of the given ids (search results), in no particular order. */
    async getSummariesByIds(ids: readonly string[]): Promise<ContentSummaryRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom("content")
        .select(SUMMARY_COLUMNS)
        .where("id", "in", [...ids])
        .execute();
      return rows.map(summaryFromRow);
    },
    async getManyByIds(ids: readonly string[]): Promise<Content[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom("content")
        .selectAll()
        .where("id", "in", [...ids])
        .execute();
      return rows.map(fromRow);
    },
    list,
    listSummaries,
    listFeatured,
    listFeaturedSummaries,
    listBySection: (section: string, page: PageOptions = {}, filter: ContentListFilter = {}) =>
      list({ ...filter, section }, page),
    listByCategoryTier: (categoryTier: string, page: PageOptions = {}, filter: ContentListFilter = {}) =>
      list({ ...filter, categoryTier }, page),
    listByTier: (tier: string, page: PageOptions = {}, filter: ContentListFilter = {}) =>
      list({ ...filter, tier }, page),
    /** listContentByStatusAndUpdatedAt: updatedAt desc, then id desc. */
    listByStatus: (status: string, page: PageOptions = {}) => listByUpdated("status", status, page),
    /** Content by one author: updatedAt desc, then id desc. */
    listByAuthor: (authorId: string, page: PageOptions = {}) => listByUpdated("authorId", authorId, page),
    create,
    update,
    delete: remove,
    incrementCounters,
    count,
  };
}

export type ContentRepo = ReturnType<typeof createContentRepo>;

/** A row of `content` as a domain object (for queries built outside this repository). */
export const contentFromRow = fromRow;
