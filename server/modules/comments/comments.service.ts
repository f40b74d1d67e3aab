/**
 * Comment operations of the data API (docs/decisions/007-data-rules.md). Deny by default:
 * - read: whoever may read the body of the content the comment belongs to (visible content —
 *   published, or unpublished for content writers, `content/readable-sql.ts` — whose tier the
 *   reader's reaches and, when it names roles, with a role of the reader), and only
 *   published comments, plus the reader's own. Moderators (platform admins, ContentManager and
 *   Editor roles) and service credentials with `content:read:all` read every comment. A comment
 *   the reader may not read is NOT_FOUND (lists leave it out, in SQL); API keys and service
 *   credentials need `content:read`.
 * - create: signed-in users (authorId is the actor), on content whose body they may read.
 *   content.commentCount goes up in the same transaction.
 * - update: the author changes the body; moderators change the status (published, hidden,
 *   pending). Versioned: a stale version → CONFLICT.
 * - delete: the author or a moderator; the replies go with it and commentCount goes down by the
 *   number removed, in the same transaction.
 */

import { type Kysely, type RawBuilder, sql } from "kysely";
import { z } from "zod";
import { canAccessContent, hasAdminScope } from "../../../core/index.ts";
import { dialectOf } from "../../db/dialect.ts";
import type { FilterFields } from "../../db/filters.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { ForbiddenError, NotFoundError } from "../../errors.ts";
import { type Actor, readsAllContent, requireReadScope, requireUser } from "../actor.ts";
import { type Content, createContentRepo } from "../content/content.repo.ts";
import { visibleSql as contentVisibleSql, isVisible, readableBy } from "../content/readable-sql.ts";
import {
  type Connection,
  direction,
  filterConditions,
  type ListArgs,
  type ListByKeyArgs,
  parseInput,
  requireId,
  requireVersion,
  sortKeyConditions,
  toConnection,
} from "../data-service.ts";
import { adjustCommentCounts } from "./comment-counts.ts";
import { createCommentThreads, type ThreadDeps } from "./comment-threads.ts";
import { type Comment, createCommentsRepo } from "./comments.repo.ts";

export type { Comment };

export const COMMENT_FILTER_FIELDS: FilterFields = {
  id: "string",
  contentId: "string",
  authorId: "string",
  body: "string",
  parentCommentId: "string",
  status: "string",
  createdAt: "datetime",
  updatedAt: "datetime",
  version: "number",
};

export const COMMENT_STATUSES = ["published", "pending", "hidden", "removed"] as const;
export const COMMENT_BODY_MAX = 5000;

const body = z
  .string()
  .max(COMMENT_BODY_MAX)
  .refine((v) => v.trim().length > 0, "cannot be empty");

export const createCommentInput = z.strictObject({
  contentId: z.string().min(1).max(200),
  body,
  parentCommentId: z.string().min(1).max(200).nullable().optional(),
});

export const updateCommentInput = z.strictObject({ body, status: z.enum(COMMENT_STATUSES) }).partial();

export interface CommentsServiceDeps {
  db: Kysely<DB>;
  /** The live system settings (`comments.enabled`, `comments.preModeration`); defaults without. */
  settings?: ThreadDeps["settings"];
  now?: () => number;
}

/**
 * Who moderates comments: signed-in content managers, platform admins and the owner (core admin
 * scope "moderation"; an organisation admin never). The /moderate console uses the same rule.
 */
export function isModerator(actor: Actor): boolean {
  return actor.kind === "user" && actor.userId !== null && hasAdminScope(actor.groups, "moderation");
}

function readsEverything(actor: Actor): boolean {
  return isModerator(actor) || readsAllContent(actor);
}

export function createCommentsService(deps: CommentsServiceDeps) {
  const { db } = deps;
  const repo = createCommentsRepo(db);
  const contents = createContentRepo(db);
  const dialect = dialectOf(db);

  /**
   * "ok": the content is visible (`readable-sql.ts`: published, or the actor sees unpublished
   * items) and its body readable, or the actor reads everything; "locked": visible, body not readable.
   */
  function contentStanding(actor: Actor, content: Content | null): "missing" | "locked" | "ok" {
    if (!content) return "missing";
    if (readsEverything(actor)) return "ok";
    if (!isVisible(actor, content)) return "missing";
    const readable = canAccessContent(
      { minTier: content.tier, rolesRequired: content.rolesRequired },
      { tier: actor.access.tier, roles: actor.access.roles },
    );
    return readable ? "ok" : "locked";
  }

  function commentVisible(actor: Actor, comment: Comment): boolean {
    if (readsEverything(actor)) return true;
    if (comment.status === "published") return true;
    return comment.status === "pending" && actor.userId !== null && comment.authorId === actor.userId;
  }

  /** The read rule in SQL (null: everything). Mirrors `contentStanding` and `commentVisible`. */
  function visibleSql(actor: Actor): RawBuilder<boolean> | null {
    if (readsEverything(actor)) return null;
    const visible = contentVisibleSql(actor, "c") ?? sql<boolean>`1 = 1`;
    const contentOk = sql`exists (select 1 from ${sql.table("content")} as c where ${sql.ref("c.id")} = ${sql.ref("comment.contentId")} and ${visible} and ${readableBy(actor.access, dialect, "c")})`;
    const own = actor.userId
      ? sql` or (${sql.ref("comment.status")} = 'pending' and ${sql.ref("comment.authorId")} = ${actor.userId})`
      : sql``;
    return sql<boolean>`(${contentOk} and (${sql.ref("comment.status")} = 'published'${own}))`;
  }

  async function list(
    actor: Actor,
    keyConditions: RawBuilder<boolean>[],
    sortColumn: string | null,
    args: ListByKeyArgs,
  ): Promise<Connection<Comment>> {
    requireReadScope(actor, "content:read");
    const visible = visibleSql(actor);
    const page = await repo.listPage({
      conditions: [
        ...(visible ? [visible] : []),
        ...keyConditions,
        ...filterConditions(COMMENT_FILTER_FIELDS, args.filter, dialect, "comment"),
      ],
      sortColumn,
      direction: direction(args.sortDirection),
      limit: args.limit,
      cursor: args.nextToken,
    });
    return toConnection(page, (c) => c);
  }

  /** The comment if the actor may read it, else NotFoundError (never the text). */
  async function readable(actor: Actor, id: string): Promise<Comment> {
    requireReadScope(actor, "content:read");
    const comment = await repo.getById(requireId(id));
    if (!comment || !commentVisible(actor, comment)) throw new NotFoundError("comment", id);
    const content = await contents.getById(comment.contentId);
    if (contentStanding(actor, content) !== "ok") throw new NotFoundError("comment", id);
    return comment;
  }

  const threads = createCommentThreads({
    db,
    now: deps.now ?? Date.now,
    settings: deps.settings,
    isModerator,
    async standing(actor, key) {
      const content =
        typeof key === "string" && key.length > 0 && key.length <= 300
          ? await contents.getByIdOrSlug(key)
          : null;
      return { content, standing: contentStanding(actor, content) };
    },
  });

  return {
    /** The reader-facing operations (threads, create, edit/delete own, like, report). */
    threads,

    get: async (actor: Actor, id: string): Promise<Comment> => readable(actor, id),

    /** Every comment the actor may read, by id. */
    list: async (actor: Actor, args: ListArgs = {}) => list(actor, [], null, args),

    /**
     * listCommentByContentIdAndCreatedAt (index contentId, createdAt, id). Content the actor
     * cannot see → NOT_FOUND; content whose body is locked for the actor → FORBIDDEN.
     */
    async listByContentIdAndCreatedAt(actor: Actor, contentId: string, args: ListByKeyArgs = {}) {
      requireReadScope(actor, "content:read");
      const standing = contentStanding(actor, await contents.getById(requireId(contentId, "contentId")));
      if (standing === "missing") throw new NotFoundError("content", contentId);
      if (standing === "locked") throw new ForbiddenError("your plan does not include this content");
      return list(
        actor,
        [
          sql<boolean>`${sql.ref("comment.contentId")} = ${contentId}`,
          ...sortKeyConditions("createdAt", "datetime", args.sortKey, dialect),
        ],
        "createdAt",
        args,
      );
    },

    /** listCommentByAuthorIdAndCreatedAt (index authorId, createdAt, id): only what the actor may read. */
    async listByAuthorIdAndCreatedAt(actor: Actor, authorId: string, args: ListByKeyArgs = {}) {
      return list(
        actor,
        [
          sql<boolean>`${sql.ref("comment.authorId")} = ${requireId(authorId, "authorId")}`,
          ...sortKeyConditions("createdAt", "datetime", args.sortKey, dialect),
        ],
        "createdAt",
        args,
      );
    },

    /**
     * The data API's create: the same rules as the content page and REST (pre-moderation,
     * restrictions, daily limit; `threads.create`).
     */
    async create(actor: Actor, input: unknown): Promise<Comment> {
      requireUser(actor);
      const data = parseInput(createCommentInput, input);
      const { comment } = await threads.create(actor, data.contentId, {
        body: data.body,
        parentCommentId: data.parentCommentId ?? null,
      });
      const created = await repo.getById(comment.id);
      if (!created) throw new NotFoundError("comment", comment.id);
      return created;
    },

    async update(actor: Actor, id: string, expectedVersion: number, patch: unknown): Promise<Comment> {
      const userId = requireUser(actor);
      const version = requireVersion(expectedVersion);
      const comment = await readable(actor, id);
      const data = parseInput(updateCommentInput, patch);
      if (data.body !== undefined && comment.authorId !== userId) {
        throw new ForbiddenError("only the author can edit a comment");
      }
      // A body edit follows the page's and REST's rules (not deleted or removed, author not banned).
      if (data.body !== undefined) await threads.assertEditable(actor, id);
      if (data.status !== undefined && !isModerator(actor)) {
        throw new ForbiddenError("only moderators can change a comment's status");
      }
      if (data.status === undefined) return repo.update(id, data, version);
      return inTransaction(db, async (trx) => {
        const updated = await createCommentsRepo(trx).update(id, data, version);
        await adjustCommentCounts(trx, comment, comment.status, updated.status);
        return updated;
      });
    },

    /** Deletes the comment and its replies; returns the comment. */
    async delete(actor: Actor, id: string): Promise<Comment> {
      const userId = requireUser(actor);
      const comment = await readable(actor, id);
      if (comment.authorId !== userId && !isModerator(actor)) {
        throw new ForbiddenError("only the author or a moderator can delete a comment");
      }
      await inTransaction(db, async (trx) => {
        const comments = createCommentsRepo(trx);
        const publishedReplies =
          (await comments.countThread(id, "published")) - (comment.status === "published" ? 1 : 0);
        if (!(await comments.delete(id))) throw new NotFoundError("comment", id);
        await adjustCommentCounts(trx, comment, comment.status, null);
        if (publishedReplies > 0) {
          await createContentRepo(trx).incrementCounters(comment.contentId, {
            commentCount: -publishedReplies,
          });
        }
      });
      return comment;
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
