/**
 * The shapes of the comments API (issue 15): limits, sorts, report reasons, the input schemas and
 * their 400s naming the field, the keyset cursor, and a comment as readers see it (`toViews`:
 * author names, the reader's likes, the body rendered through `comment-render.ts`).
 */
import type { Kysely } from "kysely";
import { z } from "zod";
import {
  decodeCursor as decodeKeysetCursor,
  encodeCursor as encodeKeysetCursor,
} from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { BadInputError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { renderCommentBody } from "./comment-render.ts";

export const COMMENT_BODY_LIMIT = 5000;
export const COMMENT_SORTS = ["oldest", "newest", "top"] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];
export const REPORT_REASONS = ["spam", "abuse", "off-topic", "other"] as const;
export const PRE_MODERATION = ["off", "new-commenters", "all"] as const;
/** Comments a user may post in a day (the per-minute limit is the API rate limiter's `c:u`). */
export const COMMENTS_PER_DAY = 50;

export interface CommentAuthorView {
  id: string;
  name: string;
}

/** A comment as readers see it (`body` and `bodyHtml` empty for a deleted comment). */
export interface CommentView {
  id: string;
  contentId: string;
  parentCommentId: string | null;
  author: CommentAuthorView | null;
  body: string;
  bodyHtml: string;
  status: string;
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
  replyCount: number;
  likeCount: number;
  likedByMe: boolean;
  mine: boolean;
}

export interface CommentThreadPage {
  items: CommentView[];
  nextCursor: string | null;
  /** Published comments on the item (replies included). */
  total: number;
  /** Whether the caller may post (signed in, may read the item, not banned). */
  canComment: boolean;
  /** A visitor on a readable item: the count only, and an invitation to sign in. */
  signInRequired: boolean;
}

export type Row = {
  id: string;
  contentId: string;
  authorId: string | null;
  body: string;
  parentCommentId: string | null;
  status: string;
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
  replyCount: number;
  likeCount: number;
};

const cursorSchema = z.strictObject({
  l: z.number().int().optional(),
  c: z.string().max(40),
  i: z.string().max(200),
});
type Cursor = z.infer<typeof cursorSchema>;

export const encodeCursor = (cursor: Cursor) => encodeKeysetCursor(cursor);
export function decodeCursor(value: string): Cursor {
  try {
    return decodeKeysetCursor(cursorSchema, value);
  } catch {
    throw new BadInputError("Invalid cursor: start again from the first page.", {
      field: { cursor: "is not a cursor of this list" },
    });
  }
}

export const listQuerySchema = z.object({
  sort: z.enum(COMMENT_SORTS).default("oldest"),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const createSchema = z.object({
  body: z.string({ error: "is required" }),
  parentCommentId: z.string().min(1).max(200).nullish(),
  requestKey: z.string().min(1).max(100).nullish(),
});

export const reportSchema = z.object({
  reason: z.enum(REPORT_REASONS, { error: `must be one of ${REPORT_REASONS.join(", ")}` }),
  note: z.string().max(500, "must be at most 500 characters").nullish(),
});

export function fieldError(field: string, problem: string): BadInputError {
  return new BadInputError(`Invalid ${field}: ${problem}`, { field: { [field]: problem } });
}

/** The body trimmed, 1..5000 characters, else 400 naming `body`. */
export function checkBody(value: unknown): string {
  if (typeof value !== "string") throw fieldError("body", "is required");
  const body = value.trim();
  if (body.length === 0) throw fieldError("body", "cannot be empty");
  if (body.length > COMMENT_BODY_LIMIT)
    throw fieldError("body", `must be at most ${COMMENT_BODY_LIMIT} characters`);
  return body;
}

export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? "input");
  throw fieldError(field, issue?.message ?? "is invalid");
}

export const COLUMNS = [
  "comment.id",
  "comment.contentId",
  "comment.authorId",
  "comment.body",
  "comment.parentCommentId",
  "comment.status",
  "comment.createdAt",
  "comment.editedAt",
  "comment.deletedAt",
  "comment.replyCount",
  "comment.likeCount",
] as const;

export async function toViews(db: Kysely<DB>, actor: Actor, rows: Row[]): Promise<CommentView[]> {
  const me = actor.kind === "user" ? actor.userId : null;
  const authorIds = [...new Set(rows.map((r) => r.authorId).filter((v): v is string => !!v))];
  const authors = authorIds.length
    ? await db
        .selectFrom("user")
        .select(["id", "name", "displayName", "username"])
        .where("id", "in", authorIds)
        .execute()
    : [];
  const names = new Map(authors.map((a) => [a.id, a.displayName || a.name || a.username || "Reader"]));
  const liked = new Set<string>();
  if (me && rows.length) {
    const likes = await db
      .selectFrom("comment_like")
      .select("commentId")
      .where("userId", "=", me)
      .where(
        "commentId",
        "in",
        rows.map((r) => r.id),
      )
      .execute();
    for (const l of likes) liked.add(l.commentId);
  }
  return rows.map((r) => {
    const deleted = r.deletedAt !== null;
    return {
      id: r.id,
      contentId: r.contentId,
      parentCommentId: r.parentCommentId,
      author:
        deleted || !r.authorId ? null : { id: r.authorId, name: names.get(r.authorId) ?? "Former member" },
      body: deleted ? "" : r.body,
      bodyHtml: deleted ? "" : renderCommentBody(r.body),
      status: r.status,
      createdAt: r.createdAt,
      editedAt: r.editedAt,
      deleted,
      replyCount: Number(r.replyCount),
      likeCount: Number(r.likeCount),
      likedByMe: liked.has(r.id),
      mine: me !== null && r.authorId === me && !deleted,
    };
  });
}
