/**
 * The content operations' shapes as pages, REST, GraphQL, RSS, the sitemap and search read them.
 */
import type { Tier } from "../../../core/index.ts";
import type { SortDirection } from "../../db/keyset-page.ts";

export type ContentType = "article" | "course" | "video" | "markdown" | "category" | "collection";
export type SectionSlug = "ai-education" | "workforce-tools" | "resources" | "ai-news" | "documentation";

export interface SectionInfo {
  slug: SectionSlug;
  label: string;
  description: string;
  path: string;
}

export interface CategoryInfo {
  id: string;
  slug: string;
  label: string;
  description: string | null;
  defaultTier: Tier;
  icon: string | null;
  section: string | null;
  itemCount: number;
}

/** What any reader may see of an item: metadata and excerpt, never the body. */
export interface ContentSummary {
  id: string;
  slug: string;
  title: string;
  type: ContentType;
  templateId: string | null;
  section: string | null;
  categorySlug: string | null;
  categoryLabel: string | null;
  tier: Tier;
  rolesRequired: string[];
  excerpt: string | null;
  tags: string[];
  authorName: string | null;
  publishedAt: string | null;
  updatedAt: string;
  featured: boolean;
  featuredImage: string | null;
  featuredImageAlt: string | null;
  readingMinutes: number | null;
  /** True when the actor may not read the body (tier or role). */
  locked: boolean;
  /** The body's object key: only when the actor may read the body and there is one. */
  bodyS3Key: string | null;
  /** When an editor last marked the item reviewed (decision 038); null: never. */
  lastReviewedAt: string | null;
  /**
   * The effective review-by date: the item's own, else its last review (or publication) plus its
   * section's default period; null: never due.
   */
  reviewBy: string | null;
  /** The review-by date has passed when this summary was made (pages re-check it in the browser). */
  stale: boolean;
}

/** The body of an item for a reader (the body link endpoint). */
export type ContentBodyResult =
  | { kind: "ok"; text: string; contentType: string; updatedAt: string; checksum: string | null }
  | { kind: "not-found" }
  | { kind: "denied" }
  | { kind: "missing-body" };

export interface ContentSeo {
  title: string;
  description: string | null;
  canonicalUrl: string | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImage: string | null;
  twitterCard: string | null;
  noindex: boolean;
  keywords: string[];
  structuredData: unknown;
}

export type ContentAccess =
  | { kind: "granted" }
  | { kind: "signin"; requiredTier: Tier }
  | { kind: "tier"; requiredTier: Tier }
  | { kind: "role"; rolesRequired: string[] };

export interface TocEntry {
  id: string;
  text: string;
  depth: number;
}

export interface ContentPage {
  item: ContentSummary;
  seo: ContentSeo;
  /** Chosen template: templateId, else type, else markdown. */
  template: ContentType;
  access: ContentAccess;
  /** Sanitized HTML of the body: present only when access is granted. */
  html: string | null;
  /**
   * A locked item's author-marked public preview (the body before `<!-- more -->`, core
   * content-preview.ts), sanitized HTML; null when the body is readable, for a role gate, or
   * without a marker. Nothing after the marker is in it.
   */
  previewHtml: string | null;
  /** Access is granted but the body object is missing from storage (the page shows an error). */
  bodyMissing: boolean;
  toc: TocEntry[];
  /** Courses: ordered lessons. Collections: member items. Otherwise related items. */
  children: ContentSummary[];
  video: {
    durationS: number;
    chapters: Array<{ atS: number; title: string }>;
    /** Playable source (signed link or https URL): only when the reader may read the item. */
    src: string | null;
    poster: string | null;
    /** WebVTT caption tracks (only with a source). */
    tracks: Array<{ src: string; srclang: string; label: string }>;
  } | null;
}

export interface ListContentQuery {
  section?: string;
  category?: string;
  tier?: Tier;
  type?: ContentType;
  featured?: boolean;
  /** Only items that may be indexed (not noindex): the sitemap and the feeds. */
  indexable?: boolean;
  /**
   * Published items only, whoever asks: the reader-facing lists (feeds, sitemap, home, sections,
   * categories, the REST list). Without it the visibility rule applies (`readable-sql.ts`).
   */
  publishedOnly?: boolean;
  limit?: number;
  cursor?: string | null;
}

export interface ContentList {
  items: ContentSummary[];
  nextCursor: string | null;
}

/** A data API list's arguments (GraphQL `listContents` and the other models' lists). */
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
