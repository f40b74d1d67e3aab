/**
 * The moderation console's demo data: one published comment reported by a reader and one comment
 * held for pre-moderation, so a fresh hub's /moderate queue has something in it. Idempotent: a
 * comment is identified by its item, author and time, a report by its comment and reporter.
 */
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { adjustCommentCounts } from "../../modules/comments/comment-counts.ts";
import type { DB } from "../schema.ts";
import { inTransaction } from "../transaction.ts";

const ITEM_SLUG = "iterating-on-prompts-with-test-cases";

const REPORTED = {
  author: "free",
  reporter: "basic",
  createdAt: "2026-02-14T09:30:00.000Z",
  reportedAt: "2026-02-14T11:10:00.000Z",
  body: "Honestly this whole article is useless, anyone who needs test cases for a prompt should not be using these tools. Check my channel for the REAL tricks, link in my profile!!!",
  reason: "spam",
  note: "Self-promotion and insulting to other readers.",
};

const PENDING = {
  author: "basic",
  createdAt: "2026-02-15T16:45:00.000Z",
  body: "Could the article add a test case for questions that have no good answer? I would like to check that the prompt makes the model say it is unsure instead of inventing something.",
};

/** The comments this adds (item, author, status), for the seed's tests. */
export const DEMO_MODERATION_COMMENTS: readonly {
  contentSlug: string;
  author: string;
  status: string;
  body: string;
}[] = [
  { contentSlug: ITEM_SLUG, author: REPORTED.author, status: "published", body: REPORTED.body },
  { contentSlug: ITEM_SLUG, author: PENDING.author, status: "pending", body: PENDING.body },
];

/** Seeds the two comments (and the report); returns how many rows it added. */
export async function seedModerationDemo(
  db: Kysely<DB>,
  userIds: ReadonlyMap<string, string>,
): Promise<number> {
  const item = await db.selectFrom("content").select("id").where("slug", "=", ITEM_SLUG).executeTakeFirst();
  const authorId = userIds.get(REPORTED.author);
  const reporterId = userIds.get(REPORTED.reporter);
  const pendingAuthorId = userIds.get(PENDING.author);
  if (!item || !authorId || !reporterId || !pendingAuthorId)
    throw new Error("moderation demo: unknown item or account");
  let added = 0;
  const find = (author: string, createdAt: string) =>
    db
      .selectFrom("comment")
      .select("id")
      .where("contentId", "=", item.id)
      .where("authorId", "=", author)
      .where("createdAt", "=", createdAt)
      .executeTakeFirst();

  if (!(await find(authorId, REPORTED.createdAt))) {
    await inTransaction(db, async (trx) => {
      const id = uuidv7();
      await trx
        .insertInto("comment")
        .values({
          id,
          contentId: item.id,
          authorId,
          body: REPORTED.body,
          parentCommentId: null,
          status: "published",
          reportCount: 1,
          createdAt: REPORTED.createdAt,
          updatedAt: REPORTED.createdAt,
        })
        .execute();
      await adjustCommentCounts(trx, { contentId: item.id, parentCommentId: null }, null, "published");
      await trx
        .insertInto("comment_report")
        .values({
          id: uuidv7(),
          commentId: id,
          reporterId,
          reason: REPORTED.reason,
          note: REPORTED.note,
          createdAt: REPORTED.reportedAt,
          resolvedAt: null,
          resolvedBy: null,
          resolution: null,
        })
        .execute();
    });
    added += 2;
  }

  if (!(await find(pendingAuthorId, PENDING.createdAt))) {
    await db
      .insertInto("comment")
      .values({
        id: uuidv7(),
        contentId: item.id,
        authorId: pendingAuthorId,
        body: PENDING.body,
        parentCommentId: null,
        status: "pending",
        createdAt: PENDING.createdAt,
        updatedAt: PENDING.createdAt,
      })
      .execute();
    added += 1;
  }
  return added;
}
