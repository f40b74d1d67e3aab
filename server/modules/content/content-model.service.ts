/**
 * The Content model of the data API (issue 5): get, list (filters in SQL), the six list-by-key
 * queries (each one index range scan), create, update (optimistic concurrency) and delete — every
 * operation taking the actor and applying the data rules of `core/data-rules.ts`:
 *
 * - metadata of published items is readable by everyone (API keys and service credentials need
 *   `content:read`); unpublished items only by those who may write content (filtered in SQL);
 * - the body is never here (it lives in object storage); `bodyS3Key`, `bodySize`, `bodyChecksum`
 *   and media in structuredData
 *   only for readers who may read the body, `reviewerNotes` only for content writers;
 * - writes: content writers; anything published (or becoming so) needs content:publish.
 */
import type { Kysely } from "kysely";
import {
  canAccessContent,
  canPublishContent,
  canSeeUnpublishedContent,
  canWriteContent,
  PUBLISHED_STATUS,
} from "../../../core/index.ts";
import { type Dialect, dialectOf } from "../../db/dialect.ts";
import { BadInputError, ForbiddenError, NotFoundError } from "../../db/errors.ts";
import {
  type FilterFields,
  filterSql,
  parseFilter,
  parseSortKeyCondition,
  sortKeySql,
} from "../../db/filters.ts";
import { keysetPage, type SortDirection } from "../../db/keyset-page.ts";
import type { Page } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { type Actor, requireReadScope, requireUser } from "../actor.ts";
import { createMediaService, type MediaService } from "../media/media.service.ts";
import { checkStructuredDataMedia } from "../media/media-refs.ts";
import { ownBodyKey } from "./body-key.ts";
import {
  type Content,
  type ContentPatch,
  type ContentWriteHooks,
  contentFromRow,
  createContentRepo,
} from "./content.repo.ts";
import {
  contentCreateSchema,
  contentWriteSchema,
  parseInput,
  refuseServerChosenFields,
} from "./content.schemas.ts";
import { publicStructuredData } from "./content.service.ts";
import { createContentBodies } from "./content-bodies.ts";

/** A content record as one reader may see it (fields it may not read are null). */
export type ContentView = Content & {
  /** True when the reader may not read the body (tier or role). */
  locked: boolean;
};

/** Filterable scalar fields of Content (GraphQL `ContentFilter`). */
export const CONTENT_FILTER_FIELDS: FilterFields = {
  id: "string",
  gid: "string",
  tenant: "string",
  type: "string",
  title: "string",
  slug: "string",
  status: "string",
  category: "string",
  categoryId: "string",
  categorySlug: "string",
  categoryTier: "string",
  section: "string",
  taxon: "string",
  tier: "string",
  classification: "string",
  pii: "boolean",
  retention: "string",
  isPublic: "boolean",
  createdAt: "datetime",
  updatedAt: "datetime",
  publishedAt: "datetime",
  eventTime: "datetime",
  createdEpoch: "number",
  updatedEpoch: "number",
  publishedEpoch: "number",
  eventEpoch: "number",
  excerpt: "string",
  schemaType: "string",
  noindex: "boolean",
  authorId: "string",
  version: "number",
  viewCount: "number",
  likeCount: "number",
  shareCount: "number",
  commentCount: "number",
  featured: "boolean",
  featuredOrder: "number",
  workflowStatus: "string",
  templateId: "string",
};

/**
 * The list-by-key queries of spec §3 (Content look-ups): key column, sort column (null: none),
 * and the index that serves them (migration 002).
 */
export const CONTENT_KEY_LISTS = {
  listContentBySlug: { key: "slug", sort: null, index: "content_slug_uidx" },
  listContentByStatusAndUpdatedAt: {
    key: "status",
    sort: "updatedAt",
    index: "content_status_updatedAt_idx",
  },
  listContentByCategoryTierAndPublishedAt: {
    key: "categoryTier",
    sort: "publishedAt",
    index: "content_categoryTier_publishedAt_idx",
  },
  listContentBySectionAndPublishedAt: {
    key: "section",
    sort: "publishedAt",
    index: "content_section_publishedAt_idx",
  },
  listContentByTierAndPublishedAt: {
    key: "tier",
    sort: "publishedAt",
    index: "content_tier_publishedAt_idx",
  },
  listContentByAuthorIdAndUpdatedAt: {
    key: "authorId",
    sort: "updatedAt",
    index: "content_authorId_updatedAt_idx",
  },
} as const satisfies Record<string, { key: string; sort: string | null; index: string }>;
export type ContentKeyList = keyof typeof CONTENT_KEY_LISTS;

export interface ListArgs {
  filter?: unknown;
  limit?: number | null;
  nextToken?: string | null;
}

export interface KeyListArgs {
  key: string;
  /** Sort-key condition (one of eq, lt, le, gt, ge, between, beginsWith). */
  sortKey?: unknown;
  sortDirection?: SortDirection | null;
  limit?: number | null;
  nextToken?: string | null;
}

export interface ContentModelDeps {
  db: Kysely<DB>;
  /** Where bodies are written (decision 011); without it, writes that carry a body are refused. */
  storage?: ObjectStore;
  /** The uploaded-media registry structured data may reference (built here when absent). */
  media?: MediaService;
  hooks?: ContentWriteHooks;
  logger?: { warn(details: object, message: string): void };
  now?: () => number;
}

const CONTENT = "content";

/**
 * The reader's view of a record: body-related fields (its key, size and checksum, media in the
 * structured data) only when readable; a locked record says nothing about its body.
 */
export function viewContent(actor: Actor, item: Content): ContentView {
  const granted = canAccessContent({ minTier: item.tier, rolesRequired: item.rolesRequired }, actor.access);
  return {
    ...item,
    bodyS3Key: granted ? ownBodyKey(item) : null,
    bodySize: granted ? item.bodySize : null,
    bodyChecksum: granted ? item.bodyChecksum : null,
    structuredData: item.structuredData
      ? publicStructuredData(item.structuredData, granted, { forWriter: canWriteContent(actor.access) })
      : null,
    reviewerNotes: canWriteContent(actor.access) ? item.reviewerNotes : null,
    locked: !granted,
  };
}

export function createContentModelService(deps: ContentModelDeps) {
  const { db } = deps;
  const repo = createContentRepo(db, deps.hooks);
  const dialect: Dialect = dialectOf(db);
  const now = deps.now ?? Date.now;
  const bodies = createContentBodies(deps);
  const media = deps.media ?? createMediaService(deps);

  const seesDrafts = (actor: Actor) => canSeeUnpublishedContent(actor.access);
  const visible = (actor: Actor, item: Content | null): item is Content =>
    item !== null && (item.status === PUBLISHED_STATUS || seesDrafts(actor));
  /** The visibility rule in SQL: published only, unless the actor sees drafts. */
  const visibility = (actor: Actor) =>
    seesDrafts(actor)
      ? []
      : [filterSql({ status: "string" }, { status: { eq: PUBLISHED_STATUS } }, { dialect })!];

  function requireWriter(actor: Actor): string {
    const userId = requireUser(actor);
    if (!canWriteContent(actor.access)) {
      throw new ForbiddenError(
        "only content creators, editors, content managers and admins may change content",
      );
    }
    return userId;
  }
  function requirePublisher(actor: Actor, what: string): void {
    if (!canPublishContent(actor.access)) {
      throw new ForbiddenError(`${what} needs the content:publish permission`);
    }
  }

  /** A published item needs a publication time: now, unless the writer gave one. */
  const publishedAtFor = (status: string | undefined, current: string | null | undefined, given: unknown) =>
    status === PUBLISHED_STATUS && !current && !given ? new Date(now()).toISOString() : undefined;

  return {
    /** One item by id; null when absent or not visible to the actor. */
    async get(actor: Actor, id: string): Promise<ContentView | null> {
      requireReadScope(actor, "content:read");
      const item = await repo.getById(id);
      return visible(actor, item) ? viewContent(actor, item) : null;
    },

    /** Items by id (the data loaders), visible ones only, in no particular order. */
    async getMany(actor: Actor, ids: readonly string[]): Promise<ContentView[]> {
      requireReadScope(actor, "content:read");
      const items = await repo.getManyByIds(ids);
      return items.filter((i) => visible(actor, i)).map((i) => viewContent(actor, i));
    },

    /** listContents: every visible item matching the filter, by id, keyset-paginated. */
    async list(actor: Actor, args: ListArgs): Promise<Page<ContentView>> {
      requireReadScope(actor, "content:read");
      const filter = parseFilter(CONTENT_FILTER_FIELDS, args.filter);
      const where = filterSql(CONTENT_FILTER_FIELDS, filter, { dialect });
      const page = await keysetPage(db, {
        table: CONTENT,
        conditions: [...visibility(actor), ...(where ? [where] : [])],
        sortColumn: null,
        limit: args.limit,
        cursor: args.nextToken,
        map: contentFromRow as (row: never) => Content,
      });
      return { items: page.items.map((i) => viewContent(actor, i)), nextCursor: page.nextCursor };
    },

    /**
     * A list-by-key query: rows with `key` = args.key, an optional condition on the sort key,
     * ordered by the sort key (then id) ASC or DESC. Rows without a sort-key value are not in
     * the look-up (like a sparse index). Served by the look-up's index.
     */
    async listByKey(actor: Actor, list: ContentKeyList, args: KeyListArgs): Promise<Page<ContentView>> {
      requireReadScope(actor, "content:read");
      const spec = CONTENT_KEY_LISTS[list];
      if (typeof args.key !== "string" || args.key.length === 0 || args.key.length > 500) {
        throw new BadInputError(`${spec.key} must be a non-empty string of at most 500 characters`);
      }
      const conditions = [
        ...visibility(actor),
        filterSql({ [spec.key]: "string" }, { [spec.key]: { eq: args.key } }, { dialect })!,
      ];
      if (spec.sort) {
        // beginsWith is a prefix of the ISO text (e.g. "2026-03"), so it is compared as a string.
        const raw = args.sortKey as { beginsWith?: unknown } | null | undefined;
        const kind = raw && typeof raw === "object" && raw.beginsWith != null ? "string" : "datetime";
        const condition = parseSortKeyCondition(kind, args.sortKey, spec.sort);
        const sortSql = sortKeySql(spec.sort, kind, condition, { dialect });
        if (sortSql) conditions.push(sortSql);
      } else if (args.sortKey !== undefined && args.sortKey !== null) {
        throw new BadInputError(`${list} has no sort key`);
      }
      const page = await keysetPage(db, {
        table: CONTENT,
        conditions,
        sortColumn: spec.sort,
        direction: args.sortDirection ?? "ASC",
        limit: args.limit,
        cursor: args.nextToken,
        map: contentFromRow as (row: never) => Content,
      });
      return { items: page.items.map((i) => viewContent(actor, i)), nextCursor: page.nextCursor };
    },

    async create(actor: Actor, input: unknown): Promise<ContentView> {
      const userId = requireWriter(actor);
      refuseServerChosenFields(input, "input", true);
      const { body, ...fields } = parseInput(contentCreateSchema, input, "input");
      if (fields.status === PUBLISHED_STATUS) requirePublisher(actor, "creating published content");
      await checkStructuredDataMedia(actor, fields.structuredData, null, media);
      const publishedAt = publishedAtFor(fields.status, null, fields.publishedAt);
      const created = await repo.create({
        ...(fields as ContentPatch & { title: string; slug: string }),
        ...(publishedAt ? { publishedAt } : {}),
        authorId: userId,
        lastEditedBy: userId,
      });
      if (body === undefined) return viewContent(actor, created);
      try {
        return viewContent(actor, await bodies.write(created, body));
      } catch (error) {
        await repo.delete(created.id);
        throw error;
      }
    },

    /** Applies `input` when the stored version is still `version`; stale → ConflictError. */
    async update(actor: Actor, id: string, version: number, input: unknown): Promise<ContentView> {
      const userId = requireWriter(actor);
      if (!Number.isSafeInteger(version) || version < 1) {
        throw new BadInputError("version must be the positive whole number last read");
      }
      refuseServerChosenFields(input, "input", true);
      const { body, ...fields } = parseInput(contentWriteSchema, input, "input");
      const current = await repo.getById(id);
      if (!visible(actor, current)) throw new NotFoundError("content", id);
      if (current.status === PUBLISHED_STATUS || fields.status === PUBLISHED_STATUS) {
        requirePublisher(actor, "changing published content");
      }
      await checkStructuredDataMedia(actor, fields.structuredData, current.structuredData, media);
      const publishedAt = publishedAtFor(fields.status, current.publishedAt, fields.publishedAt);
      const updated = await repo.update(id, version, {
        ...(fields as ContentPatch),
        ...(publishedAt ? { publishedAt } : {}),
        lastEditedBy: userId,
      });
      // The body is the item's own: written at its key, or moved there when tier, category or
      // slug changed (never left readable under a lower tier's path).
      const stored =
        body === undefined
          ? await bodies.follow(current, updated)
          : await bodies.write(updated, body, ownBodyKey(current));
      return viewContent(actor, stored);
    },

    /** Deletes an item (at `version` when given); a published one needs content:publish. */
    async delete(actor: Actor, id: string, version?: number | null): Promise<ContentView> {
      requireWriter(actor);
      const current = await repo.getById(id);
      if (!visible(actor, current)) throw new NotFoundError("content", id);
      if (current.status === PUBLISHED_STATUS) requirePublisher(actor, "deleting published content");
      const deleted = await repo.delete(id, version ?? undefined);
      if (!deleted) throw new NotFoundError("content", id);
      await bodies.removed(current);
      return viewContent(actor, current);
    },

    /** Display names of content authors (public: shown on every item), by user id. */
    async authorNames(ids: readonly string[]): Promise<Map<string, string | null>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("user")
        .select(["id", "displayName", "name"])
        .where("id", "in", [...ids])
        .execute();
      return new Map(rows.map((r) => [r.id, r.displayName ?? r.name ?? null]));
    },
  };
}

export type ContentModelService = ReturnType<typeof createContentModelService>;
