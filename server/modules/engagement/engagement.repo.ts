/**
 * Engagement queries: no access checks here (the service does them). Each write that changes a
 * counter inserts or deletes its dedup row and moves the counter in one transaction, and moves
 * it only when a row was actually inserted or deleted, so concurrent requests never count twice.
 */
import { type Insertable, type Kysely, type Selectable, sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { toBool } from "../../db/values.ts";
import { rethrowConstraintError } from "../../errors.ts";
import {
  addViewAggregates,
  pruneReaderDaysBefore,
  type ReaderTier,
} from "../analytics/analytics-recorder.ts";
import { createContentRepo } from "../content/content.repo.ts";
import type { EngagementCounts, ShareChannel } from "./engagement.schemas.ts";

/** One view's dedup row: item, reader key and UTC day. */
export type ViewRow = Insertable<DB["content_view"]>;

export function createEngagementRepo(db: Kysely<DB>) {
  /**
   * One view per item, reader and day: true when this call counted it. A counted view also adds
   * to the kept daily analytics (migration 027) in the same transaction: `reader` is the
   * reader's tier and a keyed daily hash (never their id).
   */
  async function recordView(
    view: ViewRow,
    reader: { tier: ReaderTier; hash: string } | null = null,
  ): Promise<boolean> {
    return inTransaction(db, async (trx) => {
      let inserted: unknown;
      try {
        inserted = await trx
          .insertInto("content_view")
          .values(view)
          .onConflict((oc) => oc.doNothing())
          .returning("contentId")
          .executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "content view");
      }
      if (!inserted) return false;
      await createContentRepo(trx).incrementCounters(view.contentId, { viewCount: 1 });
      if (reader) {
        await addViewAggregates(trx, {
          day: view.day,
          contentId: view.contentId,
          tier: reader.tier,
          readerHash: reader.hash,
        });
      }
      return true;
    });
  }

  /** Deletes view rows of days before `day` (YYYY-MM-DD); returns how many. */
  async function pruneViewsBefore(day: string): Promise<number> {
    const result = await db.deleteFrom("content_view").where("day", "<", day).executeTakeFirst();
    await pruneReaderDaysBefore(db, day);
    return Number(result.numDeletedRows);
  }

  /** Likes (true) or unlikes (false); true when the stored state changed. */
  async function setLike(contentId: string, userId: string, liked: boolean, at: string): Promise<boolean> {
    return inTransaction(db, async (trx) => {
      let changed: unknown;
      try {
        changed = liked
          ? await trx
              .insertInto("content_like")
              .values({ contentId, userId, createdAt: at })
              .onConflict((oc) => oc.doNothing())
              .returning("contentId")
              .executeTakeFirst()
          : await trx
              .deleteFrom("content_like")
              .where("contentId", "=", contentId)
              .where("userId", "=", userId)
              .returning("contentId")
              .executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "content like");
      }
      if (!changed) return false;
      await createContentRepo(trx).incrementCounters(contentId, { likeCount: liked ? 1 : -1 });
      return true;
    });
  }

  async function isLiked(contentId: string, userId: string): Promise<boolean> {
    const row = await db
      .selectFrom("content_like")
      .select("contentId")
      .where("contentId", "=", contentId)
      .where("userId", "=", userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** One share per item, user, channel and day: true when this call counted it. */
  async function recordShare(
    contentId: string,
    userId: string,
    channel: ShareChannel,
    at: string,
  ): Promise<boolean> {
    return inTransaction(db, async (trx) => {
      let inserted: unknown;
      try {
        inserted = await trx
          .insertInto("content_share")
          .values({ id: uuidv7(), contentId, userId, channel, day: at.slice(0, 10), createdAt: at })
          .onConflict((oc) => oc.columns(["contentId", "userId", "channel", "day"]).doNothing())
          .returning("id")
          .executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, "content share");
      }
      if (!inserted) return false;
      await createContentRepo(trx).incrementCounters(contentId, { shareCount: 1 });
      return true;
    });
  }

  /** The counters of an item, and whether `userId` likes it (null without a user); null when absent. */
  async function countsFor(
    contentId: string,
    userId: string | null,
  ): Promise<(EngagementCounts & { liked: boolean | null }) | null> {
    const row = await db
      .selectFrom("content")
      .select(["viewCount", "likeCount", "shareCount"])
      .select((eb) =>
        userId === null
          ? sql<null>`null`.as("liked")
          : eb
              .exists(
                eb
                  .selectFrom("content_like")
                  .select("content_like.contentId")
                  .whereRef("content_like.contentId", "=", "content.id")
                  .where("content_like.userId", "=", userId),
              )
              .as("liked"),
      )
      .where("id", "=", contentId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      viewCount: Number(row.viewCount),
      likeCount: Number(row.likeCount),
      shareCount: Number(row.shareCount),
      liked: userId === null ? null : toBool(row.liked as boolean | number | null),
    };
  }

  /** The lessons of `courseId` that `userId` completed, with when. */
  async function completedLessons(
    userId: string,
    courseId: string,
  ): Promise<Pick<Selectable<DB["course_progress"]>, "lessonId" | "completedAt">[]> {
    return db
      .selectFrom("course_progress")
      .select(["lessonId", "completedAt"])
      .where("userId", "=", userId)
      .where("courseId", "=", courseId)
      .execute();
  }

  /** Marks a lesson complete (true) or not (false); idempotent. */
  async function setLessonComplete(
    userId: string,
    courseId: string,
    lessonId: string,
    done: boolean,
    at: string,
  ): Promise<void> {
    try {
      if (done) {
        await db
          .insertInto("course_progress")
          .values({ userId, courseId, lessonId, completedAt: at })
          .onConflict((oc) => oc.doNothing())
          .execute();
      } else {
        await db
          .deleteFrom("course_progress")
          .where("userId", "=", userId)
          .where("courseId", "=", courseId)
          .where("lessonId", "=", lessonId)
          .execute();
      }
    } catch (error) {
      rethrowConstraintError(error, "course progress");
    }
  }

  /**
   * Before a user is deleted: removes their likes and takes them off the like counters (the
   * foreign key would drop the rows but leave the counters). Shares stay counted (they happened);
   * progress rows go with the user (ON DELETE CASCADE).
   */
  async function forgetUserLikes(userId: string): Promise<number> {
    return inTransaction(db, async (trx) => {
      const removed = await trx
        .deleteFrom("content_like")
        .where("userId", "=", userId)
        .returning("contentId")
        .execute();
      const contents = createContentRepo(trx);
      for (const { contentId } of removed) await contents.incrementCounters(contentId, { likeCount: -1 });
      return removed.length;
    });
  }

  return {
    forgetUserLikes,
    recordView,
    pruneViewsBefore,
    setLike,
    isLiked,
    recordShare,
    countsFor,
    completedLessons,
    setLessonComplete,
  };
}

export type EngagementRepo = ReturnType<typeof createEngagementRepo>;
