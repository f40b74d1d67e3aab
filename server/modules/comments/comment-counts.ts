/**
 * The comment counters kept in step (migration 031): `content.commentCount` is the number of
 * published comments on the item (replies included) and `comment.replyCount` the number of
 * published direct replies of a comment. Every write that creates, deletes or changes the status
 * of a comment calls this in the same transaction, with the status before (null: did not exist)
 * and after (null: deleted).
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/schema.ts";

export interface CountedComment {
  contentId: string;
  parentCommentId: string | null;
}

export async function adjustCommentCounts(
  trx: Kysely<DB>,
  comment: CountedComment,
  before: string | null,
  after: string | null,
): Promise<void> {
  const delta = (after === "published" ? 1 : 0) - (before === "published" ? 1 : 0);
  if (delta === 0) return;
  await trx
    .updateTable("content")
    .set({ commentCount: atLeastZero("commentCount", delta) })
    .where("id", "=", comment.contentId)
    .execute();
  if (comment.parentCommentId) {
    await trx
      .updateTable("comment")
      .set({ replyCount: atLeastZero("replyCount", delta) })
      .where("id", "=", comment.parentCommentId)
      .execute();
  }
}

/** `column + delta`, never below zero (portable: no max()/greatest()). */
function atLeastZero(column: string, delta: number) {
  return sql<number>`case when ${sql.ref(column)} + ${delta} < 0 then 0 else ${sql.ref(column)} + ${delta} end`;
}
