/**
 * Kysely table types for every table (see docs/decisions/002-database-conventions.md).
 *
 * Raw column types as the drivers return them:
 * - booleans: 0/1 from SQLite, true/false from PostgreSQL (`DbBool`); always write JS booleans
 *   (the SQLite dialect binds them as 0/1);
 * - datetimes of our own tables: ISO-8601 UTC text in both dialects (`IsoText`);
 * - datetimes of the tables shared with Better Auth: `date` (ISO text) in SQLite, `timestamptz`
 *   (a JS Date) in PostgreSQL (`AuthDate`); write ISO strings or Dates;
 * - JSON and string lists: text holding JSON (`JsonText`), validated with zod in `json.ts`;
 * - epochs (milliseconds) and counters: numbers (int8 is parsed as a JS number on PostgreSQL).
 * Repositories map all of these to domain objects (booleans, parsed JSON, ISO strings).
 */
import type { ColumnType, Generated } from "kysely";

/** Boolean column: 0/1 in SQLite, boolean in PostgreSQL. Write JS booleans. */
export type DbBool = ColumnType<boolean | number, boolean, boolean>;
/** Boolean column with a database default. */
export type DbBoolDefault = ColumnType<boolean | number, boolean | undefined, boolean>;
/** ISO-8601 UTC text, e.g. 2026-01-31T12:00:00.000Z (fixed width, so text order = time order). */
export type IsoText = string;
/** A JSON document stored as text. */
export type JsonText = string;
/** Datetime column owned by Better Auth: ISO text in SQLite, timestamptz (Date) in PostgreSQL. */
export type AuthDate = ColumnType<Date | string, Date | string, Date | string>;
/** Better Auth datetime column with a database default (PostgreSQL only; SQLite has none). */
export type AuthDateDefault = ColumnType<Date | string, Date | string | undefined, Date | string>;

// ---------------------------------------------------------------------------------------------
// Identity (shared with Better Auth: its core columns keep its names and types exactly)

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: DbBoolDefault;
  image: string | null;
  createdAt: AuthDateDefault;
  updatedAt: AuthDateDefault;
  // spec §3 User (username/displayUsername are also Better Auth's username plugin columns,
  // role is also its admin plugin column)
  username: string | null;
  displayUsername: string | null;
  displayName: string | null;
  bio: string | null;
  avatar: string | null;
  role: string | null;
  isActive: DbBoolDefault;
  /** individual | business (the `custom:account_type` claim). */
  accountType: Generated<string | null>;
  /** Better Auth two-factor plugin: on once a second factor is verified (migration 008). */
  twoFactorEnabled: DbBoolDefault;
  /** Better Auth phone-number plugin (E.164); only a verified number is used. */
  phoneNumber: string | null;
  phoneNumberVerified: DbBoolDefault;
  /** The number given at sign-up until it is verified (E.164, not unique, never used to sign in; migration 020). */
  unverifiedPhoneNumber: string | null;
  /** ISO-8601 UTC time of the last successful sign-in (migration 020). */
  lastLoginAt: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: AuthDate;
  token: string;
  createdAt: AuthDateDefault;
  updatedAt: AuthDate;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  /** epoch ms of the original sign-in (kept across rotations; the absolute lifetime counts from it) */
  issuedAt: number | null;
  /** epoch ms of the last user activity (the idle time-out counts from it) */
  lastActiveAt: number | null;
  /** epoch ms this token was issued (rotation every 6 h) */
  rotatedAt: number | null;
  /** hash of the device attributes bound at sign-in */
  fingerprint: string | null;
  /** id of the sign-in this row descends from (kept across rotations; ID tokens name it as `sid`) */
  familyId: string | null;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: AuthDate | null;
  refreshTokenExpiresAt: AuthDate | null;
  scope: string | null;
  password: string | null;
  createdAt: AuthDateDefault;
  updatedAt: AuthDate;
}

/** Better Auth two-factor plugin: encrypted TOTP secret and encrypted backup codes (migration 008). */
export interface TwoFactorTable {
  id: string;
  secret: string;
  backupCodes: string;
  userId: string;
  verified: DbBoolDefault;
  failedVerificationCount: Generated<number | null>;
  lockedUntil: AuthDate | null;
}

/** Uploaded media (migration 015): the server-chosen key under media/, referenced as media:<id>. */
export interface MediaObjectTable {
  id: string;
  key: string;
  ownerId: string | null;
  contentType: string;
  size: number;
  visibility: Generated<string>;
  createdAt: string;
  /** "image" | "video" | "captions" | "audio" (migration 022). */
  kind: Generated<string>;
  fileName: string | null;
  width: number | null;
  height: number | null;
  alt: string | null;
}

/** One row (id 1) whose revision goes up on every content write (page cache invalidation). */
/** A setting an owner changed (migration 024): `value` is JSON; absent keys take their default. */
export interface SystemSettingTable {
  key: string;
  value: string;
  updatedAt: string;
  updatedBy: string | null;
  version: number;
}

/**
 * One app process's heartbeat (migration 030, /super-admin/infrastructure). `jobs` and `caches`
 * (migration 038) are JSON.
 */
export interface ProcessHeartbeatTable {
  processId: string;
  hostname: string;
  pid: number;
  version: string;
  startedAt: string;
  lastSeenAt: string;
  lastSeenEpoch: number;
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  lagP50Us: number;
  lagP99Us: number;
  requestsLastMinute: number;
  pageCacheHits: number;
  pageCacheMisses: number;
  jobs: JsonText;
  caches: Generated<JsonText>;
}

/**
 * The lease and last run of one periodic job across processes (migration 041, decision 028).
 * `leaseUntil` is epoch ms; a row whose lease has passed is free.
 */
export interface JobLeaseTable {
  name: string;
  holder: string | null;
  leaseUntil: number;
  lastHolder: string | null;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastOutcome: string | null;
  lastError: string | null;
  runs: Generated<number>;
}

/** A webhook receiver (migration 043, decision 037): `events` is a JSON list of event names. */
export interface WebhookEndpointTable {
  id: string;
  url: string;
  description: Generated<string>;
  events: JsonText;
  secret: string;
  enabled: DbBoolDefault;
  createdBy: string | null;
  createdAt: IsoText;
  updatedAt: IsoText;
  secretRotatedAt: IsoText | null;
}

/**
 * One event for one endpoint (migration 043): `payload` is the exact JSON body sent; `status`
 * pending | succeeded | failed; a row is being sent while `leaseUntil` (epoch ms) is ahead.
 */
export interface WebhookDeliveryTable {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: JsonText;
  status: string;
  attempts: Generated<number>;
  nextAttemptEpoch: number | null;
  leaseUntil: Generated<number>;
  lastAttemptAt: IsoText | null;
  responseStatus: number | null;
  responseExcerpt: string | null;
  durationMs: number | null;
  error: string | null;
  replayOf: string | null;
  createdAt: IsoText;
  createdEpoch: number;
}

/** The last status and version of a content item webhooks saw (migration 043). */
export interface WebhookContentStateTable {
  contentId: string;
  status: string;
  version: number;
}

/** A GitHub answer kept for conditional requests (migration 041): `body` is JSON {data, next}. */
export interface GitHubResponseTable {
  key: string;
  etag: string;
  body: string;
  bytes: number;
  usedEpoch: number;
}

/** The settings revision (migration 024): one row, bumped by every settings write. */
export interface SystemSettingRevisionTable {
  id: number;
  revision: number;
}

export interface ContentRevisionTable {
  id: number;
  revision: number;
  changedAt: number;
}

/** Counter bumped by database triggers on every identity write (migration 037, decision 023). */
export interface IdentityRevisionTable {
  id: number;
  revision: number;
}

/** One saved version of a content item (migration 021): `snapshot` is JSON {fields, body}. */
export interface ContentVersionTable {
  id: string;
  contentId: string;
  version: number;
  authorId: string | null;
  createdAt: IsoText;
  note: string | null;
  snapshot: JsonText;
}

/** One workflow transition of a content item (migration 021); action "auto_publish" from the job. */
export interface ContentWorkflowEventTable {
  id: string;
  contentId: string;
  action: string;
  fromState: string;
  toState: string;
  actorId: string | null;
  at: IsoText;
  notes: string | null;
  publishedAt: IsoText | null;
}

/** The last accepted TOTP time step per user (a code is accepted once); epoch ms. */
export interface MfaTotpStepTable {
  userId: string;
  step: number;
  updatedAt: number;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: AuthDate;
  createdAt: AuthDateDefault;
  updatedAt: AuthDateDefault;
}

/** Business accounts (tenant = organization id). Same shape as Better Auth's organization plugin. */
export interface OrganizationTable {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  createdAt: AuthDate;
  metadata: string | null;
}

export interface GroupTable {
  name: string;
  precedence: Generated<number>;
  description: string | null;
}

export interface UserGroupTable {
  userId: string;
  groupName: string;
  createdAt: IsoText;
}

/** Invitations to an organisation: token stored hashed (SHA-256), 7 days, single use. */
export interface OrganizationInvitationTable {
  id: string;
  organizationId: string;
  email: string;
  tokenHash: string;
  role: Generated<string>;
  invitedBy: string | null;
  createdAt: IsoText;
  expiresAt: IsoText;
  acceptedAt: IsoText | null;
  acceptedBy: string | null;
}

/** Failed sign-in counters (key: `acct:<userId>`, `name:<identifier>` or `ip:<address>`); epoch ms. */
export interface LoginThrottleTable {
  key: string;
  failures: Generated<number>;
  windowStart: number;
  lockedUntil: number | null;
  updatedAt: number;
}

/** API rate-limit counters (018, decision 014): units used per key and fixed window (epoch ms). */
export interface ApiRateLimitTable {
  key: string;
  windowStart: number;
  count: number;
}

/** Token signing key pairs (006): public JWK in clear, private key AES-256-GCM encrypted. */
export interface SigningKeyTable {
  kid: string;
  alg: string;
  publicJwk: JsonText;
  privateKeyEnc: string;
  createdAt: IsoText;
  retiredAt: IsoText | null;
}

/** Per-user API keys (006): HMAC of the key, never the key itself; JSON list of scopes. */
export interface ApiKeyTable {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  keyHash: string;
  scopes: JsonText;
  createdAt: IsoText;
  expiresAt: IsoText | null;
  revokedAt: IsoText | null;
  lastUsedAt: IsoText | null;
  rateLimitPerMinute: Generated<number>;
  /** Start of the current rate-limit minute (epoch ms) and the requests counted in it. */
  windowStart: Generated<number>;
  windowCount: Generated<number>;
}

/** Service credentials (006): client id + HMAC of the client secret, scoped. */
export interface ServiceCredentialTable {
  id: string;
  clientId: string;
  name: string;
  secretHash: string;
  scopes: JsonText;
  createdBy: string | null;
  createdAt: IsoText;
  revokedAt: IsoText | null;
  lastUsedAt: IsoText | null;
  /** When the secret was last rotated (migration 029); service tokens issued before it are refused. */
  rotatedAt: IsoText | null;
}

/** Better Auth's rate limiter (its `rateLimit` model, stored as `rate_limit`). */
export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: number;
}

export interface AuditLogTable {
  id: string;
  at: IsoText;
  actorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  details: JsonText | null;
}

// ---------------------------------------------------------------------------------------------
// Content

export interface ContentTable {
  id: string;
  gid: string | null;
  tenant: string | null;
  type: Generated<string>;
  title: string;
  slug: string;
  status: Generated<string>;
  category: string | null;
  categoryId: string | null;
  categorySlug: string | null;
  categoryTier: string | null;
  section: string | null;
  taxon: string | null;
  /** The minimum tier (the product's `minTier`). */
  tier: Generated<string>;
  classification: string | null;
  pii: DbBoolDefault;
  retention: string | null;
  isPublic: DbBoolDefault;
  createdAt: IsoText;
  updatedAt: IsoText;
  publishedAt: IsoText | null;
  eventTime: IsoText | null;
  createdEpoch: number;
  updatedEpoch: number;
  publishedEpoch: number | null;
  eventEpoch: number | null;
  bodyS3Key: string | null;
  bodySize: number | null;
  bodyChecksum: string | null;
  bodyFormat: Generated<string>;
  excerpt: string | null;
  tags: Generated<JsonText>;
  aliases: Generated<JsonText>;
  audience: Generated<JsonText>;
  related: Generated<JsonText>;
  seoKeywords: Generated<JsonText>;
  seoTitle: string | null;
  metaDescription: string | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImage: string | null;
  twitterCard: string | null;
  schemaType: string | null;
  canonicalUrl: string | null;
  noindex: DbBoolDefault;
  structuredData: JsonText | null;
  authorId: string | null;
  lastEditedBy: string | null;
  version: Generated<number>;
  viewCount: Generated<number>;
  likeCount: Generated<number>;
  shareCount: Generated<number>;
  commentCount: Generated<number>;
  featured: DbBoolDefault;
  featuredOrder: number | null;
  featuredImage: string | null;
  featuredImageAlt: string | null;
  workflowStatus: string | null;
  reviewerNotes: string | null;
  templateId: string | null;
  rolesRequired: Generated<JsonText>;
  /** The item's own review-by date (migration 044); null: the section's default period applies. */
  reviewBy: IsoText | null;
  reviewByEpoch: number | null;
  /** When an editor last marked the item reviewed (migration 044), and who. */
  lastReviewedAt: IsoText | null;
  lastReviewedEpoch: number | null;
  lastReviewedBy: string | null;
}

export interface ContentCategoryTable {
  id: string;
  slug: string;
  label: string;
  description: string | null;
  defaultTier: string | null;
  icon: string | null;
  s3Prefix: string | null;
  isActive: DbBoolDefault;
  createdAt: IsoText;
  updatedAt: IsoText;
  /** Readers' order of the categories (migration 028), then label. */
  sortOrder: Generated<number>;
  /** The section an administrator filed it under (migration 028); null: its items' section. */
  section: string | null;
}

/**
 * The searchable text of each content item (migration 009): title, excerpt, tags joined, and the
 * body as plain text, and `docId`, the order documents were first indexed (SQLite: the rowid of
 * the FTS5 index `content_search_fts`; PostgreSQL: an identity, migration 039). PostgreSQL adds the
 * generated tsvectors `metaVector` and `documentVector` (read in raw SQL only).
 */
export interface ContentSearchTable {
  /** The order documents were first indexed (SQLite: the integer key the FTS5 index uses). */
  docId: Generated<number>;
  contentId: string;
  title: string;
  excerpt: string;
  tags: string;
  body: string;
  indexedAt: IsoText;
}

export interface ContentItemTable {
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
  isPublic: DbBoolDefault;
  publishedAt: IsoText | null;
  updatedAt: IsoText;
  bodyS3Key: string | null;
  excerpt: string | null;
  tags: Generated<JsonText>;
  seoTitle: string | null;
  metaDescription: string | null;
  canonicalUrl: string | null;
  featuredImage: string | null;
  structuredData: JsonText | null;
  createdAt: IsoText;
}

export interface UserSubscriptionTable {
  id: string;
  userId: string;
  tier: string;
  tenantId: string | null;
  status: Generated<string>;
  source: string | null;
  startedAt: IsoText | null;
  expiresAt: IsoText | null;
  canceledAt: IsoText | null;
  metadata: JsonText | null;
  createdAt: IsoText;
  updatedAt: IsoText;
  /** Optimistic concurrency (migration 012). */
  version: Generated<number>;
  /** Billing state (migration 023, decision 019). */
  planId: string | null;
  billingInterval: string | null;
  seats: number | null;
  providerSubscriptionId: string | null;
  periodStart: IsoText | null;
  periodEnd: IsoText | null;
  cancelAtPeriodEnd: DbBoolDefault;
  pendingPlanId: string | null;
  pendingInterval: string | null;
  pendingSeats: number | null;
  graceUntil: IsoText | null;
}

/** A plan offered (migration 023): prices in minor units of `currency`. */
export interface PlanTable {
  id: string;
  name: string;
  /** free, basic, pro or enterprise: what the plan grants. */
  tier: string;
  /** individual or organization (a seat plan). */
  kind: Generated<string>;
  description: Generated<string>;
  currency: Generated<string>;
  monthlyPriceCents: Generated<number>;
  yearlyPriceCents: Generated<number>;
  perSeat: DbBoolDefault;
  minSeats: Generated<number>;
  maxSeats: number | null;
  stripeMonthlyPriceId: string | null;
  stripeYearlyPriceId: string | null;
  /** JSON array of strings: extra selling points shown on /pricing. */
  features: JsonText | null;
  sortOrder: Generated<number>;
  archivedAt: IsoText | null;
  createdAt: IsoText;
  updatedAt: IsoText;
  version: Generated<number>;
}

export interface BillingCustomerTable {
  id: string;
  provider: string;
  ownerKey: string;
  userId: string | null;
  tenantId: string | null;
  providerCustomerId: string;
  createdAt: IsoText;
}

export interface BillingCheckoutTable {
  id: string;
  userId: string;
  tenantId: string | null;
  organizationName: string | null;
  planId: string;
  billingInterval: string;
  seats: Generated<number>;
  provider: string;
  providerSessionId: string | null;
  url: string | null;
  status: Generated<string>;
  returnTo: string | null;
  subscriptionId: string | null;
  createdAt: IsoText;
  expiresAt: IsoText;
  completedAt: IsoText | null;
  version: Generated<number>;
}

export interface BillingInvoiceTable {
  id: string;
  userId: string | null;
  tenantId: string | null;
  subscriptionId: string | null;
  provider: string;
  providerInvoiceId: string | null;
  number: string;
  status: string;
  amountCents: number;
  currency: string;
  description: string;
  periodStart: IsoText | null;
  periodEnd: IsoText | null;
  hostedUrl: string | null;
  createdAt: IsoText;
  paidAt: IsoText | null;
}

export interface BillingEventTable {
  provider: string;
  eventId: string;
  type: string;
  status: string;
  error: string | null;
  receivedAt: IsoText;
  processedAt: IsoText | null;
  attempts: Generated<number>;
}

export interface CommentTable {
  id: string;
  contentId: string;
  authorId: string | null;
  body: string;
  parentCommentId: string | null;
  status: Generated<string>;
  createdAt: IsoText;
  updatedAt: IsoText;
  /** Optimistic concurrency (migration 012). */
  version: Generated<number>;
  /** Published replies (migration 031). */
  replyCount: Generated<number>;
  likeCount: Generated<number>;
  /** Open reports. */
  reportCount: Generated<number>;
  editedAt: IsoText | null;
  /** Set when the author deleted a comment that still has replies (body cleared). */
  deletedAt: IsoText | null;
  moderatedAt: IsoText | null;
  moderatedBy: string | null;
  moderationReason: string | null;
  /** Idempotency key of the create, unique per author. */
  requestKey: string | null;
}

/** A reader's report of a comment (migration 031); one per comment and reporter. */
export interface CommentReportTable {
  id: string;
  commentId: string;
  reporterId: string;
  reason: string;
  note: string | null;
  createdAt: IsoText;
  resolvedAt: IsoText | null;
  resolvedBy: string | null;
  resolution: string | null;
}

/** One row per comment and user who liked it (migration 031). */
export interface CommentLikeTable {
  commentId: string;
  userId: string;
  createdAt: IsoText;
}

/** A muted or banned commenter (migration 031). */
export interface CommenterRestrictionTable {
  userId: string;
  kind: "muted" | "banned";
  reason: string | null;
  until: IsoText | null;
  createdBy: string | null;
  createdAt: IsoText;
}

/** Seconds a user spent reading an item on a UTC day (migration 031). */
export interface ReadingActivityTable {
  userId: string;
  contentId: string;
  day: string;
  seconds: Generated<number>;
  firstAt: IsoText;
  lastAt: IsoText;
}

/** An item a reader saved (migration 032). */
export interface BookmarkTable {
  userId: string;
  contentId: string;
  createdAt: IsoText;
}

/** What a content import made from which source item (migration 045, decision 036). */
export interface ImportRecordTable {
  source: string;
  kind: string;
  sourceKey: string;
  targetId: string;
  checksum: string | null;
  importedAt: IsoText;
  updatedAt: IsoText;
}

/** When a reader last opened /dashboard and the visit before that (migration 032). */
export interface UserVisitTable {
  userId: string;
  lastDashboardAt: IsoText;
  previousDashboardAt: IsoText | null;
}

/** A user's opt-in to one kind of e-mail notification (migration 034); no row means off. */
export interface NotificationPreferenceTable {
  userId: string;
  /** replies | followed_sections | weekly_digest */
  kind: string;
  enabled: DbBool;
  updatedAt: IsoText;
}

/** A content section a user follows (migration 034). */
export interface SectionFollowTable {
  userId: string;
  section: string;
  createdAt: IsoText;
}

/** One notification e-mail, claimed by its unique `dedupeKey` before it is sent (migration 034). */
export interface NotificationDeliveryTable {
  id: string;
  userId: string;
  kind: string;
  dedupeKey: string;
  sentAt: IsoText;
  subject: string;
}

/** The notification sweep's high-water marks (migration 034). */
export interface NotificationCursorTable {
  name: string;
  value: string;
}

/** One row per item, reader and UTC day (migration 010): the view counter's dedup key. */
export interface ContentViewTable {
  contentId: string;
  /** `u:<userId>`, or `v:<keyed hash of address, browser and day>` for a visitor. */
  readerKey: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
}

export interface ContentLikeTable {
  contentId: string;
  userId: string;
  createdAt: IsoText;
}

export interface ContentShareTable {
  id: string;
  contentId: string;
  userId: string;
  channel: string;
  /** UTC day of createdAt (one share per item, user, channel and day). */
  day: string;
  createdAt: IsoText;
}

export interface CourseProgressTable {
  userId: string;
  courseId: string;
  lessonId: string;
  completedAt: IsoText;
}

/** A course's completion rule (migration 033); no row: every lesson completed. */
export interface CourseRuleTable {
  courseId: string;
  minLessonsPercent: Generated<number>;
  minSeconds: number | null;
  updatedBy: string | null;
  updatedAt: IsoText;
}

/** A course certificate (migration 033): one per user and course; the id is the verification key. */
export interface CertificateTable {
  id: string;
  userId: string;
  courseId: string;
  courseTitle: string;
  recipientName: string;
  courseRevision: Generated<number>;
  issuedAt: IsoText;
  revokedAt: IsoText | null;
  revokedReason: string | null;
}

// ---------------------------------------------------------------------------------------------
// Repositories

export interface GithubRepositoryTable {
  id: string;
  githubId: number | null;
  name: string | null;
  fullName: string | null;
  owner: string | null;
  htmlUrl: string | null;
  slug: string;
  description: string | null;
  defaultBranch: string | null;
  isPrivate: DbBoolDefault;
  language: string | null;
  stargazersCount: Generated<number>;
  forksCount: Generated<number>;
  size: Generated<number>;
  displayName: string | null;
  category: string | null;
  tags: Generated<JsonText>;
  isEnabled: DbBoolDefault;
  sortOrder: Generated<number>;
  lastSyncAt: IsoText | null;
  cacheExpiry: IsoText | null;
  createdAt: IsoText;
  updatedAt: IsoText;
  /** Optimistic concurrency (migration 012). */
  version: Generated<number>;
  /** "github" or "local" (migration 013). */
  sourceType: Generated<string>;
  /** Local repositories: the folder under DATA_DIR/repositories. */
  localPath: string | null;
  /** The last failed sync's reason; null after a successful one. */
  lastSyncError: string | null;
  lastSyncErrorAt: IsoText | null;
}

export interface RepositoryCategoryTable {
  id: string;
  name: string | null;
  slug: string;
  description: string | null;
  icon: string | null;
  sortOrder: Generated<number>;
  isVisible: DbBoolDefault;
  /** Optimistic concurrency (migration 012). */
  version: Generated<number>;
}

export interface RepositoryFileTable {
  id: string;
  repositoryId: string;
  path: string;
  name: string | null;
  type: string;
  size: number | null;
  sha: string | null;
  extension: string | null;
  mimeType: string | null;
  encoding: string | null;
  isReadme: DbBoolDefault;
  content: string | null;
  lastFetchAt: IsoText | null;
  cacheExpiry: IsoText | null;
}

export interface RepositoryBranchTable {
  id: string;
  repositoryId: string;
  name: string;
  sha: string;
  isDefault: DbBoolDefault;
  lastCommitMessage: string | null;
  lastCommitDate: IsoText | null;
}

export interface RepositoryIssueTable {
  id: string;
  repositoryId: string;
  githubIssueId: number | null;
  number: number | null;
  title: string | null;
  state: string;
  body: string | null;
  labels: Generated<JsonText>;
}

export interface RepositoryWorkflowTable {
  id: string;
  repositoryId: string;
  githubWorkflowId: number | null;
  name: string | null;
  path: string | null;
  state: string;
  lastRunStatus: string | null;
  lastRunDate: IsoText | null;
}

// ---------------------------------------------------------------------------------------------
// Analytics (migration 027): daily aggregates, no personal data

export interface AnalyticsDailyTable {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  contentId: string;
  /** Counted views (one per reader, item and day). */
  views: Generated<number>;
  visitorViews: Generated<number>;
  freeViews: Generated<number>;
  basicViews: Generated<number>;
  proViews: Generated<number>;
  enterpriseViews: Generated<number>;
}

export interface AnalyticsSiteDailyTable {
  day: string;
  /** Site-wide unique readers that day. */
  readers: Generated<number>;
  visitorReaders: Generated<number>;
  freeReaders: Generated<number>;
  basicReaders: Generated<number>;
  proReaders: Generated<number>;
  enterpriseReaders: Generated<number>;
}

export interface AnalyticsReaderDayTable {
  day: string;
  /** A keyed hash of the reader and the day (never the reader's id or address). */
  readerHash: string;
}

export interface AnalyticsSearchDailyTable {
  day: string;
  /** The normalised search text. */
  query: string;
  searches: Generated<number>;
  zeroResults: Generated<number>;
}

export interface DB {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  organization: OrganizationTable;
  organization_invitation: OrganizationInvitationTable;
  group: GroupTable;
  user_group: UserGroupTable;
  audit_log: AuditLogTable;
  login_throttle: LoginThrottleTable;
  twoFactor: TwoFactorTable;
  mfa_totp_step: MfaTotpStepTable;
  rate_limit: RateLimitTable;
  api_rate_limit: ApiRateLimitTable;
  signing_key: SigningKeyTable;
  api_key: ApiKeyTable;
  service_credential: ServiceCredentialTable;
  content: ContentTable;
  content_category: ContentCategoryTable;
  content_item: ContentItemTable;
  content_revision: ContentRevisionTable;
  identity_revision: IdentityRevisionTable;
  system_setting: SystemSettingTable;
  system_setting_revision: SystemSettingRevisionTable;
  process_heartbeat: ProcessHeartbeatTable;
  job_lease: JobLeaseTable;
  github_response: GitHubResponseTable;
  webhook_endpoint: WebhookEndpointTable;
  webhook_delivery: WebhookDeliveryTable;
  webhook_content_state: WebhookContentStateTable;
  content_version: ContentVersionTable;
  content_workflow_event: ContentWorkflowEventTable;
  media_object: MediaObjectTable;
  content_search: ContentSearchTable;
  user_subscription: UserSubscriptionTable;
  plan: PlanTable;
  billing_customer: BillingCustomerTable;
  billing_checkout: BillingCheckoutTable;
  billing_invoice: BillingInvoiceTable;
  billing_event: BillingEventTable;
  comment: CommentTable;
  comment_report: CommentReportTable;
  comment_like: CommentLikeTable;
  commenter_restriction: CommenterRestrictionTable;
  reading_activity: ReadingActivityTable;
  bookmark: BookmarkTable;
  user_visit: UserVisitTable;
  import_record: ImportRecordTable;
  notification_preference: NotificationPreferenceTable;
  section_follow: SectionFollowTable;
  notification_delivery: NotificationDeliveryTable;
  notification_cursor: NotificationCursorTable;
  content_view: ContentViewTable;
  content_like: ContentLikeTable;
  content_share: ContentShareTable;
  course_progress: CourseProgressTable;
  course_rule: CourseRuleTable;
  certificate: CertificateTable;
  github_repository: GithubRepositoryTable;
  repository_category: RepositoryCategoryTable;
  repository_file: RepositoryFileTable;
  repository_branch: RepositoryBranchTable;
  repository_issue: RepositoryIssueTable;
  repository_workflow: RepositoryWorkflowTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_site_daily: AnalyticsSiteDailyTable;
  analytics_reader_day: AnalyticsReaderDayTable;
  analytics_search_daily: AnalyticsSearchDailyTable;
}

export type TableName = keyof DB;

/** Every table the migrations create (tests check them; diagnostics may list them). */
export const TABLE_NAMES = [
  "user",
  "session",
  "account",
  "verification",
  "organization",
  "organization_invitation",
  "group",
  "user_group",
  "audit_log",
  "login_throttle",
  "twoFactor",
  "mfa_totp_step",
  "rate_limit",
  "api_rate_limit",
  "signing_key",
  "api_key",
  "service_credential",
  "content_category",
  "content",
  "content_item",
  "content_revision",
  "identity_revision",
  "content_version",
  "content_workflow_event",
  "media_object",
  "content_search",
  "user_subscription",
  "comment",
  "content_view",
  "content_like",
  "content_share",
  "course_progress",
  "course_rule",
  "certificate",
  "github_repository",
  "repository_category",
  "repository_file",
  "repository_branch",
  "repository_issue",
  "repository_workflow",
  "system_setting",
  "system_setting_revision",
  "process_heartbeat",
  "job_lease",
  "github_response",
  "webhook_endpoint",
  "webhook_delivery",
  "webhook_content_state",
  "analytics_daily",
  "analytics_site_daily",
  "analytics_reader_day",
  "analytics_search_daily",
  "bookmark",
  "user_visit",
  "notification_preference",
  "section_follow",
  "notification_delivery",
  "notification_cursor",
  "import_record",
] as const satisfies readonly TableName[];
