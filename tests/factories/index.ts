/**
 * Test-data factories, shared by the demo seed, the integration tests and the e2e tests.
 * Each returns a complete, valid input with sensible defaults; overrides win.
 */
import { createHash } from "node:crypto";
import type { NewComment } from "../../server/modules/comments/comments.repo.ts";
import { contentBodyKeyOf } from "../../server/modules/content/body-key.ts";
import type { NewContent } from "../../server/modules/content/content.repo.ts";
import type { NewContentCategory } from "../../server/modules/content/content-category.repo.ts";
import type { NewUserSubscription } from "../../server/modules/subscriptions/subscriptions.repo.ts";

let sequence = 0;
const next = () => ++sequence;

export function sha256(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Where a body object lives: content/<tier>/<category>/<slug>.md (storage access by path, spec §6). */
export function contentBodyKey(tier: string, categorySlug: string | null | undefined, slug: string): string {
  const key = contentBodyKeyOf({ tier, categorySlug, slug });
  if (key === null) throw new Error(`no valid body key for ${tier}/${String(categorySlug)}/${slug}`);
  return key;
}

export function buildCategory(overrides: Partial<NewContentCategory> = {}): NewContentCategory {
  const n = next();
  const slug = overrides.slug ?? `category-${n}`;
  const defaultTier = overrides.defaultTier ?? "Free";
  return {
    slug,
    label: `Category ${n}`,
    description: "A category made for a test.",
    defaultTier,
    icon: "BookOpen",
    s3Prefix: `content/${String(defaultTier).toLowerCase()}/${slug}/`,
    isActive: true,
    ...overrides,
  };
}

export interface BuiltContent {
  row: NewContent;
  body: string;
}

/**
 * A published content item and its markdown body. The row's bodyS3Key, bodySize and
 * bodyChecksum match the body; store the body at row.bodyS3Key.
 */
export function buildContent(overrides: Partial<NewContent> = {}, body?: string): BuiltContent {
  const n = next();
  const slug = overrides.slug ?? `test-item-${n}`;
  const title = overrides.title ?? `Test item ${n}`;
  const tier = overrides.tier ?? "Free";
  const text = body ?? `## About ${title}\n\nA short body written for a test.\n`;
  const bytes = new TextEncoder().encode(text);
  const publishedAt = overrides.publishedAt ?? new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
  const row: NewContent = {
    slug,
    title,
    type: "article",
    status: "published",
    tier,
    section: "ai-education",
    excerpt: `Excerpt of ${title}.`,
    tags: [],
    isPublic: tier === "Free",
    publishedAt,
    bodyFormat: "markdown",
    bodyS3Key: contentBodyKey(tier, overrides.categorySlug, slug),
    bodySize: bytes.byteLength,
    bodyChecksum: sha256(bytes),
    ...overrides,
  };
  return { row, body: text };
}

export function buildSubscription(
  userId: string,
  overrides: Partial<NewUserSubscription> = {},
): NewUserSubscription {
  return {
    userId,
    tier: "free",
    status: "active",
    source: "test",
    startedAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    expiresAt: null,
    ...overrides,
  };
}

/** A published comment by `authorId` on `contentId` (store it with the comments repository). */
export function buildComment(
  contentId: string,
  authorId: string,
  overrides: Partial<NewComment> = {},
): NewComment {
  const n = next();
  return {
    contentId,
    authorId,
    body: `Comment ${n}: a note written for a test.`,
    parentCommentId: null,
    status: "published",
    createdAt: new Date(Date.UTC(2026, 0, 2) + n * 60_000).toISOString(),
    ...overrides,
  };
}
