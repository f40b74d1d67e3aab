/**
 * The moderation console's queries over the comment tables (migration 031): the queues with
 * keyset paging, the open reports of a page of comments, commenter restrictions and the counts
 * of the tabs. Access is the service's job (moderation.service.ts).
 */
import { type Kysely, sql } from "kysely";
import { APP_ADMIN_GROUP, APP_OWNER_GROUP, CONTENT_MANAGER_GROUP } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { accountNamesByIds } from "../users/display-names.ts";
import {
  encodeQueueCursor,
  type ModerationComment,
  type ModerationQueuePage,
  type ModerationRestriction,
  type QueueQuery,
  type RestrictedUser,
  type RestrictionKind,
} from "./moderation.schemas.ts";

/** Groups whose members may not be muted or banned (platform admins, the owner, content managers). */
export const PROTECTED_GROUPS: readonly string[] = [APP_ADMIN_GROUP, APP_OWNER_GROUP, CONTENT_MANAGER_GROUP];

interface QueueRow {
  id: string;
  contentId: string;
  authorId: string | null;
  body: string;
  parentCommentId: string | null;
  status: string;
  createdAt: string;
  editedAt: string | null;
  replyCount: number;
  reportCount: number;
  moderatedAt: string | null;
  moderatedBy: string | null;
  moderationReason: string | null;
  title: string;
  slug: string;
  authorName: string | null;
  authorDisplayName: string | null;
  authorEmail: string | null;
  sortAt: string;
}

/** A restriction that is still in force at `now` (no end, or an end after now). */
function activeAt(now: string) {
  return sql<boolean>`(${sql.ref("commenter_restriction.until")} is null or ${sql.ref("commenter_restriction.until")} > ${now})`;
}

export function createModerationRepo(db: Kysely<DB>) {
  async function restrictionsOf(userIds: readonly string[], now: string) {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Map<string, ModerationRestriction>();
    const rows = await db
      .selectFrom("commenter_restriction")
      .select(["userId", "kind", "until", "reason"])
      .where("userId", "in", ids)
      .where(activeAt(now))
      .execute();
    return new Map(rows.map((r) => [r.userId, { kind: r.kind, until: r.until, reason: r.reason }]));
  }

  async function protectedUsers(userIds: readonly string[]): Promise<Set<string>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Set();
    const rows = await db
      .selectFrom("user_group")
      .select("userId")
      .where("userId", "in", ids)
      .where("groupName", "in", [...PROTECTED_GROUPS])
      .execute();
    return new Set(rows.map((r) => r.userId));
  }

  async function openReports(commentIds: readonly string[]) {
    const out = new Map<string, ModerationComment["reports"]>();
    if (commentIds.length === 0) return out;
    const [reasons, recent] = await Promise.all([
      db
        .selectFrom("comment_report")
        .select([
          "commentId",
          "reason",
          (eb) => eb.fn.countAll<number | string>().as("n"),
          (eb) => eb.fn.max("createdAt").as("latest"),
        ])
        .where("commentId", "in", [...commentIds])
        .where("resolvedAt", "is", null)
        .groupBy(["commentId", "reason"])
        .execute(),
      db
        .selectFrom("comment_report")
        .select(["commentId", "note"])
        .where("commentId", "in", [...commentIds])
        .where("resolvedAt", "is", null)
        .where("note", "is not", null)
        .orderBy("createdAt", "desc")
        .limit(300)
        .execute(),
    ]);
    for (const r of reasons) {
      const entry = out.get(r.commentId) ?? { reasons: [], latestAt: null, notes: [] };
      entry.reasons.push({ reason: r.reason, count: Number(r.n) });
      if (!entry.latestAt || (r.latest && String(r.latest) > entry.latestAt))
        entry.latestAt = String(r.latest);
      out.set(r.commentId, entry);
    }
    for (const r of recent) {
      const entry = out.get(r.commentId);
      if (entry && r.note && entry.notes.length < 3) entry.notes.push(r.note);
    }
    for (const entry of out.values())
      entry.reasons.sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
    return out;
  }

  return {
    restrictionsOf,
    protectedUsers,

    async listQueue(query: QueueQuery, now: string): Promise<ModerationQueuePage> {
      const { queue, cursor, limit } = query;
      const asc = queue === "pending";
      const base = db
        .selectFrom("comment")
        .innerJoin("content", "content.id", "comment.contentId")
        .leftJoin("user", "user.id", "comment.authorId")
        .select([
          "comment.id",
          "comment.contentId",
          "comment.authorId",
          "comment.body",
          "comment.parentCommentId",
          "comment.status",
          "comment.createdAt",
          "comment.editedAt",
          "comment.replyCount",
          "comment.reportCount",
          "comment.moderatedAt",
          "comment.moderatedBy",
          "comment.moderationReason",
          "content.title",
          "content.slug",
          "user.name as authorName",
          "user.displayName as authorDisplayName",
          "user.email as authorEmail",
        ]);
      // The sort key: the newest open report for "reported", the creation time otherwise.
      const latestReport = sql<string>`(select max(${sql.ref("comment_report.createdAt")}) from ${sql.table("comment_report")} where ${sql.ref("comment_report.commentId")} = ${sql.ref("comment.id")} and ${sql.ref("comment_report.resolvedAt")} is null)`;
      const sortKey = queue === "reported" ? latestReport : sql<string>`${sql.ref("comment.createdAt")}`;
      let qs = base.select(sortKey.as("sortAt"));
      if (queue === "reported")
        qs = qs
          .where("comment.reportCount", ">", 0)
          .where("comment.status", "!=", "removed")
          .where(sql<boolean>`${latestReport} is not null`);
      else if (queue === "pending") qs = qs.where("comment.status", "=", "pending");
      else if (queue === "hidden") qs = qs.where("comment.status", "=", "hidden");
      if (query.contentId) qs = qs.where("comment.contentId", "=", query.contentId);
      if (query.authorId) qs = qs.where("comment.authorId", "=", query.authorId);
      if (cursor) {
        const cmp = asc ? sql.raw(">") : sql.raw("<");
        qs = qs.where(
          sql<boolean>`(${sortKey} ${cmp} ${cursor.at} or (${sortKey} = ${cursor.at} and ${sql.ref("comment.id")} ${cmp} ${cursor.id}))`,
        );
      }
      const dir = asc ? "asc" : "desc";
      const rows = (await qs
        .orderBy(sortKey, dir)
        .orderBy("comment.id", dir)
        .limit(limit + 1)
        .execute()) as QueueRow[];
      const hasMore = rows.length > limit;
      const page = rows.slice(0, limit);
      const authorIds = page.map((r) => r.authorId).filter((id): id is string => !!id);
      const [reports, restrictions, staff, moderators] = await Promise.all([
        openReports(page.map((r) => r.id)),
        restrictionsOf(authorIds, now),
        protectedUsers(authorIds),
        accountNamesByIds(
          db,
          page.map((r) => r.moderatedBy),
        ),
      ]);
      const last = page.at(-1);
      return {
        queue,
        items: page.map((r) => ({
          id: r.id,
          body: r.status === "removed" ? null : r.body,
          status: r.status,
          createdAt: r.createdAt,
          editedAt: r.editedAt,
          parentCommentId: r.parentCommentId,
          replyCount: Number(r.replyCount),
          reportCount: Number(r.reportCount),
          moderatedAt: r.moderatedAt,
          moderatedByName: r.moderatedBy ? (moderators.get(r.moderatedBy) ?? null) : null,
          moderationReason: r.moderationReason,
          author: r.authorId
            ? {
                id: r.authorId,
                name: r.authorDisplayName || r.authorName || "(no name)",
                email: r.authorEmail ?? "",
                staff: staff.has(r.authorId),
                restriction: restrictions.get(r.authorId) ?? null,
              }
            : null,
          item: { id: r.contentId, title: r.title, slug: r.slug, url: `/content/${r.slug}#comment-${r.id}` },
          reports: reports.get(r.id) ?? { reasons: [], latestAt: null, notes: [] },
        })),
        nextCursor:
          hasMore && last ? encodeQueueCursor({ q: queue, at: String(last.sortAt), id: last.id }) : null,
      };
    },

    async counts(now: string) {
      const [reported, pending, hidden, restricted] = await Promise.all([
        db
          .selectFrom("comment")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("reportCount", ">", 0)
          .where("status", "!=", "removed")
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom("comment_report")
                .select("comment_report.id")
                .whereRef("comment_report.commentId", "=", "comment.id")
                .where("comment_report.resolvedAt", "is", null),
            ),
          )
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("comment")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("status", "=", "pending")
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("comment")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("status", "=", "hidden")
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("commenter_restriction")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where(activeAt(now))
          .executeTakeFirstOrThrow(),
      ]);
      return {
        reported: Number(reported.n),
        pending: Number(pending.n),
        hidden: Number(hidden.n),
        restricted: Number(restricted.n),
      };
    },

    async listRestricted(now: string): Promise<RestrictedUser[]> {
      const rows = await db
        .selectFrom("commenter_restriction")
        .innerJoin("user", "user.id", "commenter_restriction.userId")
        .select([
          "commenter_restriction.userId",
          "commenter_restriction.kind",
          "commenter_restriction.reason",
          "commenter_restriction.until",
          "commenter_restriction.createdAt",
          "commenter_restriction.createdBy",
          "user.name",
          "user.displayName",
          "user.email",
        ])
        .where(activeAt(now))
        .orderBy("commenter_restriction.createdAt", "desc")
        .orderBy("commenter_restriction.userId", "desc")
        .limit(500)
        .execute();
      const names = await accountNamesByIds(
        db,
        rows.map((r) => r.createdBy),
      );
      return rows.map((r) => ({
        userId: r.userId,
        name: r.displayName || r.name || "(no name)",
        email: r.email,
        kind: r.kind,
        reason: r.reason,
        until: r.until,
        createdAt: r.createdAt,
        createdByName: r.createdBy ? (names.get(r.createdBy) ?? null) : null,
      }));
    },

    async findUser(userId: string) {
      return db
        .selectFrom("user")
        .select(["id", "name", "email"])
        .where("id", "=", userId)
        .executeTakeFirst();
    },

    /** Replaces the user's restriction (one row per user). */
    async putRestriction(row: {
      userId: string;
      kind: RestrictionKind;
      reason: string | null;
      until: string | null;
      createdBy: string;
      createdAt: string;
    }) {
      await db.deleteFrom("commenter_restriction").where("userId", "=", row.userId).execute();
      await db.insertInto("commenter_restriction").values(row).execute();
    },

    async deleteRestriction(userId: string): Promise<boolean> {
      const result = await db
        .deleteFrom("commenter_restriction")
        .where("userId", "=", userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async commentsForAction(ids: readonly string[]) {
      if (ids.length === 0) return [];
      return db
        .selectFrom("comment")
        .select(["id", "contentId", "parentCommentId", "status", "authorId", "reportCount"])
        .where("id", "in", [...ids])
        .execute();
    },

    async publishedIdsOf(authorId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("comment")
        .select("id")
        .where("authorId", "=", authorId)
        .where("status", "=", "published")
        .execute();
      return rows.map((r) => r.id);
    },

    async setStatus(
      id: string,
      values: { status: string; moderatedAt: string; moderatedBy: string; moderationReason: string | null },
    ) {
      await db
        .updateTable("comment")
        .set({ ...values, reportCount: 0, version: sql<number>`${sql.ref("version")} + 1` })
        .where("id", "=", id)
        .execute();
    },

    /** Closes the comment's open reports; returns how many. */
    async resolveReports(commentId: string, by: string, at: string, resolution: "dismissed" | "actioned") {
      const result = await db
        .updateTable("comment_report")
        .set({ resolvedAt: at, resolvedBy: by, resolution })
        .where("commentId", "=", commentId)
        .where("resolvedAt", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
