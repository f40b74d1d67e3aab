/**
 * The reader-facing comment operations (issue 15), shared by the content page, REST and GraphQL:
 * threads (top-level comments paged and sorted, replies under each), create with pre-moderation,
 * commenter restrictions, a daily limit and an idempotency key, edit and delete own (a comment
 * with replies becomes a tombstone), like and report. Counts stay in step through
 * `adjustCommentCounts` in the same transaction as every create, delete and status change.
 *
 * Visibility: only readers who may read the item's body see its comments (visitors see the count
 * of a public item); hidden and removed comments are seen by moderators only, pending ones by
 * their author and moderators; the replies of a comment one may not see are not shown either.
 */
import { type Kysely, sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { nowIso } from "../../db/values.ts";
import {
  AppError,
  ConflictError,
  ForbiddenError,
  isUniqueViolation,
  NotFoundError,
  RateLimitedError,
} from "../../errors.ts";
import { type Actor, requireReadScope, requireUser } from "../actor.ts";
import type { Content } from "../content/content.repo.ts";
import { commentPosted } from "../webhooks/webhook-events.ts";
import { adjustCommentCounts } from "./comment-counts.ts";
import {
  COLUMNS,
  COMMENTS_PER_DAY,
  type CommentSort,
  type CommentThreadPage,
  type CommentView,
  checkBody,
  createSchema,
  decodeCursor,
  encodeCursor,
  fieldError,
  listQuerySchema,
  PRE_MODERATION,
  parseInput,
  type Row,
  reportSchema,
  toViews,
} from "./comment-model.ts";

export interface ThreadDeps {
  db: Kysely<DB>;
  now: () => number;
  /** The live system settings (`comments.enabled`, `comments.preModeration`). */
  settings?: { value(key: string): unknown; check?(): Promise<void> };
  isModerator(actor: Actor): boolean;
  /** The item by id or slug, with whether the actor may read its body. */
  standing(
    actor: Actor,
    contentKey: string,
  ): Promise<{ content: Content | null; standing: "missing" | "locked" | "ok" }>;
}

export function createCommentThreads(deps: ThreadDeps) {
  const { db, isModerator } = deps;

  async function setting(key: string): Promise<unknown> {
    if (!deps.settings) return undefined;
    await deps.settings.check?.().catch(() => {});
    return deps.settings.value(key);
  }
  const enabled = async () => (await setting("comments.enabled")) !== false;
  const preModeration = async () => {
    const value = await setting("comments.preModeration");
    return (PRE_MODERATION as readonly unknown[]).includes(value) ? (value as string) : "new-commenters";
  };

  async function requireEnabled() {
    if (!(await enabled())) throw new AppError("NOT_FOUND", "Comments are turned off on this site.");
  }

  /** The item, readable by the actor, else 404 (unknown / invisible) or 403 (locked). */
  async function readableContent(actor: Actor, contentKey: string): Promise<Content> {
    requireReadScope(actor, "content:read");
    const { content, standing } = await deps.standing(actor, contentKey);
    if (!content || standing === "missing") throw new NotFoundError("content", contentKey);
    if (standing === "locked")
      throw new ForbiddenError("Your plan does not include this item, so its comments are closed to you.");
    return content;
  }

  async function activeRestriction(userId: string): Promise<"muted" | "banned" | null> {
    const row = await db
      .selectFrom("commenter_restriction")
      .select(["kind", "until"])
      .where("userId", "=", userId)
      .executeTakeFirst();
    if (!row) return null;
    if (row.until && Date.parse(row.until) <= deps.now()) return null;
    return row.kind;
  }

  /** Which statuses of other people's comments / own comments the actor sees. */
  function visibleWhere(actor: Actor) {
    const moderator = isModerator(actor);
    const me = actor.kind === "user" ? actor.userId : null;
    return (qb: import("kysely").ExpressionBuilder<DB, "comment">) => {
      if (moderator) return qb.lit(true).$castTo<boolean>() as never;
      const published = qb("comment.status", "=", "published");
      return me
        ? qb.or([published, qb.and([qb("comment.status", "=", "pending"), qb("comment.authorId", "=", me)])])
        : published;
    };
  }

  function canSee(actor: Actor, row: Row): boolean {
    if (isModerator(actor)) return true;
    if (row.status === "published") return true;
    return row.status === "pending" && actor.kind === "user" && actor.userId === row.authorId;
  }

  async function getRow(id: string): Promise<Row | undefined> {
    if (typeof id !== "string" || id.length === 0 || id.length > 200) return undefined;
    return db.selectFrom("comment").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  }

  /** The comment if the actor may see it (and read its item), else 404. */
  async function visibleComment(actor: Actor, id: string): Promise<{ row: Row; content: Content }> {
    requireReadScope(actor, "content:read");
    const row = await getRow(id);
    if (!row || !canSee(actor, row)) throw new NotFoundError("comment", id);
    const { content, standing } = await deps.standing(actor, row.contentId);
    if (!content || standing !== "ok") throw new NotFoundError("comment", id);
    return { row, content };
  }

  async function page(
    actor: Actor,
    where: { contentId: string; parentCommentId: string | null },
    sort: CommentSort,
    cursorValue: string | undefined,
    limit: number,
  ): Promise<{ items: CommentView[]; nextCursor: string | null }> {
    const cursor = cursorValue ? decodeCursor(cursorValue) : null;
    let query = db
      .selectFrom("comment")
      .select(COLUMNS)
      .where("comment.contentId", "=", where.contentId)
      .where(visibleWhere(actor));
    query =
      where.parentCommentId === null
        ? query.where("comment.parentCommentId", "is", null)
        : query.where("comment.parentCommentId", "=", where.parentCommentId);
    if (sort === "top") {
      if (cursor) {
        const l = cursor.l ?? 0;
        query = query.where((eb) =>
          eb.or([
            eb("comment.likeCount", "<", l),
            eb.and([
              eb("comment.likeCount", "=", l),
              eb(eb.refTuple("comment.createdAt", "comment.id"), ">", eb.tuple(cursor.c, cursor.i)),
            ]),
          ]),
        );
      }
      query = query
        .orderBy("comment.likeCount", "desc")
        .orderBy("comment.createdAt", "asc")
        .orderBy("comment.id", "asc");
    } else {
      const dir = sort === "newest" ? "desc" : "asc";
      if (cursor) {
        query = query.where((eb) =>
          eb(
            eb.refTuple("comment.createdAt", "comment.id"),
            dir === "asc" ? ">" : "<",
            eb.tuple(cursor.c, cursor.i),
          ),
        );
      }
      query = query.orderBy("comment.createdAt", dir).orderBy("comment.id", dir);
    }
    const rows = (await query.limit(limit + 1).execute()) as Row[];
    const more = rows.length > limit;
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    const nextCursor =
      more && last
        ? encodeCursor({
            ...(sort === "top" ? { l: Number(last.likeCount) } : {}),
            c: last.createdAt,
            i: last.id,
          })
        : null;
    return { items: await toViews(db, actor, shown), nextCursor };
  }

  async function mayPost(actor: Actor): Promise<boolean> {
    if (actor.kind !== "user" || !actor.userId) return false;
    return (await activeRestriction(actor.userId)) !== "banned";
  }

  async function heldForReview(actor: Actor, userId: string, restriction: string | null): Promise<boolean> {
    if (isModerator(actor)) return false;
    if (restriction === "muted") return true;
    const mode = await preModeration();
    if (mode === "all") return true;
    if (mode === "off") return false;
    const earlier = await db
      .selectFrom("comment")
      .select("id")
      .where("authorId", "=", userId)
      .where("status", "=", "published")
      .limit(1)
      .executeTakeFirst();
    return !earlier;
  }

  async function checkDailyLimit(userId: string) {
    const since = new Date(deps.now() - 86_400_000).toISOString();
    const rows = await db
      .selectFrom("comment")
      .select("createdAt")
      .where("authorId", "=", userId)
      .where("createdAt", ">", since)
      .orderBy("createdAt", "asc")
      .limit(COMMENTS_PER_DAY)
      .execute();
    if (rows.length >= COMMENTS_PER_DAY) {
      const first = Date.parse(rows[0]!.createdAt);
      const retryAfterS = Math.max(1, Math.ceil((first + 86_400_000 - deps.now()) / 1000));
      throw new RateLimitedError(
        `Too many comments from this account (at most ${COMMENTS_PER_DAY} a day). Try again in ${retryAfterS} s.`,
        retryAfterS,
      );
    }
  }

  async function byRequestKey(userId: string, requestKey: string): Promise<Row | undefined> {
    return db
      .selectFrom("comment")
      .select(COLUMNS)
      .where("authorId", "=", userId)
      .where("requestKey", "=", requestKey)
      .executeTakeFirst();
  }

  /** Creates a comment; returns it with `created: false` when the request key was seen before. */
  async function create(
    actor: Actor,
    contentKey: string,
    input: unknown,
    options: { charge?: () => Promise<void> } = {},
  ): Promise<{ comment: CommentView; created: boolean }> {
    const userId = requireUser(actor);
    await requireEnabled();
    const data = parseInput(createSchema, input);
    const body = checkBody(data.body);
    const content = await readableContent(actor, contentKey);
    const restriction = await activeRestriction(userId);
    if (restriction === "banned") throw new ForbiddenError("You can no longer comment.");
    if (data.requestKey) {
      const existing = await byRequestKey(userId, data.requestKey);
      if (existing) return { comment: (await toViews(db, actor, [existing]))[0]!, created: false };
    }
    let parentId: string | null = null;
    if (data.parentCommentId) {
      const parent = await getRow(data.parentCommentId);
      if (!parent || parent.contentId !== content.id || !canSee(actor, parent)) {
        throw fieldError("parentCommentId", "is not a comment on this item");
      }
      if (parent.deletedAt !== null)
        throw new ConflictError("That comment was deleted, so it cannot be replied to.");
      if (parent.status !== "published") {
        throw new ConflictError(
          parent.status === "pending"
            ? "That comment is awaiting review, so it cannot be replied to yet."
            : "That comment is no longer shown, so it cannot be replied to.",
        );
      }
      // Two levels: a reply to a reply joins the thread of the top-level comment.
      if (parent.parentCommentId) {
        const top = await getRow(parent.parentCommentId);
        if (top?.status !== "published")
          throw new ConflictError("That thread is no longer shown, so it cannot be replied to.");
        parentId = top.id;
      } else parentId = parent.id;
    }
    await checkDailyLimit(userId);
    await options.charge?.();
    const status = (await heldForReview(actor, userId, restriction)) ? "pending" : "published";
    const at = new Date(deps.now()).toISOString();
    try {
      const row = await inTransaction(db, async (trx) => {
        const inserted = (await trx
          .insertInto("comment")
          .values({
            id: uuidv7(),
            contentId: content.id,
            authorId: userId,
            body,
            parentCommentId: parentId,
            status,
            createdAt: at,
            updatedAt: at,
            requestKey: data.requestKey ?? null,
          })
          .returning(COLUMNS.map((c) => c.replace("comment.", "")) as never)
          .executeTakeFirstOrThrow()) as unknown as Row;
        await adjustCommentCounts(trx, { contentId: content.id, parentCommentId: parentId }, null, status);
        return inserted;
      });
      await commentPosted(db, row); // the comment.posted webhook event (decision 037; never throws)
      return { comment: (await toViews(db, actor, [row]))[0]!, created: true };
    } catch (error) {
      if (data.requestKey && isUniqueViolation(error)) {
        const existing = await byRequestKey(userId, data.requestKey);
        if (existing) return { comment: (await toViews(db, actor, [existing]))[0]!, created: false };
      }
      throw error;
    }
  }

  async function ownComment(actor: Actor, id: string): Promise<Row> {
    const userId = requireUser(actor);
    const { row } = await visibleComment(actor, id);
    if (row.authorId !== userId || row.deletedAt !== null)
      throw new ForbiddenError("You can only change your own comments.");
    return row;
  }

  async function assertEditable(actor: Actor, id: string): Promise<Row> {
    await requireEnabled();
    const row = await ownComment(actor, id);
    if (row.status === "removed") throw new ConflictError("A removed comment cannot be edited.");
    if ((await activeRestriction(row.authorId!)) === "banned")
      throw new ForbiddenError("You can no longer comment.");
    return row;
  }

  return {
    /** Top-level comments of an item, paged; visitors get the count of a public item only. */
    async listThreads(actor: Actor, contentKey: string, query: unknown): Promise<CommentThreadPage> {
      await requireEnabled();
      const q = parseInput(listQuerySchema, query);
      const content = await readableContent(actor, contentKey);
      const total = Number(content.commentCount ?? 0);
      if (actor.kind === "visitor")
        return { items: [], nextCursor: null, total, canComment: false, signInRequired: true };
      const result = await page(
        actor,
        { contentId: content.id, parentCommentId: null },
        q.sort,
        q.cursor,
        q.limit,
      );
      return { ...result, total, canComment: await mayPost(actor), signInRequired: false };
    },

    /** The replies of a comment (oldest first), paged. A comment one may not see: 404. */
    async listReplies(actor: Actor, commentId: string, query: unknown) {
      await requireEnabled();
      const q = parseInput(listQuerySchema, query);
      if (actor.kind === "visitor") throw new NotFoundError("comment", commentId);
      const { row } = await visibleComment(actor, commentId);
      return page(actor, { contentId: row.contentId, parentCommentId: row.id }, "oldest", q.cursor, q.limit);
    },

    async get(actor: Actor, id: string): Promise<CommentView> {
      const { row } = await visibleComment(actor, id);
      return (await toViews(db, actor, [row]))[0]!;
    },

    create,

    /** The author edits the body (not once removed or deleted); sets editedAt. */
    /** May the actor change this comment's body (own, not deleted or removed, not banned)? */
    assertEditable,

    async edit(actor: Actor, id: string, input: unknown): Promise<CommentView> {
      const row = await assertEditable(actor, id);
      const body = checkBody((input as { body?: unknown } | null)?.body);
      const at = nowIso();
      await db
        .updateTable("comment")
        .set((eb) => ({ body, editedAt: at, updatedAt: at, version: eb("version", "+", 1) }))
        .where("id", "=", id)
        .execute();
      return (await toViews(db, actor, [{ ...row, body, editedAt: at }]))[0]!;
    },

    /** The author deletes: with replies, a tombstone ("[deleted]"); without, the row goes. */
    async remove(actor: Actor, id: string): Promise<{ id: string; tombstone: boolean }> {
      const row = await ownComment(actor, id);
      return inTransaction(db, async (trx) => {
        const replies = await trx
          .selectFrom("comment")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("parentCommentId", "=", id)
          .executeTakeFirstOrThrow();
        const counted = { contentId: row.contentId, parentCommentId: row.parentCommentId };
        if (Number(replies.n) > 0) {
          const at = nowIso();
          await trx
            .updateTable("comment")
            .set((eb) => ({ body: "", deletedAt: at, updatedAt: at, version: eb("version", "+", 1) }))
            .where("id", "=", id)
            .execute();
          return { id, tombstone: true };
        }
        await trx.deleteFrom("comment").where("id", "=", id).execute();
        await adjustCommentCounts(trx, counted, row.status, null);
        // The last reply of a deleted comment: the "[deleted]" tombstone has nothing left to hold.
        if (row.parentCommentId) {
          const parent = await trx
            .selectFrom("comment")
            .select(["id", "status", "deletedAt", "contentId", "parentCommentId"])
            .where("id", "=", row.parentCommentId)
            .executeTakeFirst();
          const left = await trx
            .selectFrom("comment")
            .select("id")
            .where("parentCommentId", "=", row.parentCommentId)
            .limit(1)
            .executeTakeFirst();
          if (parent?.deletedAt && !left) {
            await trx.deleteFrom("comment").where("id", "=", parent.id).execute();
            await adjustCommentCounts(trx, parent, parent.status, null);
          }
        }
        return { id, tombstone: false };
      });
    },

    /** Likes or unlikes (idempotent); returns the new count. */
    async setLike(actor: Actor, id: string, liked: boolean): Promise<{ liked: boolean; likeCount: number }> {
      const userId = requireUser(actor);
      const { row } = await visibleComment(actor, id);
      if (row.deletedAt !== null) throw new ConflictError("A deleted comment cannot be liked.");
      // The like row decides, in one statement each way, so two requests at once (two tabs, a
      // double click, two processes) count once: a conflicting insert or a missing row changes
      // nothing, and the counter moves only with a row that was really added or removed.
      return inTransaction(db, async (trx) => {
        if (liked) {
          const added = await trx
            .insertInto("comment_like")
            .values({ commentId: id, userId, createdAt: nowIso() })
            .onConflict((oc) => oc.columns(["commentId", "userId"]).doNothing())
            .returning("userId")
            .executeTakeFirst();
          if (added) {
            await trx
              .updateTable("comment")
              .set((eb) => ({ likeCount: eb("likeCount", "+", 1) }))
              .where("id", "=", id)
              .execute();
          }
        } else {
          const removed = await trx
            .deleteFrom("comment_like")
            .where("commentId", "=", id)
            .where("userId", "=", userId)
            .returning("userId")
            .executeTakeFirst();
          if (removed) {
            await trx
              .updateTable("comment")
              .set({
                likeCount: sql<number>`case when ${sql.ref("likeCount")} > 0 then ${sql.ref("likeCount")} - 1 else 0 end`,
              })
              .where("id", "=", id)
              .execute();
          }
        }
        const after = await trx
          .selectFrom("comment")
          .select("likeCount")
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        return { liked, likeCount: Number(after.likeCount) };
      });
    },

    /** Reports a comment (one report per reader and comment: a second one changes nothing). */
    async report(actor: Actor, id: string, input: unknown): Promise<{ reported: true; created: boolean }> {
      const userId = requireUser(actor);
      const data = parseInput(reportSchema, input);
      const { row } = await visibleComment(actor, id);
      if (row.authorId === userId) throw fieldError("comment", "you cannot report your own comment");
      const existing = await db
        .selectFrom("comment_report")
        .select("id")
        .where("commentId", "=", id)
        .where("reporterId", "=", userId)
        .executeTakeFirst();
      if (existing) return { reported: true, created: false };
      try {
        await inTransaction(db, async (trx) => {
          await trx
            .insertInto("comment_report")
            .values({
              id: uuidv7(),
              commentId: id,
              reporterId: userId,
              reason: data.reason,
              note: data.note?.trim() || null,
              createdAt: nowIso(),
            })
            .execute();
          await trx
            .updateTable("comment")
            .set((eb) => ({ reportCount: eb("reportCount", "+", 1) }))
            .where("id", "=", id)
            .execute();
        });
      } catch (error) {
        if (isUniqueViolation(error)) return { reported: true, created: false };
        throw error;
      }
      return { reported: true, created: true };
    },
  };
}

export type CommentThreads = ReturnType<typeof createCommentThreads>;
