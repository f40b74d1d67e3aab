/**
 * Engagement (issue 4 item 8, course progress of item 3): view, like and share counters and a
 * signed-in reader's progress through a course. Every operation takes the actor and applies the
 * rules itself; the access rule for reading an item is core's `canAccessContent`, the same one the
 * content service applies.
 *
 * - Views: counted once per reader, item and UTC day, for any published item page (a paywall page
 *   is a view too: the reader opened the item). Bots (isbot) and requests without a user agent are
 *   not counted. A signed-in reader is `u:<userId>`; a visitor is an HMAC (key derived from the
 *   server secret) of the normalised client address, the user agent and the day, so no address is
 *   stored and a visitor's key changes every day. Rows older than yesterday are pruned on the
 *   first view of each day (per process). A counted view also adds to the kept daily analytics
 *   (server/modules/analytics: views by item and tier, site-wide unique readers) in the same
 *   transaction.
 * - Likes: signed-in readers, on items they may read; idempotent; the counter never goes below 0.
 * - Shares: signed-in readers, any published item (a shared link of a gated item shows its
 *   paywall); at most one counted per item, user, channel and day.
 * - Course progress: a course is an item whose template is "course"; its lessons are its published
 *   `related` items in order (as on the page). Only signed-in readers who may read the course (and,
 *   to change it, the lesson) see or change their progress.
 */
import { createHmac, createSecretKey } from "node:crypto";
import { isbot } from "isbot";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { type AccessContext, canAccessContent, requiredTierForContent } from "../../../core/index.ts";
import { normaliseIp } from "../../auth/client-ip.ts";
import type { DB } from "../../db/schema.ts";
import { ServiceError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { readerTierOf } from "../analytics/analytics-recorder.ts";
import { type Content, createContentRepo } from "../content/content.repo.ts";
import type { ContentPage } from "../content/content.types.ts";
import { chooseTemplate } from "../content/content-projection.ts";
import { createEngagementRepo } from "./engagement.repo.ts";
import type { CourseProgress, PageEngagement, ShareChannel } from "./engagement.schemas.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface EngagementServiceDeps {
  db: Kysely<DB>;
  /** The server secret; the visitor key is an HMAC under a key derived from it. */
  secret: string;
  /** The clock (epoch ms); tests move it. Default Date.now. */
  now?: () => number;
  logger?: Logger;
  /**
   * Called after a lesson was marked complete (course completion, server/modules/learning): returns
   * the reader's certificate id for the course once its completion rule is met, else null.
   */
  onLessonCompleted?: (input: {
    userId: string;
    course: Content;
    lessonIds: string[];
    completedLessonIds: string[];
  }) => Promise<string | null>;
  /** The reader's certificate id for a course, if any (shown with the course's progress). */
  certificateFor?: (userId: string, courseId: string) => Promise<string | null>;
}

/** Where a view comes from (the view beacon's request). */
export interface ViewSource {
  /** The client address (normalised here). */
  ip: string;
  userAgent: string | null;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const quoted = (title: string) => `“${title}”`;

/** Why `access` may not read `item`, in words. */
function deniedReason(item: Content, access: AccessContext): string {
  const tier = requiredTierForContent({ minTier: item.tier, rolesRequired: item.rolesRequired });
  const tierOk = canAccessContent({ minTier: item.tier }, access);
  return tierOk
    ? `${quoted(item.title)} is restricted to certain roles`
    : `${quoted(item.title)} needs the ${tier} plan`;
}

export function createEngagementService(deps: EngagementServiceDeps) {
  const repo = createEngagementRepo(deps.db);
  const contents = createContentRepo(deps.db);
  const now = deps.now ?? Date.now;
  const visitorKey = createSecretKey(
    createHmac("sha256", deps.secret).update("lumen:content-view-reader:v1").digest(),
  );
  let prunedFor: string | null = null;

  const isoNow = () => new Date(now()).toISOString();

  function signedInUser(actor: Actor, what: string): { userId: string; access: AccessContext } {
    const access = actor.access;
    if (!access.isAuthenticated || !access.userId)
      throw new ServiceError("UNAUTHENTICATED", `Sign in to ${what}.`);
    return { userId: access.userId, access };
  }

  async function publishedItem(key: string): Promise<Content> {
    const item = await contents.getByIdOrSlug(key);
    if (item?.status !== "published") {
      throw new ServiceError("NOT_FOUND", `No content with id or slug ${key}`);
    }
    return item;
  }

  const mayRead = (item: Content, access: AccessContext) =>
    canAccessContent({ minTier: item.tier, rolesRequired: item.rolesRequired }, access);

  function requireReadable(item: Content, access: AccessContext, action: string): void {
    if (!mayRead(item, access)) {
      throw new ServiceError(
        "FORBIDDEN",
        `You can ${action} only content you can read: ${deniedReason(item, access)}.`,
      );
    }
  }

  async function courseItem(key: string): Promise<Content> {
    const item = await contents.getByIdOrSlug(key);
    if (item?.status !== "published" || chooseTemplate(item) !== "course") {
      throw new ServiceError("NOT_FOUND", `No course with id or slug ${key}`);
    }
    return item;
  }

  /** The course's lessons: its published `related` items, in order (as the course page lists them). */
  async function lessonsOf(course: Content): Promise<Content[]> {
    const rows = await Promise.all(course.related.map((slug) => contents.getBySlug(slug)));
    return rows.filter((r): r is Content => r !== null && r.status === "published");
  }

  async function progressOf(userId: string, courseId: string, lessonIds: string[]): Promise<CourseProgress> {
    const rows = await repo.completedLessons(userId, courseId);
    const at = new Map(rows.map((r) => [r.lessonId, r.completedAt]));
    const completedLessonIds = lessonIds.filter((id) => at.has(id));
    const total = lessonIds.length;
    const completed = completedLessonIds.length;
    const complete = total > 0 && completed === total;
    const progress: CourseProgress = {
      courseId,
      lessonIds,
      completedLessonIds,
      total,
      completed,
      percent: total === 0 ? 0 : Math.floor((completed * 100) / total),
      complete,
    };
    if (complete) {
      progress.completedAt = completedLessonIds.map((id) => at.get(id)!).reduce((a, b) => (a > b ? a : b));
    }
    return progress;
  }

  async function pruneOnNewDay(day: string): Promise<void> {
    if (prunedFor === day) return;
    prunedFor = day;
    try {
      // Only today's rows deduplicate; yesterday's stay for readers near midnight and skewed clocks.
      const removed = await repo.pruneViewsBefore(dayOf(Date.parse(`${day}T00:00:00.000Z`) - DAY_MS));
      if (removed > 0) deps.logger?.debug({ removed }, "pruned old content views");
    } catch (error) {
      deps.logger?.warn({ err: error }, "pruning content views failed");
    }
  }

  return {
    /**
     * Counts a view of a published item (any reader, gated or not), once per reader and UTC day.
     * Bots and requests without a user agent are not counted (and not looked up). Unknown or
     * unpublished → NOT_FOUND.
     */
    async recordView(actor: Actor, key: string, source: ViewSource): Promise<{ counted: boolean }> {
      const userAgent = source.userAgent?.trim() ?? "";
      if (!userAgent || isbot(userAgent)) return { counted: false };
      const item = await publishedItem(key);
      const day = dayOf(now());
      await pruneOnNewDay(day);
      const access = actor.access;
      const readerKey =
        access.isAuthenticated && access.userId
          ? `u:${access.userId}`
          : `v:${createHmac("sha256", visitorKey)
              .update(`${day}\n${normaliseIp(source.ip)}\n${userAgent}`)
              .digest("base64url")}`;
      // The site-wide daily reader count deduplicates on a keyed hash of the reader key and day.
      const readerHash = createHmac("sha256", visitorKey)
        .update(`reader\n${day}\n${readerKey}`)
        .digest("base64url");
      return {
        counted: await repo.recordView(
          { contentId: item.id, readerKey, day },
          { tier: readerTierOf(access), hash: readerHash },
        ),
      };
    },

    /** Likes or unlikes an item the signed-in reader may read; idempotent. */
    async setLike(actor: Actor, key: string, liked: boolean): Promise<{ liked: boolean; likeCount: number }> {
      const { userId, access } = signedInUser(actor, "like content");
      const item = await publishedItem(key);
      requireReadable(item, access, "like");
      await repo.setLike(item.id, userId, liked, isoNow());
      const counts = await repo.countsFor(item.id, userId);
      return { liked: counts?.liked ?? liked, likeCount: counts?.likeCount ?? 0 };
    },

    /** Records a share by a signed-in reader: one per item, channel and day is counted. */
    async recordShare(
      actor: Actor,
      key: string,
      channel: ShareChannel,
    ): Promise<{ shareCount: number; counted: boolean }> {
      const { userId } = signedInUser(actor, "share content");
      const item = await publishedItem(key);
      const counted = await repo.recordShare(item.id, userId, channel, isoNow());
      const counts = await repo.countsFor(item.id, null);
      return { shareCount: counts?.shareCount ?? 0, counted };
    },

    /** The signed-in reader's progress through a course they may read. */
    async getProgress(actor: Actor, courseKey: string): Promise<CourseProgress> {
      const { userId, access } = signedInUser(actor, "track your progress");
      const course = await courseItem(courseKey);
      requireReadable(course, access, "track progress in");
      const lessons = await lessonsOf(course);
      return progressOf(
        userId,
        course.id,
        lessons.map((l) => l.id),
      );
    },

    /** Marks a lesson (its id or slug) of a course complete or not; both must be readable. */
    async setLessonComplete(
      actor: Actor,
      courseKey: string,
      lessonKey: string,
      done: boolean,
    ): Promise<CourseProgress> {
      const { userId, access } = signedInUser(actor, "track your progress");
      const course = await courseItem(courseKey);
      requireReadable(course, access, "track progress in");
      const lessons = await lessonsOf(course);
      const lesson = lessons.find((l) => l.id === lessonKey || l.slug === lessonKey);
      if (!lesson) {
        throw new ServiceError("NOT_FOUND", `${lessonKey} is not a lesson of ${quoted(course.title)}.`);
      }
      requireReadable(lesson, access, "complete");
      await repo.setLessonComplete(userId, course.id, lesson.id, done, isoNow());
      const progress = await progressOf(
        userId,
        course.id,
        lessons.map((l) => l.id),
      );
      if (done && deps.onLessonCompleted) {
        // The lesson is saved either way; a failed certificate check is retried by the next mark.
        try {
          const certificateId = await deps.onLessonCompleted({
            userId,
            course,
            lessonIds: progress.lessonIds,
            completedLessonIds: progress.completedLessonIds,
          });
          if (certificateId) progress.certificateId = certificateId;
        } catch (error) {
          deps.logger?.error({ err: error, courseId: course.id }, "course completion check failed");
        }
      }
      return progress;
    },

    /**
     * The content page's engagement: counters for everyone; whether the reader likes it and, on
     * a course they may read, their progress, for signed-in readers only (visitors' pages are
     * cached and shared). null when it cannot be read (the page still renders).
     */
    async forPage(actor: Actor, page: ContentPage): Promise<PageEngagement | null> {
      try {
        const access = actor.access;
        const userId = access.isAuthenticated ? access.userId : null;
        const counts = await repo.countsFor(page.item.id, userId);
        if (!counts) return null;
        const progress =
          userId && page.template === "course" && page.access.kind === "granted"
            ? await progressOf(
                userId,
                page.item.id,
                page.children.map((c) => c.id),
              )
            : null;
        if (progress && progress.completed > 0 && deps.certificateFor) {
          const certificateId = await deps.certificateFor(userId!, page.item.id);
          if (certificateId) progress.certificateId = certificateId;
        }
        return { ...counts, progress };
      } catch (error) {
        deps.logger?.warn({ err: error, contentId: page.item.id }, "engagement for the page failed");
        return null;
      }
    },
  };
}

export type EngagementService = ReturnType<typeof createEngagementService>;
