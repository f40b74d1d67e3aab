import type { Kysely } from "kysely";
import type { Logger } from "pino";
import {
  type AccessContext,
  canAccessContent,
  parseTier,
  requiredTierForContent,
  type Tier,
} from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { signObjectGet, storageActorOf } from "../../storage/sign-object.ts";
import type { Actor } from "../actor.ts";
import { isStorageRef, mediaIdOf } from "../media/media-refs.ts";
import { ownBodyKey } from "./body-key.ts";
import { type Content, type ContentWriteHooks, createContentRepo } from "./content.repo.ts";
import type {
  CategoryInfo,
  ContentAccess,
  ContentBodyResult,
  ContentList,
  ContentPage,
  ContentService,
  ContentSummary,
  ContentType,
  ListContentQuery,
} from "./content.types.ts";
import { createContentCategoryRepo } from "./content-category.repo.ts";
import { type RenderedMarkdown, renderMarkdown } from "./render-markdown.ts";
import { SECTIONS } from "./sections.ts";

const TEMPLATES: readonly ContentType[] = [
  "article",
  "course",
  "video",
  "markdown",
  "category",
  "collection",
];
const RENDER_CACHE_LIMIT = 500;
const WORDS_PER_MINUTE = 220;
/** Average characters per word in English prose with markdown, for reading time from body size. */
const CHARS_PER_WORD = 6.2;

export interface ContentServiceDeps {
  db: Kysely<DB>;
  storage: ObjectStore;
  logger: Logger;
  /** Told about every content write (the search index). */
  hooks?: ContentWriteHooks;
}

const MEDIA_FIELDS = ["contentUrl", "embedUrl", "caption", "transcript", "associatedMedia"];

/**
 * The item's JSON-LD as pages may publish it: media fields (contentUrl, embedUrl, caption,
 * transcript, associatedMedia) removed for readers who may not read the item, and storage keys
 * and `media:<id>` references (not URLs) removed for everyone, wherever they are: the player
 * resolves them to signed links instead, after the storage path rules (decision 011).
 */
export function publicStructuredData<T>(data: T, granted: boolean, options: { forWriter?: boolean } = {}): T {
  // Content writers who may read the item keep `media:<id>` references (ids, never keys) so an
  // edit can send them back.
  const keepRef = (v: string) => granted && options.forWriter === true && mediaIdOf(v) !== null;
  const drop = (v: unknown) => typeof v === "string" && isStorageRef(v) && !keepRef(v);
  const clean = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.filter((v) => !drop(v)).map(clean);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (drop(value)) continue;
      const link = typeof value === "string" && (/^https:\/\//.test(value) || keepRef(value));
      if (key === "thumbnailUrl" && typeof value === "string" && !link) continue;
      if (MEDIA_FIELDS.includes(key)) {
        if (!granted) continue;
        if (typeof value === "string" && !link) continue;
        if ((key === "caption" || key === "associatedMedia") && !options.forWriter) continue;
      }
      out[key] = clean(value);
    }
    return out;
  };
  return clean(data) as T;
}

function asTemplate(value: string | null | undefined): ContentType | null {
  return value && (TEMPLATES as readonly string[]).includes(value) ? (value as ContentType) : null;
}

/** Spec §2: template by templateId, else contentType, else markdown. */
export function chooseTemplate(item: Pick<Content, "templateId" | "type">): ContentType {
  return asTemplate(item.templateId) ?? asTemplate(item.type) ?? "markdown";
}

function accessFor(item: Content, access: AccessContext): ContentAccess {
  const fields = { minTier: item.tier, rolesRequired: item.rolesRequired };
  if (canAccessContent(fields, { tier: access.tier, roles: access.roles })) return { kind: "granted" };
  const requiredTier = requiredTierForContent(fields);
  const tierOk = canAccessContent({ minTier: item.tier }, { tier: access.tier, roles: access.roles });
  if (!access.isAuthenticated) return { kind: "signin", requiredTier };
  if (!tierOk) return { kind: "tier", requiredTier };
  return { kind: "role", rolesRequired: item.rolesRequired };
}

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

export function createContentService(deps: ContentServiceDeps) {
  const repo = createContentRepo(deps.db, deps.hooks);
  const categories = createContentCategoryRepo(deps.db);
  const renderCache = new Map<string, RenderedMarkdown>();
  const authorNames = new Map<string, string | null>();

  async function authorName(authorId: string | null): Promise<string | null> {
    if (!authorId) return null;
    if (authorNames.has(authorId)) return authorNames.get(authorId) ?? null;
    const row = await deps.db
      .selectFrom("user")
      .select(["displayName", "name"])
      .where("id", "=", authorId)
      .executeTakeFirst();
    const name = row ? (row.displayName ?? row.name) : null;
    if (authorNames.size > 1000) authorNames.clear();
    authorNames.set(authorId, name);
    return name;
  }

  let categoryLabels: Map<string, string> | null = null;
  async function categoryLabel(slug: string | null): Promise<string | null> {
    if (!slug) return null;
    if (!categoryLabels?.has(slug)) {
      categoryLabels = new Map(
        (await categories.list({ includeInactive: true })).map((c) => [c.slug, c.label]),
      );
    }
    return categoryLabels.get(slug) ?? null;
  }

  async function summarize(item: Content, access: AccessContext): Promise<ContentSummary> {
    const tier: Tier = parseTier(item.tier) ?? "Enterprise";
    const locked = accessFor(item, access).kind !== "granted";
    return {
      id: item.id,
      slug: item.slug,
      title: item.title,
      type: asTemplate(item.type) ?? "markdown",
      templateId: item.templateId,
      section: item.section,
      categorySlug: item.categorySlug,
      categoryLabel: await categoryLabel(item.categorySlug),
      tier,
      rolesRequired: item.rolesRequired,
      excerpt: item.excerpt,
      tags: item.tags,
      authorName: await authorName(item.authorId),
      publishedAt: item.publishedAt,
      updatedAt: item.updatedAt,
      featured: item.featured,
      featuredImage: item.featuredImage,
      featuredImageAlt: item.featuredImageAlt,
      readingMinutes: item.bodySize
        ? Math.max(1, Math.round(item.bodySize / CHARS_PER_WORD / WORDS_PER_MINUTE))
        : null,
      locked,
      bodyS3Key: locked ? null : ownBodyKey(item),
    };
  }

  async function renderBody(item: Content): Promise<RenderedMarkdown | null> {
    const key = ownBodyKey(item);
    if (!key) return null;
    const cacheKey = `${key}:${item.bodyChecksum ?? `${item.id}:${item.version}`}`;
    const cached = renderCache.get(cacheKey);
    if (cached) return cached;
    const object = await deps.storage.get(key);
    if (!object) {
      deps.logger.warn({ contentId: item.id, key }, "content body object missing");
      return null;
    }
    const rendered = await renderMarkdown(new TextDecoder().decode(object.body));
    if (renderCache.size >= RENDER_CACHE_LIMIT) renderCache.delete(renderCache.keys().next().value!);
    renderCache.set(cacheKey, rendered);
    return rendered;
  }

  const isReadable = (item: Content | null): item is Content => item !== null && item.status === "published";

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
      const row = await deps.db
        .selectFrom("media_object")
        .select("key")
        .where("id", "=", mediaId)
        .executeTakeFirst();
      key = row?.key ?? null;
    } else if (/^[a-z]+:/i.test(ref) || ref.startsWith("/")) key = null;
    if (key === null) return null;
    try {
      const reader = storageActorOf(actor.access, actor.tenantId);
      const link = await signObjectGet(deps.storage, reader, key, {
        notAfterMs: actor.context.session?.expiresAt,
      });
      return link.url;
    } catch (error) {
      deps.logger.warn(
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

  const service: ContentService & {
    /** All records (platform administrators' view). */
    counts(): Promise<{ content: number; categories: number; users: number }>;
    /** What visitors may see anyway: published items and active categories. */
    publicCounts(): Promise<{ content: number; categories: number }>;
    summarize(actor: Actor, items: readonly Content[]): Promise<ContentSummary[]>;
  } = {
    sections: () => [...SECTIONS],

    /** Summaries of items read elsewhere (search results): the list shape, with the lock flag. */
    summarize(actor, items) {
      const access = actor.access;
      return Promise.all(items.map((i) => summarize(i, access)));
    },

    async categories(): Promise<CategoryInfo[]> {
      const [list, counts] = await Promise.all([
        categories.list(),
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
        section: sectionOf.get(c.slug) ?? null,
        itemCount: bySlug.get(c.slug) ?? 0,
      }));
    },

    async list(actor: Actor, query: ListContentQuery): Promise<ContentList> {
      const access = actor.access;
      const page = await repo.list(
        {
          section: query.section,
          type: query.type,
          categorySlug: query.category,
          tier: query.tier,
          featured: query.featured,
          noindex: query.indexable ? false : undefined,
        },
        { limit: query.limit, cursor: query.cursor ?? undefined },
      );
      let items = page.items;
      if (query.featured)
        items = [...items].sort((a, b) => (a.featuredOrder ?? 999) - (b.featuredOrder ?? 999));
      return {
        items: await Promise.all(items.map((i) => summarize(i, access))),
        nextCursor: page.nextCursor,
      };
    },

    async getItem(actor: Actor, idOrSlug: string): Promise<ContentSummary | null> {
      const item = await repo.getByIdOrSlug(idOrSlug);
      return isReadable(item) ? summarize(item, actor.access) : null;
    },

    async readBody(actor: Actor, idOrSlug: string): Promise<ContentBodyResult> {
      const item = await repo.getByIdOrSlug(idOrSlug);
      if (!isReadable(item)) return { kind: "not-found" };
      if (accessFor(item, actor.access).kind !== "granted") return { kind: "denied" };
      const key = ownBodyKey(item);
      if (!key) return { kind: "missing-body" };
      const object = await deps.storage.get(key);
      if (!object) {
        deps.logger.warn({ contentId: item.id, key }, "content body object missing");
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

    async getPage(actor: Actor, slug: string): Promise<ContentPage | null> {
      const item = await repo.getBySlug(slug);
      if (!isReadable(item)) return null;
      const access = actor.access;
      const gate = accessFor(item, access);
      const rendered = gate.kind === "granted" ? await renderBody(item) : null;
      const relatedItems = item.related.length
        ? (await Promise.all(item.related.map((s) => repo.getBySlug(s)))).filter(isReadable)
        : [];
      const summary = await summarize(item, access);
      return {
        item: summary,
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
          structuredData: publicStructuredData(item.structuredData, gate.kind === "granted"),
        },
        template: chooseTemplate(item),
        access: gate,
        html: rendered?.html ?? null,
        bodyMissing: gate.kind === "granted" && ownBodyKey(item) !== null && rendered === null,
        toc: rendered?.toc ?? [],
        children: await Promise.all(relatedItems.map((r) => summarize(r, access))),
        video: await playerFor(videoFrom(item), gate.kind === "granted", actor),
      };
    },

    async counts() {
      const [content, cats, users] = await Promise.all([
        repo.count(),
        deps.db
          .selectFrom("content_category")
          .select(deps.db.fn.countAll<number>().as("n"))
          .executeTakeFirst(),
        deps.db.selectFrom("user").select(deps.db.fn.countAll<number>().as("n")).executeTakeFirst(),
      ]);
      return { content: Number(content), categories: Number(cats?.n ?? 0), users: Number(users?.n ?? 0) };
    },

    async publicCounts() {
      const [content, cats] = await Promise.all([
        repo.count({ status: "published" }),
        deps.db
          .selectFrom("content_category")
          .select(deps.db.fn.countAll<number>().as("n"))
          .where("isActive", "=", true)
          .executeTakeFirst(),
      ]);
      return { content: Number(content), categories: Number(cats?.n ?? 0) };
    },
  };
  return service;
}
