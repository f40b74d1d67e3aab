/**
 * The one projection of a content row for a reader: whether the body is locked for this actor
 * (core `canAccessContent`, tier and roles), and the fields that follow from it — the body's key,
 * size and checksum, media in the structured data, reviewer notes for content writers. The REST
 * `ContentSummary`, the page and the GraphQL `Content` and `ContentItem` are all derived from it.
 *
 * A leaf: it imports types and core rules only, so every content file (and engagement) may use it.
 */
import {
  canAccessContent,
  canWriteContent,
  parseTier,
  requiredTierForContent,
  type Tier,
} from "../../../core/index.ts";
import type { Actor } from "../actor.ts";
import { isStorageRef, mediaIdOf } from "../media/media-refs.ts";
import { ownBodyKey } from "./body-key.ts";
import type { Content, ContentSummaryRow } from "./content.repo.ts";
import type { ContentAccess, ContentSummary, ContentType } from "./content.types.ts";
import type { ContentItem } from "./content-item.repo.ts";
import { defaultReviewPeriods, effectiveReviewBy, isStale, type ReviewPeriods } from "./freshness.ts";

const TEMPLATES: readonly ContentType[] = [
  "article",
  "course",
  "video",
  "markdown",
  "category",
  "collection",
];
const WORDS_PER_MINUTE = 220;
/** Average characters per word in English prose with markdown, for reading time from body size. */
const CHARS_PER_WORD = 6.2;

export function asTemplate(value: string | null | undefined): ContentType | null {
  return value && (TEMPLATES as readonly string[]).includes(value) ? (value as ContentType) : null;
}

/** Spec §2: template by templateId, else contentType, else markdown. */
export function chooseTemplate(item: Pick<Content, "templateId" | "type">): ContentType {
  return asTemplate(item.templateId) ?? asTemplate(item.type) ?? "markdown";
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

/** What the body's rule reads of a row: its tier and the roles it requires. */
export interface BodyGate {
  tier: string;
  rolesRequired: readonly string[];
}

/** True when the actor may read the body behind `gate` (core `canAccessContent`). */
export function mayReadBody(actor: Actor, gate: BodyGate): boolean {
  return canAccessContent({ minTier: gate.tier, rolesRequired: [...gate.rolesRequired] }, actor.access);
}

/** Why the page shows the body or a paywall: granted, sign in, a higher plan, or a role. */
export function contentAccess(actor: Actor, gate: BodyGate): ContentAccess {
  if (mayReadBody(actor, gate)) return { kind: "granted" };
  const fields = { minTier: gate.tier, rolesRequired: [...gate.rolesRequired] };
  const requiredTier = requiredTierForContent(fields);
  if (!actor.access.isAuthenticated) return { kind: "signin", requiredTier };
  if (!canAccessContent({ minTier: gate.tier }, actor.access)) return { kind: "tier", requiredTier };
  return { kind: "role", rolesRequired: [...gate.rolesRequired] };
}

/** A content record as one reader may see it (fields it may not read are null). */
export type ContentView = Content & {
  /** True when the reader may not read the body (tier or role). */
  locked: boolean;
};

/**
 * The reader's view of a record: body-related fields (its key, size and checksum, media in the
 * structured data) only when readable; reviewer notes only for content writers. A locked record
 * says nothing about its body.
 */
export function viewContent(actor: Actor, item: Content): ContentView {
  const granted = mayReadBody(actor, item);
  const writer = canWriteContent(actor.access);
  return {
    ...item,
    bodyS3Key: granted ? ownBodyKey(item) : null,
    bodySize: granted ? item.bodySize : null,
    bodyChecksum: granted ? item.bodyChecksum : null,
    structuredData: item.structuredData
      ? publicStructuredData(item.structuredData, granted, { forWriter: writer })
      : null,
    reviewerNotes: writer ? item.reviewerNotes : null,
    locked: !granted,
  };
}

/** Display names the summary shows next to a row (read per call, never cached per process). */
export interface SummaryNames {
  categoryLabel: string | null;
  authorName: string | null;
}

/**
 * The list shape (REST `ContentSummary`, pages, search results), derived from `viewContent`.
 * The reading time is public (from the body's size), like the excerpt.
 */
export function summarizeContent(
  actor: Actor,
  item: ContentSummaryRow,
  names: SummaryNames,
  freshness: { periods: ReviewPeriods; nowMs: number } = { periods: defaultReviewPeriods, nowMs: Date.now() },
): ContentSummary {
  // The same reading as `viewContent`, on the summary's columns only.
  const granted = mayReadBody(actor, item);
  const tier: Tier = parseTier(item.tier) ?? "Enterprise";
  const reviewBy = effectiveReviewBy(item, freshness.periods);
  return {
    id: item.id,
    slug: item.slug,
    title: item.title,
    type: asTemplate(item.type) ?? "markdown",
    templateId: item.templateId,
    section: item.section,
    categorySlug: item.categorySlug,
    categoryLabel: names.categoryLabel,
    tier,
    rolesRequired: item.rolesRequired,
    excerpt: item.excerpt,
    tags: item.tags,
    authorName: names.authorName,
    publishedAt: item.publishedAt,
    updatedAt: item.updatedAt,
    featured: item.featured,
    featuredImage: item.featuredImage,
    featuredImageAlt: item.featuredImageAlt,
    readingMinutes: item.bodySize
      ? Math.max(1, Math.round(item.bodySize / CHARS_PER_WORD / WORDS_PER_MINUTE))
      : null,
    locked: !granted,
    bodyS3Key: granted ? ownBodyKey(item) : null,
    lastReviewedAt: item.lastReviewedAt,
    reviewBy,
    stale: isStale(reviewBy, freshness.nowMs),
  };
}

export type ContentItemView = ContentItem & { locked: boolean };

/**
 * The reader's view of a ContentItem: the same rule as its content record's — the item's tier and
 * the roles its content record requires (`parentRoles`: an item whose record needs a role the
 * reader lacks is locked). The stored `bodyS3Key` column is never trusted (decision 011): the body
 * is the record's own, resolved through that record (GraphQL `ContentItem.bodyS3Key`).
 */
export function viewContentItem(
  actor: Actor,
  item: ContentItem,
  parentRoles: readonly string[],
): ContentItemView {
  const granted = mayReadBody(actor, { tier: item.tier, rolesRequired: parentRoles });
  return {
    ...item,
    bodyS3Key: null,
    structuredData: item.structuredData ? publicStructuredData(item.structuredData, granted) : null,
    locked: !granted,
  };
}
