/**
 * The moderation console (/moderate, REST /api/moderation/*): the comment queues, approve / hide /
 * remove / dismiss in bulk, commenter restrictions (mute, ban) and the content review queue.
 *
 * Who: content managers, platform administrators and the owner (`requireModerator`), across the
 * whole platform. Readers, writers, organisation administrators, API keys and service credentials
 * are refused (403; visitors 401). Every change is audited in the same transaction, and the
 * comment counters move with every status change (`adjustCommentCounts`).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { ForbiddenError, NotFoundError, UnauthenticatedError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { adjustCommentCounts } from "../comments/comment-counts.ts";
import { isModerator } from "../comments/comments.service.ts";
import type { StudioListService } from "../content/content-studio-list.ts";
import { createModerationRepo } from "./moderation.repo.ts";
import {
  type ActionOutcome,
  type ActionResult,
  DURATION_DAYS,
  type ModerationAction,
  type ModerationQueuePage,
  type ModerationSummary,
  parseActionInput,
  parseQueueQuery,
  parseRestrictInput,
  type RestrictedUser,
  type ReviewQueueItem,
} from "./moderation.schemas.ts";

export interface ModerationDeps {
  db: Kysely<DB>;
  /** The content studio's list (the review queue is its `in_review` state). */
  studioList: Pick<StudioListService, "listForStudio">;
  /** Epoch ms; tests move it. */
  now?: () => number;
}

export function requireModerator(actor: Actor): string {
  if (actor.kind === "visitor") throw new UnauthenticatedError("sign in as a moderator");
  if (actor.kind !== "user" || !actor.userId)
    throw new ForbiddenError(
      "moderation is for signed-in moderators; API keys and service tokens cannot moderate",
    );
  if (!isModerator(actor))
    throw new ForbiddenError("only content managers and platform administrators may moderate comments");
  return actor.userId;
}

/** The status an action leads to (dismiss keeps it). */
const TARGET: Readonly<Record<ModerationAction, string | null>> = {
  approve: "published",
  hide: "hidden",
  remove: "removed",
  dismiss: null,
};
const RESOLUTION: Readonly<Record<ModerationAction, "dismissed" | "actioned">> = {
  approve: "dismissed",
  hide: "actioned",
  remove: "actioned",
  dismiss: "dismissed",
};
const AUDIT_ACTION: Readonly<Record<ModerationAction, string>> = {
  approve: "comment_approved",
  hide: "comment_hidden",
  remove: "comment_removed",
  dismiss: "comment_reports_dismissed",
};

const REVIEW_LIMIT = 50;

export function createModerationService(deps: ModerationDeps) {
  const clock = deps.now ?? Date.now;
  const nowIso = () => new Date(clock()).toISOString();

  /** Applies one action to the given comments inside `trx` (moderator `by`). */
  async function applyAction(
    trx: Kysely<DB>,
    by: string,
    action: ModerationAction,
    ids: readonly string[],
    reason: string | null,
    ip: string | null,
  ): Promise<ActionResult[]> {
    const repo = createModerationRepo(trx);
    const audit = createAuditRepo(trx);
    const at = nowIso();
    const rows = new Map((await repo.commentsForAction(ids)).map((r) => [r.id, r]));
    const results: ActionResult[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      if (!row) {
        results.push({ id, ok: false, error: "not_found", message: "No comment with this id." });
        continue;
      }
      const target = TARGET[action] ?? row.status;
      if (row.status === "removed" && target !== "removed") {
        results.push({ id, ok: false, error: "removed", message: "A removed comment cannot be restored." });
        continue;
      }
      const resolved = await repo.resolveReports(id, by, at, RESOLUTION[action]);
      const changed = target !== row.status || resolved > 0 || Number(row.reportCount) > 0;
      if (changed) {
        await repo.setStatus(id, {
          status: target,
          moderatedAt: at,
          moderatedBy: by,
          moderationReason: reason,
        });
        await adjustCommentCounts(trx, row, row.status, target);
        await audit.append({
          action: AUDIT_ACTION[action],
          actorId: by,
          targetType: "comment",
          targetId: id,
          ip,
          at,
          details: { from: row.status, to: target, reportsResolved: resolved, ...(reason ? { reason } : {}) },
        });
      }
      results.push({ id, ok: true, status: target, changed });
    }
    return results;
  }

  return {
    /** Throws unless the actor may moderate (transports call it before reading a body). */
    assertModerator(actor: Actor): void {
      requireModerator(actor);
    },

    /** One page of a queue (reported, pending, hidden, all). */
    async listQueue(actor: Actor, raw: Record<string, unknown>): Promise<ModerationQueuePage> {
      requireModerator(actor);
      return createModerationRepo(deps.db).listQueue(parseQueueQuery(raw), nowIso());
    },

    /** Counts of the tabs; `review` is the content waiting in the workflow's review state. */
    async summary(actor: Actor): Promise<ModerationSummary> {
      requireModerator(actor);
      const [counts, review] = await Promise.all([
        createModerationRepo(deps.db).counts(nowIso()),
        deps.studioList.listForStudio(actor, { state: "in_review", limit: "1" }),
      ]);
      return { ...counts, review: review.total };
    },

    /** Approve, hide, remove or dismiss reports on up to 100 comments, in one transaction. */
    async act(actor: Actor, raw: unknown, meta: { ip?: string | null } = {}): Promise<ActionOutcome> {
      const by = requireModerator(actor);
      const input = parseActionInput(raw);
      const results = await inTransaction(deps.db, (trx) =>
        applyAction(trx, by, input.action, input.ids, input.reason ?? null, meta.ip ?? null),
      );
      return {
        action: input.action,
        results,
        done: results.filter((r) => r.ok).length,
        changed: results.filter((r) => r.ok && r.changed).length,
      };
    },

    async listRestricted(actor: Actor): Promise<RestrictedUser[]> {
      requireModerator(actor);
      return createModerationRepo(deps.db).listRestricted(nowIso());
    },

    /**
     * Mutes or bans a commenter (replacing any restriction they had). Staff (platform admins,
     * the owner, content managers) cannot be restricted. A ban may hide all their published
     * comments at once.
     */
    async restrict(
      actor: Actor,
      raw: unknown,
      meta: { ip?: string | null } = {},
    ): Promise<{ restriction: RestrictedUser; hidden: number }> {
      const by = requireModerator(actor);
      const input = parseRestrictInput(raw);
      const repo = createModerationRepo(deps.db);
      const user = await repo.findUser(input.userId);
      if (!user) throw new NotFoundError("user", input.userId);
      if (input.userId === by) throw new ForbiddenError("you cannot restrict yourself");
      if ((await repo.protectedUsers([input.userId])).size > 0)
        throw new ForbiddenError(
          "staff members (administrators, the owner, content managers) cannot be muted or banned",
        );
      const at = nowIso();
      const days = DURATION_DAYS[input.duration ?? "permanent"];
      const until = days === null ? null : new Date(clock() + days * 86_400_000).toISOString();
      const hidden = await inTransaction(deps.db, async (trx) => {
        const txRepo = createModerationRepo(trx);
        await txRepo.putRestriction({
          userId: input.userId,
          kind: input.kind,
          reason: input.reason ?? null,
          until,
          createdBy: by,
          createdAt: at,
        });
        await createAuditRepo(trx).append({
          action: input.kind === "banned" ? "commenter_banned" : "commenter_muted",
          actorId: by,
          targetType: "user",
          targetId: input.userId,
          ip: meta.ip ?? null,
          at,
          details: {
            duration: input.duration ?? "permanent",
            until,
            ...(input.reason ? { reason: input.reason } : {}),
            ...(input.hideComments ? { hideComments: true } : {}),
          },
        });
        if (!input.hideComments) return 0;
        const ids = await txRepo.publishedIdsOf(input.userId);
        const results = await applyAction(
          trx,
          by,
          "hide",
          ids,
          input.reason ?? "Author banned",
          meta.ip ?? null,
        );
        return results.filter((r) => r.ok && r.changed).length;
      });
      return {
        restriction: {
          userId: user.id,
          name: user.name,
          email: user.email,
          kind: input.kind,
          reason: input.reason ?? null,
          until,
          createdAt: at,
          createdByName: null,
        },
        hidden,
      };
    },

    /** Lifts a commenter's restriction (404 when they have none). */
    async lift(actor: Actor, userId: string, meta: { ip?: string | null } = {}): Promise<void> {
      const by = requireModerator(actor);
      await inTransaction(deps.db, async (trx) => {
        const lifted = await createModerationRepo(trx).deleteRestriction(userId);
        if (!lifted) throw new NotFoundError("restriction", userId);
        await createAuditRepo(trx).append({
          action: "commenter_restriction_lifted",
          actorId: by,
          targetType: "user",
          targetId: userId,
          ip: meta.ip ?? null,
        });
      });
    },

    /** Items waiting in the content workflow's review state, oldest submission first. */
    async reviewQueue(actor: Actor): Promise<{ items: ReviewQueueItem[]; total: number }> {
      requireModerator(actor);
      const list = await deps.studioList.listForStudio(actor, {
        state: "in_review",
        sort: "updated",
        dir: "asc",
        limit: String(REVIEW_LIMIT),
      });
      return {
        total: list.total,
        items: list.items.map((r) => ({
          id: r.id,
          title: r.title,
          type: r.type,
          authorName: r.authorName,
          submittedAt: r.updatedAt,
          editUrl: r.editUrl,
          publicUrl: r.publicUrl,
        })),
      };
    },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
