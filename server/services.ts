/**
 * The operations the pages (React Router loaders), REST and GraphQL call. Every operation
 * takes the actor (the server-built user context) and applies the access rules itself:
 * callers never filter or hide things on their own.
 *
 * This file holds the contract only (types); `server/app-services.ts` builds the instance.
 */
import type { Tier, UserContext } from "../core/index.ts";
import type { CommentsService } from "./modules/comments/comments.service.ts";
import type { ContentModelServices } from "./modules/content/content-models.ts";
import type { EngagementService } from "./modules/engagement/engagement.service.ts";
import type { OrganizationsService } from "./modules/organizations/organizations.service.ts";
import type { RepositoriesService } from "./modules/repositories/repositories.service.ts";
import type { SearchService } from "./modules/search/search.service.ts";
import type { SubscriptionsService } from "./modules/subscriptions/subscriptions.service.ts";
import type { ProfileService } from "./modules/users/profile.service.ts";
import type { UsersService } from "./modules/users/users.service.ts";

export type {
  SearchField,
  SearchQuery,
  SearchResultItem,
  SearchResults,
  SearchService,
  SnippetPart,
} from "./modules/search/search.service.ts";

export type Actor = UserContext;

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
  limit?: number;
  cursor?: string | null;
}

export interface ContentList {
  items: ContentSummary[];
  nextCursor: string | null;
}

export interface ContentService {
  sections(): SectionInfo[];
  categories(): Promise<CategoryInfo[]>;
  list(actor: Actor, query: ListContentQuery): Promise<ContentList>;
  /** null when no published item has this slug. */
  getPage(actor: Actor, slug: string): Promise<ContentPage | null>;
  /** One item by id or slug, as the content API returns it; null when absent. */
  getItem(actor: Actor, idOrSlug: string): Promise<ContentSummary | null>;
  /** The raw (markdown) body of a published item, when the actor may read it. */
  readBody(actor: Actor, idOrSlug: string): Promise<ContentBodyResult>;
}

export interface ComponentHealth {
  ok: boolean;
  latencyMs: number;
  kind: string;
  error?: string;
}

export interface Health {
  status: "ok" | "degraded";
  version: string;
  uptimeS: number;
  db: ComponentHealth;
  storage: ComponentHealth;
}

/** Public diagnostics (/admin-debug, /health-check): shapes and health, never secrets or personal data. */
/**
 * Diagnostics. The public reading (`/admin-debug`, `/health-check`) counts published items and
 * active categories only and names no runtime detail (Node version, platform) an attacker could
 * fingerprint; the internal reading (the admin screens, behind the route guard) adds those and
 * counts all records.
 */
export interface Diagnostics extends Health {
  environment: string;
  startedAt: string;
  routeCount: number;
  featureFlags: Record<string, boolean>;
  configuration: Array<{ name: string; value: string }>;
  counts: { content: number; categories: number; users?: number };
  /** Internal reading only. */
  node?: string;
  /** Internal reading only. */
  platform?: string;
}

export interface DiagnosticsService {
  health(): Promise<Health>;
  /** `reading: "public"` for the public pages; the internal reading (default) for admin screens. */
  diagnostics(options?: { reading?: "public" | "internal" }): Promise<Diagnostics>;
  /** The internal reading for an admin screen: platform administrators only (admin scope "platform"). */
  adminDiagnostics(actor: Actor): Promise<Diagnostics>;
}

export interface PublicConfig {
  productName: string;
  tagline: string;
  /** Absolute base URL of the site without a trailing slash (PUBLIC_URL, else derived from HOST and PORT). */
  publicUrl: string;
  version: string;
  environment: string;
  featureFlags: Record<string, boolean>;
}

export interface AppServices {
  config: PublicConfig;
  content: ContentService;
  diagnostics: DiagnosticsService;
  /** Organisations: details, members, invitations (access checked in the service). */
  organizations: OrganizationsService;
  /** The signed-in user's own profile, avatar, export and deletion. */
  profile: ProfileService;
  /** Full-text search over published content (locked items match on metadata only). */
  search: SearchService;
  /** Views, likes, shares and course progress (access checked in the service). */
  engagement: EngagementService;
  /** Data API (docs/decisions/007-data-rules.md): UserSubscription, access checked per operation. */
  subscriptions: SubscriptionsService;
  /** Data API: User rows (public profiles for others; own row; platform admins). */
  users: UsersService;
  /** Data API: comments, readable with the content they belong to. */
  comments: CommentsService;
  /** Data API: the repository browser's six models, public reads, admin writes. */
  repositories: RepositoriesService;
  /** The content models of the data API: Content, ContentCategory, ContentItem (access checked). */
  contentModels: ContentModelServices;
}
