/**
 * The content operations, one set for every channel: pages (React Router loaders), REST
 * (`server/http/content-api.ts`), RSS and the sitemap (`server/http/seo-routes.ts`), search
 * summaries, body links and GraphQL (`server/graphql/models/content.ts`). Every operation takes the
 * actor and applies the rules itself:
 *
 * - visibility: published items for everyone, unpublished ones also for content writers
 *   (`readable-sql.ts`); reader-facing lists ask for published items only (`publishedOnly`);
 * - the body and what follows from it (key, size, checksum, media, links): only for readers who
 *   may read it — one projection, `content-projection.ts`;
 * - API keys and service credentials need `content:read` for every read;
 * - writes (GraphQL, and REST through `content-studio.service.ts`): content writers; anything
 *   published (or becoming so) needs content:publish; a `status` sent with a save is a workflow
 *   transition (decision 017: a future publication time schedules), and every save keeps a version.
 */
import type { Kysely } from "kysely";
import {
  canPublishContent,
  canWriteContent,
  PUBLISHED_STATUS,
  parseTier,
  publicPreviewSource,
  workflowStateOf,
} from "../../../core/index.ts";
import { type Dialect, dialectOf } from "../../db/dialect.ts";
import {
  type FilterFields,
  filterSql,
  parseFilter,
  parseSortKeyCondition,
  sortKeySql,
} from "../../db/filters.ts";
import { keysetPage } from "../../db/keyset-page.ts";
import type { Page } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { BadInputError, ForbiddenError, NotFoundError } from "../../errors.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { signObjectGet, storageActorOf } from "../../storage/sign-object.ts";
import { type Actor, requireReadScope, requireUser } from "../actor.ts";
import { createMediaService, type MediaService } from "../media/media.service.ts";
import { checkStructuredDataMedia, mediaIdOf } from "../media/media-refs.ts";
import { displayNamesByIds } from "../users/display-names.ts";
import { audienceKey, createAudienceCache } from "./audience-cache.ts";
import { ownBodyKey } from "./body-key.ts";
import {
  type Content,
  type ContentPatch,
  type ContentSummaryRow,
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
import type {
  CategoryInfo,
  ContentBodyResult,
  ContentList,
  ContentPage,
  ContentSummary,
  KeyListArgs,
  ListArgs,
  ListContentQuery,
} from "./content.types.ts";
import { createContentBodies } from "./content-bodies.ts";
import { createContentCategoryRepo } from "./content-category.repo.ts";
import { createContentHistoryRepo } from "./content-history.repo.ts";
import {
  type ContentView,
  chooseTemplate,
  contentAccess,
  mayReadBody,
  publicStructuredData,
  summarizeContent,
  viewContent,
} from "./content-projection.ts";
import {
  type AllowedTransition,
  checkCategoryExists,
  decideOrThrow,
  explainConflict,
  refuseWorkflowFields,
  transitionForStatus,
} from "./content-saves.ts";
import { defaultReviewPeriods, type ReviewPeriods } from "./freshness.ts";
import { isVisible, seesUnpublished, visibleSql } from "./readable-sql.ts";
import { type RenderedMarkdown, renderMarkdown } from "./render-markdown.ts";
import { SECTIONS } from "./sections.ts";
import { tierInventory } from "./tier-inventory.ts";

export type { ContentView } from "./content-projection.ts";

/** How a save is made: over REST (`transitionsOnly`) the workflow moves only through transitions. */
export interface SaveOptions {
  transitionsOnly?: boolean;
}

/** A saved row and the body source saved with it (the studio answers both). */
export interface SavedContent {
  item: Content;
  body: string;
}

const RENDER_CACHE_LIMIT = 500;
const CONTENT = "content";

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

export interface ContentServiceDeps {
  db: Kysely<DB>;
  /** Bodies are read from and written to it (decision 011); without it, there are no bodies. */
  storage?: ObjectStore;
  /** The uploaded-media registry structured data may reference (built here when absent). */
  media?: MediaService;
  /** Told about every content write (the search index). */
  hooks?: ContentWriteHooks;
  logger?: { warn(details: object, message: string): void };
  now?: () => number;
  /**
   * Content writes from any process (the polled content revision): the names shown on items
   * (category labels, author names) are dropped when it changes.
   */
  changes?: { subscribe(listener: () => void): () => void; check?(): Promise<void> };
  /** Content writes made by this process (told before the revision poll sees them). */
  localWrites?: { subscribe(listener: () => void): () => void };
  /**
   * The sections' default review periods in days (decision 038), from the live system settings;
   * the catalogue's defaults without.
   */
  reviewPeriods?: ReviewPeriods;
}

/** Cached list pages and single items (per audience and content revision, decision 022). */
const READ_CACHE_LIMIT = 2_000;

/** How long a category label or author name is reused before it is read again (a user rename). */
export const SHOWN_NAMES_TTL_MS = 30_000;
const SHOWN_NAMES_LIMIT = 5_000;

interface VideoData {
  durationS: number;
  chapters: Array<{ atS: number; title: string }>;
  /** Media reference (storage key or https URL), poster and caption tracks of the VideoObject. */
  media: { contentUrl: string | null; poster: string | null; captions: VideoCaption[] };
}

interface VideoCaption {
  contentUrl: string;
  srclang: string;
  label: string;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

/**
 * Reads schema.org VideoObject JSON-LD: duration "PT#H#M#S", chapters (hasPart Clips with
 * startOffset), contentUrl, thumbnailUrl and caption (MediaObject / list with inLanguage).
 */
function videoFrom(item: Content): VideoData | null {
  const data = Array.isArray(item.structuredData) ? item.structuredData[0] : item.structuredData;
  if (data?.["@type"] !== "VideoObject") return null;
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(String(data.duration ?? ""));
  const durationS = m ? Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) : 0;
  const parts = Array.isArray(data.hasPart) ? data.hasPart : [];
  const chapters = parts
    .filter(
      (p): p is { name: string; startOffset: number } => typeof p === "object" && p !== null && "name" in p,
    )
    .map((p) => ({ atS: Number(p.startOffset) || 0, title: String(p.name) }));
  const rawCaptions = Array.isArray(data.caption) ? data.caption : data.caption ? [data.caption] : [];
  const captions = rawCaptions.flatMap((c: unknown): VideoCaption[] => {
    if (typeof c !== "object" || c === null) return [];
    const record = c as Record<string, unknown>;
    const contentUrl = str(record.contentUrl);
    const srclang = str(record.inLanguage) ?? "en";
    if (!contentUrl || !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(srclang)) return [];
    return [{ contentUrl, srclang, label: str(record.name) ?? srclang }];
  });
  const thumbnail = Array.isArray(data.thumbnailUrl) ? data.thumbnailUrl[0] : data.thumbnailUrl;
  return {
    durationS,
    chapters,
    media: { contentUrl: str(data.contentUrl), poster: str(thumbnail), captions },
  };
}

/** A summary shared by every reader of one audience: frozen, with its lists frozen too. */
function freezeSummary(summary: ContentSummary): ContentSummary {
  Object.freeze(summary.tags);
  Object.freeze(summary.rolesRequired);
  return Object.freeze(summary);
}

export function createContentService(deps: ContentServiceDeps) {
  const { db } = deps;
  const repo = createContentRepo(db, deps.hooks);
  const categoryRepo = createContentCategoryRepo(db);
  const dialect: Dialect = dialectOf(db);
  const now = deps.now ?? Date.now;
  const bodies = createContentBodies(deps);
  const media = deps.media ?? createMediaService(deps);
  const warn = (details: object, message: string) => deps.logger?.warn(details, message);
  const renderCache = new Map<string, RenderedMarkdown>();
  const history = createContentHistoryRepo(db);

  /**
   * Names shown on items (category labels by slug, author names by user id), reused for at most
   * SHOWN_NAMES_TTL_MS and dropped at once when any process writes content or categories.
   */
  const shownNames = new Map<string, { value: string | null; at: number }>();
  /**
   * List pages and single items as summaries, per audience (./audience-cache.ts): never per user,
   * so nothing bound to one reader (body links) is stored. Dropped with the content revision.
   */
  const listCache = createAudienceCache<ContentList>({
    max: READ_CACHE_LIMIT,
    ttlMs: SHOWN_NAMES_TTL_MS,
    now,
  });
  const itemCache = createAudienceCache<ContentSummary | null>({
    max: READ_CACHE_LIMIT,
    ttlMs: SHOWN_NAMES_TTL_MS,
    now,
  });
  const dropCached = () => {
    listCache.clear();
    itemCache.clear();
  };
  deps.changes?.subscribe(() => {
    shownNames.clear();
    dropCached();
  });
  deps.localWrites?.subscribe(dropCached);

  async function namesFor(
    prefix: "c:" | "u:",
    keys: readonly string[],
    read: (missing: string[]) => Promise<Map<string, string | null>>,
  ): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    const missing: string[] = [];
    const t = now();
    for (const key of new Set(keys)) {
      const hit = shownNames.get(prefix + key);
      if (hit && t - hit.at < SHOWN_NAMES_TTL_MS) out.set(key, hit.value);
      else missing.push(key);
    }
    if (missing.length === 0) return out;
    const found = await read(missing);
    if (shownNames.size + missing.length > SHOWN_NAMES_LIMIT) shownNames.clear();
    for (const key of missing) {
      const value = found.get(key) ?? null;
      shownNames.set(prefix + key, { value, at: t });
      out.set(key, value);
    }
    return out;
  }

  /** Summaries of rows, with their category labels and author names (read only when not fresh). */
  async function summarizeAll(actor: Actor, items: readonly ContentSummaryRow[]): Promise<ContentSummary[]> {
    if (items.length === 0) return [];
    const [labelOf, authors] = await Promise.all([
      namesFor(
        "c:",
        items.flatMap((i) => (i.categorySlug ? [i.categorySlug] : [])),
        async (slugs) =>
          new Map(
            (
              await db
                .selectFrom("content_category")
                .select(["slug", "label"])
                .where("slug", "in", slugs)
                .execute()
            ).map((c) => [c.slug, c.label]),
          ),
      ),
      namesFor(
        "u:",
        items.flatMap((i) => (i.authorId ? [i.authorId] : [])),
        (ids) => displayNamesByIds(db, ids),
      ),
    ]);
    const freshness = { periods: deps.reviewPeriods ?? defaultReviewPeriods, nowMs: now() };
    return items.map((item) =>
      summarizeContent(
        actor,
        item,
        {
          categoryLabel: item.categorySlug ? (labelOf.get(item.categorySlug) ?? null) : null,
          authorName: item.authorId ? (authors.get(item.authorId) ?? null) : null,
        },
        freshness,
      ),
    );
  }

  async function renderBody(item: Content): Promise<RenderedMarkdown | null> {
    const key = ownBodyKey(item);
    if (!key) return null;
    const cacheKey = `${key}:${item.bodyChecksum ?? `${item.id}:${item.version}`}`;
    const cached = renderCache.get(cacheKey);
    if (cached) return cached;
    if (!deps.storage) return null;
    const object = await deps.storage.get(key);
    if (!object) {
      warn({ contentId: item.id, key }, "content body object missing");
      return null;
    }
    const rendered = await renderMarkdown(new TextDecoder().decode(object.body), { media: media.lookup });
    if (renderCache.size >= RENDER_CACHE_LIMIT) renderCache.delete(renderCache.keys().next().value!);
    renderCache.set(cacheKey, rendered);
    return rendered;
  }

  /**
   * The author-marked public preview of a locked item (core `publicPreviewSource`): only the
   * Markdown before the marker line is rendered, through the same sanitizing pipeline as the body;
   * the rest of the body is read here and never leaves this function. Null without a marker.
   */
  async function renderPreview(item: Content): Promise<string | null> {
    const key = ownBodyKey(item);
    if (!key || !deps.storage) return null;
    const cacheKey = `preview:${key}:${item.bodyChecksum ?? `${item.id}:${item.version}`}`;
    const cached = renderCache.get(cacheKey);
    if (cached) return cached.html || null;
    const object = await deps.storage.get(key);
    if (!object) return null;
    const source = publicPreviewSource(new TextDecoder().decode(object.body));
    const rendered = source
      ? await renderMarkdown(source, { media: media.lookup })
      : { html: "", toc: [], wordCount: 0 };
    if (renderCache.size >= RENDER_CACHE_LIMIT) renderCache.delete(renderCache.keys().next().value!);
    renderCache.set(cacheKey, rendered);
    return rendered.html || null;
  }

  /**
   * A media reference as a URL the reader's browser can load: https URLs as they are, `media:<id>`
   * (and storage keys left in older rows) as signed links (3600 s, never past the session's end),
   * each checked first against the storage path rules for this reader (decision 011); null when
   * it cannot be linked.
   */
  async function mediaUrl(ref: string, actor: Actor): Promise<string | null> {
    if (/^https:\/\//.test(ref)) return ref;
    let key: string | null = ref;
    const mediaId = mediaIdOf(ref);
    if (mediaId) {
      const row = await db
        .selectFrom("media_object")
        .select("key")
        .where("id", "=", mediaId)
        .executeTakeFirst();
      key = row?.key ?? null;
    } else if (/^[a-z]+:/i.test(ref) || ref.startsWith("/")) key = null;
    if (key === null) return null;
    try {
      const reader = storageActorOf(actor.access, actor.tenantId);
      if (!deps.storage) return null;
      const link = await signObjectGet(deps.storage, reader, key, {
        notAfterMs: actor.context.session?.expiresAt,
      });
      return link.url;
    } catch (error) {
      warn(
        { key: ref, err: error instanceof Error ? error.message : String(error) },
        "presigned link generation failed for video media",
      );
      return null;
    }
  }

  /** The video block of a page: media and captions only when the reader may read the item. */
  async function playerFor(
    video: VideoData | null,
    granted: boolean,
    actor: Actor,
  ): Promise<ContentPage["video"]> {
    if (!video) return null;
    // A poster is public artwork when it is an https URL, uploaded media or under media/;
    // otherwise readers only. Either way the path rules decide before anything is signed.
    const posterRef = video.media.poster;
    const posterPublic =
      posterRef !== null &&
      (/^https:\/\//.test(posterRef) || mediaIdOf(posterRef) !== null || posterRef.startsWith("media/"));
    const poster = posterRef && (granted || posterPublic) ? await mediaUrl(posterRef, actor) : null;
    const src = granted && video.media.contentUrl ? await mediaUrl(video.media.contentUrl, actor) : null;
    const tracks =
      src === null
        ? []
        : (
            await Promise.all(
              video.media.captions.map(async (c) => {
                const url = await mediaUrl(c.contentUrl, actor);
                return url ? [{ src: url, srclang: c.srclang, label: c.label }] : [];
              }),
            )
          ).flat();
    return { durationS: video.durationS, chapters: video.chapters, src, poster, tracks };
  }

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

  /** Records an allowed transition of `item` (already stored in its new state) as a workflow event. */
  async function recordTransition(
    executor: Kysely<DB>,
    item: Content,
    change: AllowedTransition,
    actorId: string | null,
    at: Date,
    notes: string | null,
  ) {
    return createContentHistoryRepo(executor).addEvent({
      contentId: item.id,
      action: change.action,
      fromState: change.from,
      toState: change.to,
      actorId,
      at: at.toISOString(),
      notes,
      publishedAt: change.publishedAt ? change.publishedAt.toISOString() : null,
    });
  }

  /** `create`, answering the stored row and the body source saved with it. */
  async function createItem(actor: Actor, input: unknown, options: SaveOptions = {}): Promise<SavedContent> {
    const userId = requireWriter(actor);
    refuseServerChosenFields(input, "input", true);
    refuseWorkflowFields(input, { transitionsOnly: options.transitionsOnly === true, current: null });
    const { body, ...fields } = parseInput(contentCreateSchema, input, "input");
    const at = new Date(now());
    const change = transitionForStatus(actor, "draft", "draft", fields.status, fields.publishedAt, at);
    await checkStructuredDataMedia(actor, fields.structuredData, null, media);
    await checkCategoryExists(db, fields);
    const created = await inTransaction(db, async (trx) => {
      const row = await createContentRepo(trx, deps.hooks).create({
        ...(fields as ContentPatch & { title: string; slug: string }),
        status: change?.status ?? "draft",
        workflowStatus: change?.to ?? "draft",
        ...(change?.publishedAt ? { publishedAt: change.publishedAt } : {}),
        authorId: userId,
        lastEditedBy: userId,
      });
      if (change) await recordTransition(trx, row, change, userId, at, null);
      return row;
    }).catch(async (error) => {
      throw await explainConflict(db, "", error);
    });
    let stored = created;
    if (body !== undefined) {
      try {
        stored = await bodies.write(created, body);
      } catch (error) {
        await repo.delete(created.id);
        throw error;
      }
    }
    await history.addVersion(stored, body ?? "", userId);
    return { item: stored, body: body ?? "" };
  }

  /** `update`, answering the stored row and its body source; `note` is kept with the version. */
  async function updateItem(
    actor: Actor,
    id: string,
    version: number,
    input: unknown,
    options: SaveOptions & { note?: string } = {},
  ): Promise<SavedContent> {
    const userId = requireWriter(actor);
    if (!Number.isSafeInteger(version) || version < 1) {
      throw new BadInputError("version must be the positive whole number last read", {
        field: { version: "expected the positive whole number last read" },
      });
    }
    refuseServerChosenFields(input, "input", true);
    const current = await repo.getById(id);
    if (!isVisible(actor, current)) throw new NotFoundError("content", id);
    refuseWorkflowFields(input, { transitionsOnly: options.transitionsOnly === true, current });
    const { body, ...fields } = parseInput(contentWriteSchema, input, "input");
    const at = new Date(now());
    const from = workflowStateOf(current);
    const givenAt = fields.publishedAt === undefined ? current.publishedAt : fields.publishedAt;
    let change = transitionForStatus(actor, from, current.status, fields.status, givenAt, at);
    if (!change && from === "scheduled" && fields.publishedAt !== undefined) {
      // A new time for a scheduled item reschedules it: the publishers' decision, in the future.
      const same =
        fields.publishedAt !== null &&
        current.publishedAt !== null &&
        new Date(fields.publishedAt).getTime() === new Date(current.publishedAt).getTime();
      if (!same)
        change = decideOrThrow(
          actor,
          from,
          { action: "schedule", at: fields.publishedAt, now: at },
          "publishedAt",
        );
    }
    if (current.status === PUBLISHED_STATUS || change?.to === "published") {
      requirePublisher(actor, "changing published content");
    }
    await checkStructuredDataMedia(actor, fields.structuredData, current.structuredData, media);
    await checkCategoryExists(db, fields);
    // An item written before versions were kept (the demo seed, imports) gets its state before
    // this first save as a version of its own, so the first edit can be undone.
    const baseline = (await history.hasVersions(id)) ? null : await bodies.read(current);
    const updated = await inTransaction(db, async (trx) => {
      const row = await createContentRepo(trx, deps.hooks).update(id, version, {
        ...(fields as ContentPatch),
        ...(change
          ? {
              status: change.status,
              workflowStatus: change.to,
              ...(change.publishedAt ? { publishedAt: change.publishedAt } : {}),
            }
          : {}),
        lastEditedBy: userId,
      });
      if (change) await recordTransition(trx, row, change, userId, at, null);
      return row;
    }).catch(async (error) => {
      throw await explainConflict(db, id, error);
    });
    // The body is the item's own: written at its key, or moved there when tier, category or
    // slug changed (never left readable under a lower tier's path).
    const stored =
      body === undefined
        ? await bodies.follow(current, updated)
        : await bodies.write(updated, body, ownBodyKey(current));
    const source = body ?? (await bodies.read(stored));
    if (baseline !== null)
      await history.addVersion(current, baseline, current.lastEditedBy ?? current.authorId);
    await history.addVersion(stored, source, userId, options.note ?? null);
    return { item: stored, body: source };
  }

  /** The visibility rule as keyset-page conditions. */
  const visibility = (actor: Actor, options?: { notAnIndexKey?: boolean }) => {
    const condition = visibleSql(actor, undefined, options);
    return condition ? [condition] : [];
  };

  return {
    sections: () => [...SECTIONS],

    /** The per-audience read caches' figures (/super-admin/infrastructure). */
    cacheStats: () => ({ lists: listCache.stats(), items: itemCache.stats() }),

    /** Summaries of items read elsewhere (search results): the list shape, with the lock flag. */
    summarize: summarizeAll,

    async categories(): Promise<CategoryInfo[]> {
      const [list, counts] = await Promise.all([
        categoryRepo.list(),
        deps.db
          .selectFrom("content")
          .select(["categorySlug", deps.db.fn.countAll<number>().as("n")])
          .where("status", "=", "published")
          .groupBy("categorySlug")
          .execute(),
      ]);
      const bySlug = new Map(counts.map((c) => [c.categorySlug, Number(c.n)]));
      const sectionOf = new Map(
        (
          await deps.db
            .selectFrom("content")
            .select(["categorySlug", "section"])
            .where("status", "=", "published")
            .groupBy(["categorySlug", "section"])
            .execute()
        ).map((r) => [r.categorySlug, r.section]),
      );
      return list.map((c) => ({
        id: c.id,
        slug: c.slug,
        label: c.label,
        description: c.description,
        defaultTier: parseTier(c.defaultTier) ?? "Free",
        icon: c.icon,
        section: c.section ?? sectionOf.get(c.slug) ?? null,
        itemCount: bySlug.get(c.slug) ?? 0,
      }));
    },

    /**
     * Items for lists (pages, REST, feeds, sitemap), newest published first. Cached per audience
     * and query until content changes (the items are frozen: callers copy, never mutate).
     */
    async list(actor: Actor, query: ListContentQuery): Promise<ContentList> {
      requireReadScope(actor, "content:read");
      const status = query.publishedOnly || !seesUnpublished(actor) ? PUBLISHED_STATUS : null;
      const key = JSON.stringify([
        audienceKey(actor),
        status,
        query.section,
        query.type,
        query.category,
        query.tier,
        query.featured,
        query.indexable === true,
        query.limit,
        query.cursor,
      ]);
      const result = await listCache.get(key, async () => {
        const filter = {
          section: query.section,
          type: query.type,
          categorySlug: query.category,
          tier: query.tier,
          featured: query.featured,
          noindex: query.indexable ? false : undefined,
          status,
        };
        // The featured list's first page is in the administrators' order (featuredOrder, /admin/content).
        const page =
          query.featured && !query.cursor
            ? { items: await repo.listFeaturedSummaries(filter, query.limit), nextCursor: null }
            : await repo.listSummaries(filter, { limit: query.limit, cursor: query.cursor ?? undefined });
        const items = (await summarizeAll(actor, page.items)).map(freezeSummary);
        return { items, nextCursor: page.nextCursor };
      });
      return { items: [...result.items], nextCursor: result.nextCursor };
    },

    /**
     * One item by id or slug, as the content API returns it; null when absent or not visible.
     * Cached per audience like `list`.
     */
    async getItem(actor: Actor, idOrSlug: string): Promise<ContentSummary | null> {
      requireReadScope(actor, "content:read");
      return itemCache.get(JSON.stringify([audienceKey(actor), idOrSlug]), async () => {
        const item = await repo.getSummaryByIdOrSlug(idOrSlug);
        if (!isVisible(actor, item)) return null;
        const summary = (await summarizeAll(actor, [item]))[0];
        return summary ? freezeSummary(summary) : null;
      });
    },

    /** Sizes and hits of the read caches (lists and items), for operations. */
    readCacheStats: () => ({ lists: listCache.stats(), items: itemCache.stats() }),

    /** The raw (markdown) body of a visible item, when the actor may read it. */
    async readBody(actor: Actor, idOrSlug: string): Promise<ContentBodyResult> {
      requireReadScope(actor, "content:read");
      const item = await repo.getByIdOrSlug(idOrSlug);
      if (!isVisible(actor, item)) return { kind: "not-found" };
      if (!mayReadBody(actor, item)) return { kind: "denied" };
      const key = ownBodyKey(item);
      if (!key || !deps.storage) return { kind: "missing-body" };
      const object = await deps.storage.get(key);
      if (!object) {
        warn({ contentId: item.id, key }, "content body object missing");
        return { kind: "missing-body" };
      }
      return {
        kind: "ok",
        text: new TextDecoder().decode(object.body),
        contentType: "text/markdown; charset=utf-8",
        updatedAt: item.updatedAt,
        checksum: item.bodyChecksum,
      };
    },

    /** The content page of a visible item; null when absent or not visible. */
    /**
     * The public page of an item. `readAs` (a writer's "preview as", ./preview-as.ts): the body,
     * paywall, video and lessons are decided for that reader, while whether the item is visible
     * at all is still decided for `actor`.
     */
    async getPage(actor: Actor, slug: string, options: { readAs?: Actor } = {}): Promise<ContentPage | null> {
      requireReadScope(actor, "content:read");
      const item = await repo.getBySlug(slug);
      if (!isVisible(actor, item)) return null;
      const reader = options.readAs ?? actor;
      const gate = contentAccess(reader, item);
      const granted = gate.kind === "granted";
      const rendered = granted ? await renderBody(item) : null;
      // A tier gate may show the author's public preview; a role gate shows nothing of the body.
      const previewHtml =
        !granted && gate.kind !== "role" && item.rolesRequired.length === 0
          ? await renderPreview(item)
          : null;
      // Related items, course lessons and collection members: published ones only.
      const relatedItems = item.related.length
        ? (await Promise.all(item.related.map((s) => repo.getBySlug(s)))).filter(
            (r): r is Content => r !== null && r.status === PUBLISHED_STATUS,
          )
        : [];
      const [summary, ...children] = await summarizeAll(reader, [item, ...relatedItems]);
      return {
        item: summary!,
        seo: {
          title: item.seoTitle ?? item.title,
          description: item.metaDescription ?? item.excerpt,
          canonicalUrl: item.canonicalUrl,
          ogTitle: item.ogTitle,
          ogDescription: item.ogDescription,
          ogImage: item.ogImage ?? item.featuredImage,
          twitterCard: item.twitterCard,
          noindex: item.noindex,
          keywords: item.seoKeywords,
          structuredData: publicStructuredData(item.structuredData, granted),
        },
        template: chooseTemplate(item),
        access: gate,
        html: rendered?.html ?? null,
        previewHtml,
        bodyMissing: granted && ownBodyKey(item) !== null && rendered === null,
        toc: rendered?.toc ?? [],
        children,
        video: await playerFor(videoFrom(item), granted, reader),
      };
    },

    async counts() {
      const [content, cats, users] = await Promise.all([
        repo.count(),
        db.selectFrom("content_category").select(db.fn.countAll<number>().as("n")).executeTakeFirst(),
        db.selectFrom("user").select(db.fn.countAll<number>().as("n")).executeTakeFirst(),
      ]);
      return { content: Number(content), categories: Number(cats?.n ?? 0), users: Number(users?.n ?? 0) };
    },

    async publicCounts() {
      const [content, cats] = await Promise.all([
        repo.count({ status: "published" }),
        db
          .selectFrom("content_category")
          .select(db.fn.countAll<number>().as("n"))
          .where("isActive", "=", true)
          .executeTakeFirst(),
      ]);
      return { content: Number(content), categories: Number(cats?.n ?? 0) };
    },

    /** One item by id; null when absent or not visible to the actor. */
    async get(actor: Actor, id: string): Promise<ContentView | null> {
      requireReadScope(actor, "content:read");
      const item = await repo.getById(id);
      return isVisible(actor, item) ? viewContent(actor, item) : null;
    },

    /** Items by id (the data loaders), visible ones only, in no particular order. */
    async getMany(actor: Actor, ids: readonly string[]): Promise<ContentView[]> {
      requireReadScope(actor, "content:read");
      const items = await repo.getManyByIds(ids);
      return items.filter((i) => isVisible(actor, i)).map((i) => viewContent(actor, i));
    },

    /** listContents: every visible item matching the filter, by id, keyset-paginated. */
    async listFiltered(actor: Actor, args: ListArgs): Promise<Page<ContentView>> {
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
        // the look-up's own index serves it; SQLite would rank (status, publishedAt) the same
        ...visibility(actor, { notAnIndexKey: dialect === "sqlite" && spec.key !== "status" }),
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

    /**
     * Creates an item (a draft unless a publisher sends another `status`: see `transitionForStatus`)
     * and stores its first version. `transitionsOnly` (REST): a `status` other than draft is
     * refused, the workflow moves through transitions.
     */
    async create(actor: Actor, input: unknown, options: SaveOptions = {}): Promise<ContentView> {
      return viewContent(actor, (await createItem(actor, input, options)).item);
    },

    /** Applies `input` when the stored version is still `version`; stale → STALE_VERSION. */
    async update(
      actor: Actor,
      id: string,
      version: number,
      input: unknown,
      options: SaveOptions = {},
    ): Promise<ContentView> {
      return viewContent(actor, (await updateItem(actor, id, version, input, options)).item);
    },

    createItem,
    updateItem,

    /** Deletes an item (at `version` when given); a published one needs content:publish. */
    async delete(actor: Actor, id: string, version?: number | null): Promise<ContentView> {
      requireWriter(actor);
      const current = await repo.getById(id);
      if (!isVisible(actor, current)) throw new NotFoundError("content", id);
      if (current.status === PUBLISHED_STATUS) requirePublisher(actor, "deleting published content");
      const deleted = await repo.delete(id, version ?? undefined).catch(async (error) => {
        throw await explainConflict(db, id, error);
      });
      if (!deleted) throw new NotFoundError("content", id);
      await bodies.removed(current);
      return viewContent(actor, current);
    },

    /**
     * What each tier holds in the published library (counts by type, a few highlights): the
     * pricing page and the plans' unlocks read the same numbers (./tier-inventory.ts).
     */
    tierInventory: () => tierInventory(db),

    /** Display names of content authors (public: shown on every item), by user id. */
    authorNames: (ids: readonly string[]) => displayNamesByIds(db, ids),
  };
}

export type ContentService = ReturnType<typeof createContentService>;
