/**
 * Demo data: groups, the demo organisation and accounts (tier and roles from real rows),
 * categories, the content catalog with bodies in object storage, and readers' comments on some
 * items (with each item's commentCount). Idempotent (rows that exist are kept) and reproducible
 * (the same catalog, dates and texts every time).
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { v7 as uuidv7 } from "uuid";
import { GROUP_PRECEDENCE } from "../../../core/index.ts";
import {
  buildCategory,
  buildComment,
  buildContent,
  buildSubscription,
} from "../../../tests/factories/index.ts";
import type { Auth } from "../../auth/auth.ts";
import { withHashMemo } from "../../auth/password.ts";
import { createCommentsRepo } from "../../modules/comments/comments.repo.ts";
import { createContentRepo } from "../../modules/content/content.repo.ts";
import { createContentCategoryRepo } from "../../modules/content/content-category.repo.ts";
import { createMediaService, type MediaService, mediaRef } from "../../modules/media/media.service.ts";
import { createSearchIndexer } from "../../modules/search/search-indexer.ts";
import { createSubscriptionsRepo } from "../../modules/subscriptions/subscriptions.repo.ts";
import { createUsersRepo } from "../../modules/users/users.repo.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import type { DB } from "../schema.ts";
import { inTransaction } from "../transaction.ts";
import { DEMO_ACCOUNTS, DEMO_ORGANIZATION, DEMO_PASSWORD } from "./accounts.ts";
import { DEMO_COMMENTS } from "./demo/comments.ts";
import {
  DEMO_AUTHORS,
  DEMO_CATEGORIES,
  DEMO_CONTENT,
  DEMO_VIDEO_FILES,
  type DemoContent,
  type DemoVideoFileRole,
  loadDemoBody,
  loadDemoVideoFile,
} from "./demo/index.ts";
import { enrolDemoTotp } from "./demo-mfa.ts";
import { seedModerationDemo } from "./demo-moderation.ts";
import { seedDemoRepositories } from "./demo-repositories/index.ts";

export interface SeedDeps {
  db: Kysely<DB>;
  auth: Auth;
  storage: ObjectStore;
  logger: Logger;
  /** DATA_DIR: the demo git repositories are generated under DATA_DIR/repositories (none without it). */
  dataDir?: string;
  /** Where the demo git repositories go (REPOSITORIES_DIR); default DATA_DIR/repositories. */
  repositoriesDir?: string;
}

export interface SeedSummary {
  users: number;
  categories: number;
  content: number;
  /** Comments added by this run (0 when they were all there). */
  comments: number;
}

/** True when nothing has been seeded or created yet (no users and no content). */
export async function isDatabaseEmpty(db: Kysely<DB>): Promise<boolean> {
  const users = await db.selectFrom("user").select("id").limit(1).executeTakeFirst();
  const content = await db.selectFrom("content").select("id").limit(1).executeTakeFirst();
  return !users && !content;
}

const EXTRA_GROUPS = [
  {
    name: "ContentManager",
    precedence: 10,
    description: "Content managers: create, edit, publish and moderate.",
  },
  {
    name: "ContentCreator",
    precedence: 12,
    description: "Content creators: write, edit and submit content for review.",
  },
  { name: "Business", precedence: 11, description: "Business accounts: shows the Business Hub." },
  {
    name: `org-${DEMO_ORGANIZATION.slug}`,
    precedence: 20,
    description: `Members of ${DEMO_ORGANIZATION.name}.`,
  },
  {
    name: `org-${DEMO_ORGANIZATION.slug}-admin`,
    precedence: 21,
    description: `Administrators of ${DEMO_ORGANIZATION.name}.`,
  },
];

/** The `media:<id>` references of a demo video's uploaded clip, poster and captions. */
type DemoVideoMedia = Record<DemoVideoFileRole, string>;

/**
 * schema.org VideoObject with chapters as Clips, so the page and search engines read the same
 * data; the clip, poster and captions are uploaded media named as `media:<id>` (decision 011).
 */
function videoStructuredData(item: DemoContent, media: DemoVideoMedia | null) {
  if (!item.video) return null;
  const s = item.video.durationS;
  return {
    "@context": "https://schema.org",
    "@type": "VideoObject",
    name: item.title,
    description: item.excerpt,
    uploadDate: item.publishedAt,
    duration: `PT${Math.floor(s / 60)}M${s % 60}S`,
    ...(media
      ? {
          contentUrl: media.clip,
          encodingFormat: "video/webm",
          thumbnailUrl: media.poster,
          caption: [
            {
              "@type": "MediaObject",
              contentUrl: media.captions,
              encodingFormat: "text/vtt",
              inLanguage: "en",
              name: "English",
            },
          ],
        }
      : {}),
    hasPart: item.video.chapters.map((c, i) => ({
      "@type": "Clip",
      name: c.title,
      startOffset: c.atS,
      endOffset: item.video!.chapters[i + 1]?.atS ?? s,
    })),
  };
}

/**
 * Uploads a demo video's committed files as media owned by the item's author (the media
 * service picks the keys under media/), returning their references.
 */
async function storeDemoVideoMedia(
  media: MediaService,
  slug: string,
  ownerId: string | null,
): Promise<DemoVideoMedia> {
  const refs: Partial<DemoVideoMedia> = {};
  for (const file of DEMO_VIDEO_FILES) {
    const stored = await media.store(ownerId, file.contentType, await loadDemoVideoFile(slug, file.suffix));
    refs[file.role] = mediaRef(stored.id);
  }
  return refs as DemoVideoMedia;
}

export async function seedDemo(deps: SeedDeps): Promise<SeedSummary> {
  const { db, auth, storage, logger } = deps;
  const users = createUsersRepo(db);
  const subscriptions = createSubscriptionsRepo(db);
  const categories = createContentCategoryRepo(db);
  const content = createContentRepo(db);
  const media = createMediaService({ db, storage });

  await users.ensureGroups([
    ...Object.entries(GROUP_PRECEDENCE).map(([name, precedence]) => ({ name, precedence })),
    ...EXTRA_GROUPS,
  ]);

  let org = await db
    .selectFrom("organization")
    .selectAll()
    .where("slug", "=", DEMO_ORGANIZATION.slug)
    .executeTakeFirst();
  if (!org) {
    await db
      .insertInto("organization")
      .values({
        id: uuidv7(),
        slug: DEMO_ORGANIZATION.slug,
        name: DEMO_ORGANIZATION.name,
        logo: null,
        metadata: null,
        createdAt: new Date("2026-01-05T09:00:00.000Z").toISOString(),
      })
      .execute();
    org = await db
      .selectFrom("organization")
      .selectAll()
      .where("slug", "=", DEMO_ORGANIZATION.slug)
      .executeTakeFirstOrThrow();
  }

  const userIds = new Map<string, string>();
  // The demo accounts share the published demo password: hash it once (scrypt N=2^17 is slow by design).
  await withHashMemo(async () => {
    for (const account of DEMO_ACCOUNTS) {
      let user = await users.getByEmail(account.email);
      if (!user) {
        await auth.api.signUpEmail({
          body: {
            email: account.email,
            password: DEMO_PASSWORD,
            name: account.name,
            username: account.username,
          },
        });
        user = await users.getByEmail(account.email);
        if (!user) throw new Error(`demo account ${account.email} was not created`);
        const author = DEMO_AUTHORS.find((a) => a.username === account.username);
        user = await users.update(user.id, {
          emailVerified: true,
          accountType: account.accountType,
          displayName: author?.displayName ?? account.name,
          isActive: true,
        });
        // Sign-up gave the account the free tier (group + subscription); the demo rows replace them.
        await users.setGroups(user.id, account.groups);
        await db.deleteFrom("user_subscription").where("userId", "=", user.id).execute();
        await subscriptions.create(
          buildSubscription(user.id, {
            tier: account.subscriptionTier,
            source: "demo",
            tenantId: account.accountType === "business" ? org.id : null,
            planId: account.subscriptionTier,
            seats: account.accountType === "business" ? 10 : null,
          }),
        );
        if (account.totpSecret) await enrolDemoTotp(db, auth, user.id, account);
      }
      userIds.set(account.username, user.id);
    }
  });

  const categoryIds = new Map<string, { id: string; defaultTier: string | null }>();
  for (const c of DEMO_CATEGORIES) {
    const existing = await categories.getBySlug(c.slug);
    const row =
      existing ??
      (await categories.create(
        buildCategory({
          slug: c.slug,
          label: c.label,
          description: c.description,
          defaultTier: c.defaultTier,
          icon: c.icon,
          s3Prefix: c.s3Prefix,
          isActive: c.isActive,
        }),
      ));
    categoryIds.set(c.slug, { id: row.id, defaultTier: row.defaultTier });
  }

  let created = 0;
  for (const item of DEMO_CONTENT) {
    if (await content.getBySlug(item.slug)) continue;
    const body = await loadDemoBody(item.slug);
    const category = categoryIds.get(item.categorySlug);
    const authorId = userIds.get(item.author) ?? null;
    // An item that exists keeps its media: the files are uploaded only with the item they serve.
    const videoMedia = item.video ? await storeDemoVideoMedia(media, item.slug, authorId) : null;
    const built = buildContent(
      {
        slug: item.slug,
        title: item.title,
        type: item.type,
        templateId: item.templateId ?? null,
        status: "published",
        workflowStatus: "published",
        section: item.section,
        category: DEMO_CATEGORIES.find((c) => c.slug === item.categorySlug)?.label ?? null,
        categoryId: category?.id ?? null,
        categorySlug: item.categorySlug,
        categoryTier: category?.defaultTier ?? null,
        tier: item.tier,
        rolesRequired: item.rolesRequired ?? [],
        isPublic: item.tier === "Free" && !item.rolesRequired?.length,
        excerpt: item.excerpt,
        tags: item.tags,
        audience: item.audience ?? [],
        seoKeywords: item.seoKeywords ?? [],
        related: item.lessons ?? item.related ?? [],
        seoTitle: item.seoTitle ?? null,
        metaDescription: item.metaDescription,
        twitterCard: "summary",
        schemaType: item.type === "video" ? "VideoObject" : item.type === "course" ? "Course" : "Article",
        structuredData: videoStructuredData(item, videoMedia),
        authorId: userIds.get(item.author) ?? null,
        lastEditedBy: userIds.get(item.author) ?? null,
        featured: item.featured ?? false,
        featuredOrder: item.featuredOrder ?? null,
        publishedAt: item.publishedAt,
        createdAt: item.publishedAt,
        updatedAt: item.publishedAt,
      },
      body,
    );
    await storage.put(built.row.bodyS3Key!, built.body, {
      contentType: "text/markdown; charset=utf-8",
      metadata: { checksum: built.row.bodyChecksum ?? "" },
    });
    await content.create(built.row);
    created++;
  }

  // Readers' comments: each one and its item's commentCount in one transaction, as the comments
  // service does. A comment that exists (same item, author and time) is kept.
  const commentIds = new Map<string, string>();
  let commentsCreated = 0;
  for (const c of DEMO_COMMENTS) {
    const item = await content.getBySlug(c.contentSlug);
    const username = DEMO_ACCOUNTS.find((a) => a.key === c.author)?.username;
    const authorId = username ? userIds.get(username) : undefined;
    if (!item || !authorId) throw new Error(`demo comment ${c.key}: unknown item or author`);
    const existing = await db
      .selectFrom("comment")
      .select("id")
      .where("authorId", "=", authorId)
      .where("createdAt", "=", c.createdAt)
      .where("contentId", "=", item.id)
      .executeTakeFirst();
    if (existing) {
      commentIds.set(c.key, existing.id);
      continue;
    }
    const parentCommentId = c.replyTo ? (commentIds.get(c.replyTo) ?? null) : null;
    if (c.replyTo && !parentCommentId) throw new Error(`demo comment ${c.key}: reply to an unknown comment`);
    const created = await inTransaction(db, async (trx) => {
      const row = await createCommentsRepo(trx).create(
        buildComment(item.id, authorId, { body: c.body, createdAt: c.createdAt, parentCommentId }),
      );
      await createContentRepo(trx).incrementCounters(item.id, { commentCount: 1 });
      return row;
    });
    commentIds.set(c.key, created.id);
    commentsCreated++;
  }

  // The moderation queue's demo: a reported comment and one held for pre-moderation.
  await seedModerationDemo(db, userIds);

  // Every item (new, or left unindexed by an interrupted run) gets its search document.
  await createSearchIndexer({ db, storage, logger }).indexMissing();

  // The repository browser's demo repositories (git folders under DATA_DIR/repositories).
  if (deps.dataDir) {
    await seedDemoRepositories({ db, dataDir: deps.dataDir, repositoriesDir: deps.repositoriesDir, logger });
  }

  const summary = {
    users: userIds.size,
    categories: categoryIds.size,
    content: created,
    comments: commentsCreated,
  };
  logger.info(summary, "demo data seeded");
  return summary;
}
