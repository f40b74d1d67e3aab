/**
 * Comments (spec §3 Comment): look-ups by content + createdAt and by author + createdAt.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { type KeysetQuery, keysetPage } from "../../db/keyset-page.ts";
import { clampLimit, decodeCursor, type Page, type PageOptions, toPage } from "../../db/pagination.ts";
import type { CommentTable, DB } from "../../db/schema.ts";
import { definedOnly, isoInput, nowIso } from "../../db/values.ts";
import { ConflictError, NotFoundError, rethrowConstraintError } from "../../errors.ts";
import { commentCursorSchema } from "./comments.schemas.ts";

export interface Comment {
  id: string;
  contentId: string;
  authorId: string | null;
  body: string;
  parentCommentId: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
  /** Optimistic concurrency: 1 on create, +1 on every update. */
  version: number;
}

export interface NewComment {
  id?: string;
  contentId: string;
  authorId: string | null;
  body: string;
  parentCommentId?: string | null;
  status?: string;
  createdAt?: string | Date;
}

export interface CommentPatch {
  body?: string;
  status?: string;
}

export interface CommentListFilter {
  /** Only these statuses (e.g. ["published"] for readers); omitted → every status. */
  status?: readonly string[];
}

type Row = Selectable<CommentTable>;

function fromRow(row: Row): Comment {
  return {
    id: row.id,
    contentId: row.contentId,
    authorId: row.authorId,
    body: row.body,
    parentCommentId: row.parentCommentId,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}

export function createCommentsRepo(db: Kysely<DB>) {
  async function listBy(
    column: "contentId" | "authorId",
    value: string,
    direction: "asc" | "desc",
    filter: CommentListFilter,
    page: PageOptions,
  ): Promise<Page<Comment>> {
    const limit = clampLimit(page.limit);
    const cursor = page.cursor ? decodeCursor(commentCursorSchema, page.cursor) : null;
    if (filter.status && filter.status.length === 0) return { items: [], nextCursor: null };
    let query = db.selectFrom("comment").selectAll().where(column, "=", value);
    if (filter.status) query = query.where("status", "in", [...filter.status]);
    if (cursor) {
      query = query.where((eb) =>
        eb(
          eb.refTuple("createdAt", "id"),
          direction === "asc" ? ">" : "<",
          eb.tuple(cursor.createdAt, cursor.id),
        ),
      );
    }
    const rows = await query
      .orderBy("createdAt", direction)
      .orderBy("id", direction)
      .limit(limit + 1)
      .execute();
    return toPage(rows, limit, fromRow, (r) => ({ createdAt: r.createdAt, id: r.id }));
  }

  return {
    async getById(id: string): Promise<Comment | null> {
      const row = await db.selectFrom("comment").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    /** listCommentByContentIdAndCreatedAt: oldest first (reading order), keyset-paginated. */
    listByContent: (contentId: string, page: PageOptions = {}, filter: CommentListFilter = {}) =>
      listBy("contentId", contentId, "asc", filter, page),

    /** listCommentByAuthorIdAndCreatedAt: newest first (activity order), keyset-paginated. */
    listByAuthor: (authorId: string, page: PageOptions = {}, filter: CommentListFilter = {}) =>
      listBy("authorId", authorId, "desc", filter, page),

    async countByContent(contentId: string, filter: CommentListFilter = {}): Promise<number> {
      if (filter.status && filter.status.length === 0) return 0;
      let query = db
        .selectFrom("comment")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("contentId", "=", contentId);
      if (filter.status) query = query.where("status", "in", [...filter.status]);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },

    /** Unknown content, author or parent → BadInputError. */
    async create(input: NewComment): Promise<Comment> {
      const createdAt = input.createdAt === undefined ? nowIso() : isoInput(input.createdAt, "createdAt");
      try {
        const row = await db
          .insertInto("comment")
          .values({
            id: input.id ?? uuidv7(),
            contentId: input.contentId,
            authorId: input.authorId,
            body: input.body,
            parentCommentId: input.parentCommentId ?? null,
            ...definedOnly({ status: input.status }),
            createdAt,
            updatedAt: createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return fromRow(row);
      } catch (error) {
        rethrowConstraintError(error, "comment");
      }
    },

    /**
     * Applies `patch` and bumps the version. With `expectedVersion`, only if the stored version is
     * still that one: a stale version → ConflictError (the row is untouched); no row → NotFoundError.
     */
    async update(id: string, patch: CommentPatch, expectedVersion?: number): Promise<Comment> {
      let query = db
        .updateTable("comment")
        .set(() => {
          const at = nowIso();
          // A changed body is an edit the readers see ("edited").
          return {
            ...definedOnly({
              body: patch.body,
              status: patch.status,
              editedAt: patch.body === undefined ? undefined : at,
            }),
            updatedAt: at,
          };
        })
        .set((eb) => ({ version: eb("version", "+", 1) }))
        .where("id", "=", id);
      if (expectedVersion !== undefined) query = query.where("version", "=", expectedVersion);
      const row = await query.returningAll().executeTakeFirst();
      if (row) return fromRow(row);
      const current = await db
        .selectFrom("comment")
        .select("version")
        .where("id", "=", id)
        .executeTakeFirst();
      if (!current) throw new NotFoundError("comment", id);
      throw new ConflictError("comment was changed by someone else; reload and try again", {
        details: { id, expectedVersion, currentVersion: current.version },
      });
    },

    /** One keyset page of the rows matching every condition (the data API's lists). */
    listPage(query: Omit<KeysetQuery<Comment>, "table" | "map">): Promise<Page<Comment>> {
      return keysetPage(db, { ...query, table: "comment", map: fromRow });
    },

    /** The comment and all its replies, at any depth (what a delete removes). */
    async countThread(id: string, status?: string): Promise<number> {
      const result = await sql<{ n: number | string }>`
        with recursive thread(id) as (
          select ${sql.ref("id")} from ${sql.table("comment")} where ${sql.ref("id")} = ${id}
          union all
          select c.${sql.ref("id")} from ${sql.table("comment")} c join thread t on c.${sql.ref("parentCommentId")} = t.id
        )
        select count(*) as n from ${sql.table("comment")} where ${sql.ref("id")} in (select id from thread)${status === undefined ? sql`` : sql` and ${sql.ref("status")} = ${status}`}`.execute(
        db,
      );
      return Number(result.rows[0]?.n ?? 0);
    },

    /** Deletes the comment and its replies. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("comment").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type CommentsRepo = ReturnType<typeof createCommentsRepo>;
