/**
 * The operations the pages (React Router loaders), REST and GraphQL call, as one interface.
 * Every operation takes the actor (`server/modules/actor.ts`, built once per request by
 * identity) and applies the access rules itself: callers never filter or hide things on their own.
 *
 * This file assembles the contract only (types owned by the modules); `server/runtime.ts`
 * builds the instance. Modules never import this file.
 */
import type { AnalyticsService } from "./modules/analytics/analytics.service.ts";
import type { AuditLogService } from "./modules/audit/audit-log.service.ts";
import type { BillingService } from "./modules/billing/billing.service.ts";
import type { PlansService } from "./modules/billing/plans.service.ts";
import type { CommentsService } from "./modules/comments/comments.service.ts";
import type { ContentService } from "./modules/content/content.service.ts";
import type { ContentModelServices } from "./modules/content/content-models.ts";
import type { StudioListService } from "./modules/content/content-studio-list.ts";
import type { DashboardService } from "./modules/dashboard/dashboard.service.ts";
import type { DiagnosticsService } from "./modules/diagnostics/diagnostics.types.ts";
import type { EngagementService } from "./modules/engagement/engagement.service.ts";
import type { CertificatesService } from "./modules/learning/certificates.service.ts";
import type { ReportsService } from "./modules/learning/reports.service.ts";
import type { ModerationService } from "./modules/moderation/moderation.service.ts";
import type { NotificationsService } from "./modules/notifications/notifications.service.ts";
import type { OperationsService } from "./modules/operations/operations.service.ts";
import type { OrganizationsService } from "./modules/organizations/organizations.service.ts";
import type { RepositoriesService } from "./modules/repositories/repositories.service.ts";
import type { SearchService } from "./modules/search/search.service.ts";
import type { SecurityAdminService } from "./modules/security-admin/security-admin.service.ts";
import type { SettingsService } from "./modules/settings/settings.service.ts";
import type { SubscriptionsService } from "./modules/subscriptions/subscriptions.service.ts";
import type { ProfileService } from "./modules/users/profile.service.ts";
import type { UsersService } from "./modules/users/users.service.ts";
import type { UsersAdminService } from "./modules/users-admin/users-admin.service.ts";
import type { WebhooksService } from "./modules/webhooks/webhooks.service.ts";

export type { Actor } from "./modules/actor.ts";
export type * from "./modules/content/content.types.ts";
export type * from "./modules/content/studio.types.ts";
export type * from "./modules/diagnostics/diagnostics.types.ts";
export type * from "./modules/media/media.types.ts";
export type {
  SearchField,
  SearchQuery,
  SearchResultItem,
  SearchResults,
  SearchService,
  SnippetPart,
} from "./modules/search/search.service.ts";

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
  /** Plans as data: offered plans, what each unlocks, platform admins' edits (decision 019). */
  plans: PlansService;
  /** Views, likes, shares and course progress (access checked in the service). */
  engagement: EngagementService;
  /** The reader's dashboard, bookmarks and reading time (own rows only, signed-in readers). */
  dashboard: DashboardService;
  /** Course completion rules, certificates and their verification (server/modules/learning). */
  certificates: CertificatesService;
  /** A reader's own reading reports (Basic and up). */
  reports: ReportsService;
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
  /** The content studio's management table: every item in every workflow state, writers only. */
  studioList: StudioListService;
  /** System settings and feature flags (issue 14): platform admins read, the owner changes; live in every process. */
  settings: SettingsService;
  /** Subscriptions and billing (decision 019): checkout, plan changes, seats, invoices, webhooks. */
  billing: BillingService;
  /** The audit log for platform administrators: filters, paging, export (/admin/logs). */
  audit: AuditLogService;
  /** The /moderate console: comment queues and actions, commenter restrictions, the review queue. */
  moderation: ModerationService;
  /** Users administration (/admin/users): list, user page, groups, sessions, MFA, keys, suspend, delete. */
  usersAdmin: UsersAdminService;
  /** Processes, jobs, migrations, tables, integrity check and backup: the platform owner only (issue 14). */
  operations: OperationsService;
  /** Analytics and the overview figures for platform administrators (/admin/analytics, /admin/overview). */
  analytics: AnalyticsService;
  /** The platform owner's security console: sessions, lockouts, MFA adoption, events, service credentials. */
  securityAdmin: SecurityAdminService;
  /** E-mail notification opt-ins, followed sections and the signed unsubscribe (issue 15). */
  notifications: NotificationsService;
  /** Webhook endpoints, their signing secrets and delivery log (/admin/webhooks, decision 037). */
  webhooks: WebhooksService;
}
