/**
 * The review queue and "Mark reviewed" (decision 038).
 *
 * - `queue`: published items whose effective review-by date (./freshness.ts, in SQL) has passed
 *   or comes within REVIEW_QUEUE_HORIZON_DAYS, the one due first first (then id), keyset-paged,
 *   optionally one section. Content writers only, like the studio's management table (core
 *   `canWriteContent`; visitors 401, everyone else 403, API keys and service tokens included).
 * - `markReviewed`: sets `lastReviewedAt` (now) and `lastReviewedBy` (the editor), clears the
 *   item's own review-by date when it has come, audits `content_reviewed`, and moves the content
 *   revision (every process drops its cached pages and reads). Marking a published item reviewed
 *   is a change to published content: it needs content:publish, as an edit of it does. It neither
 *   bumps the item's version (an editor's open draft stays valid) nor its `updatedAt`; the
 *   sitemap's lastmod reads the later of the two.
 */
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { z } from "zod";
import { canPublishContent, canWriteContent } from "../../../core/index.ts";
import { decodeCursor, encodeCursor } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { BadInputError, ForbiddenError, NotFoundError } from "../../errors.ts";
import { type Actor, requireUser } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { accountNamesByIds } from "../users/display-names.ts";
import type { ContentWriteHooks } from "./content.repo.ts";
import { bumpContentRevision } from "./content-revision.ts";
import {
  DAY_MS,
  defaultReviewPeriods,
  effectiveReviewBy,
  effectiveReviewBySql,
  type FreshnessFields,
  isStale,
  REVIEW_QUEUE_HORIZON_DAYS,
  type ReviewPeriods,
  reviewedPatch,
} from "./freshness.ts";
import { SECTIONS } from "./sections.ts";

export const REVIEW_QUEUE_DEFAULT_LIMIT = 50;
export const REVIEW_QUEUE_MAX_LIMIT = 100;

/** One row of the review queue. */
export interface ReviewQueueRow {
  id: string;
  slug: string;
  title: string;
  section: string | null;
  publishedAt: string | null;
  /** The item's own review-by date, when it has one. */
  ownReviewBy: string | null;
  /** The effective review-by date (own, else last review or publication plus the section's period). */
  reviewBy: string;
  stale: boolean;
  lastReviewedAt: string | null;
  lastReviewedByName: string | null;
  version: number;
}

export interface ReviewQueue {
  items: ReviewQueueRow[];
  nextCursor: string | null;
  /** Items in the queue for these filters (all pages). */
  total: number;
  /** Items due within this many days are listed before they turn stale. */
  horizonDays: number;
  /** The server's time the queue was read at (ISO). */
  now: string;
}

export interface MarkedReviewed {
  id: string;
  lastReviewedAt: string;
  lastReviewedBy: string;
  reviewBy: string | null;
  stale: boolean;
}

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const oneOf = (values: readonly string[]) => `expected one of ${values.join(", ")}`;

export const reviewQueueQuerySchema = z.strictObject({
  section: z.preprocess(
    blank,
    z
      .enum(
        SECTIONS.map((s) => s.slug),
        { message: oneOf(SECTIONS.map((s) => s.slug)) },
      )
      .optional(),
  ),
  limit: z.preprocess(
    blank,
    z.coerce
      .number({ message: "expected a number" })
      .int("expected a whole number")
      .min(1, "expected at least 1")
      .max(REVIEW_QUEUE_MAX_LIMIT, `expected at most ${REVIEW_QUEUE_MAX_LIMIT}`)
      .optional(),
  ),
  cursor: z.preprocess(blank, z.string().max(500, "at most 500 characters").optional()),
});

const cursorSchema = z.strictObject({ due: z.number().int(), id: z.string().min(1).max(200) });

function parseQuery(raw: Record<string, unknown>) {
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) {
      throw new BadInputError(`Invalid ${name}: expected one value`, {
        field: { [name]: "expected one value" },
      });
    }
  }
  const parsed = reviewQueueQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === "unrecognized_keys") {
      const keys = issue.keys.join(", ");
      throw new BadInputError(`unknown parameter ${keys}`, { field: { [keys]: "unknown parameter" } });
    }
    const name = String(issue?.path[0] ?? "query");
    const problem = issue?.message ?? "invalid";
    throw new BadInputError(`Invalid ${name}: ${problem}`, { field: { [name]: problem } });
  }
  const { section, limit, cursor } = parsed.data;
  let after: z.output<typeof cursorSchema> | null = null;
  if (cursor) {
    try {
      after = decodeCursor(cursorSchema, cursor);
    } catch {
      throw new BadInputError("Invalid cursor: expected the nextCursor of a previous page", {
        field: { cursor: "expected the nextCursor of a previous page" },
      });
    }
  }
  return { section: section ?? null, limit: limit ?? REVIEW_QUEUE_DEFAULT_LIMIT, after };
}

/** Writers only, as the studio's management table: a visitor 401, anyone else 403. */
function requireWriter(actor: Actor): string {
  if (actor.kind === "api-key" || actor.kind === "service") {
    throw new ForbiddenError(
      "The review queue is for signed-in content writers; API keys and service tokens cannot use it.",
    );
  }
  const userId = requireUser(actor);
  if (!canWriteContent(actor.access)) {
    throw new ForbiddenError(
      "Only content creators, editors, content managers and admins may review content.",
    );
  }
  return userId;
}

const ID = /^[A-Za-z0-9_-]{1,200}$/;

export interface FreshnessServiceDeps {
  db: Kysely<DB>;
  reviewPeriods?: ReviewPeriods;
  hooks?: ContentWriteHooks;
  now?: () => number;
}

export function createFreshnessService(deps: FreshnessServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const periods = () => deps.reviewPeriods ?? defaultReviewPeriods;

  return {
    /** An item's effective review-by date and whether it is stale now (GraphQL `Content`). */
    reviewStateOf(item: FreshnessFields): { reviewBy: string | null; stale: boolean } {
      const reviewBy = effectiveReviewBy(item, periods());
      return { reviewBy, stale: isStale(reviewBy, now()) };
    },

    /** One page of the review queue (`raw`: the URL's parameters; 400 naming a bad one). */
    async queue(actor: Actor, raw: Record<string, unknown>): Promise<ReviewQueue> {
      requireWriter(actor);
      const query = parseQuery(raw);
      const nowMs = now();
      const due = effectiveReviewBySql(periods());
      const horizon = nowMs + REVIEW_QUEUE_HORIZON_DAYS * DAY_MS;
      let base = db
        .selectFrom("content")
        .where("status", "=", "published")
        .where(sql<boolean>`${due} <= ${horizon}`);
      if (query.section) base = base.where("section", "=", query.section);
      let page = base;
      if (query.after) {
        page = page.where(
          sql<boolean>`(${due} > ${query.after.due} or (${due} = ${query.after.due} and ${sql.ref("id")} > ${query.after.id}))`,
        );
      }
      const [rows, counted] = await Promise.all([
        page
          .select([
            "id",
            "slug",
            "title",
            "section",
            "publishedAt",
            "reviewBy",
            "lastReviewedAt",
            "lastReviewedBy",
            "version",
            due.as("due"),
          ])
          .orderBy(due, "asc")
          .orderBy("id", "asc")
          .limit(query.limit + 1)
          .execute(),
        base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirst(),
      ]);
      const shown = rows.slice(0, query.limit);
      const names = await accountNamesByIds(
        db,
        shown.map((r) => r.lastReviewedBy),
      );
      const items = shown.map((r): ReviewQueueRow => {
        const reviewBy = new Date(Number(r.due)).toISOString();
        return {
          id: r.id,
          slug: r.slug,
          title: r.title,
          section: r.section,
          publishedAt: r.publishedAt,
          ownReviewBy: r.reviewBy,
          reviewBy,
          stale: isStale(reviewBy, nowMs),
          lastReviewedAt: r.lastReviewedAt,
          lastReviewedByName: r.lastReviewedBy ? (names.get(r.lastReviewedBy) ?? null) : null,
          version: Number(r.version),
        };
      });
      const last = shown.at(-1);
      return {
        items,
        nextCursor:
          rows.length > query.limit && last ? encodeCursor({ due: Number(last.due), id: last.id }) : null,
        total: Number(counted?.n ?? 0),
        horizonDays: REVIEW_QUEUE_HORIZON_DAYS,
        now: new Date(nowMs).toISOString(),
      };
    },

    /** Marks the item reviewed now by the actor (see the file comment). */
    async markReviewed(actor: Actor, id: string, meta: { ip?: string | null } = {}): Promise<MarkedReviewed> {
      const userId = requireWriter(actor);
      if (!ID.test(id)) throw new BadInputError("Invalid content id", { field: { id: "invalid id" } });
      const item = await db
        .selectFrom("content")
        .select(["id", "status", "section", "publishedAt", "reviewBy", "lastReviewedAt"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!item) throw new NotFoundError("content", id);
      if (item.status === "published" && !canPublishContent(actor.access)) {
        throw new ForbiddenError("marking published content reviewed needs the content:publish permission");
      }
      const nowMs = now();
      const patch = reviewedPatch(item, nowMs, userId);
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable("content")
          .set({
            lastReviewedAt: patch.lastReviewedAt,
            lastReviewedEpoch: nowMs,
            lastReviewedBy: userId,
            ...(patch.clearReviewBy ? { reviewBy: null, reviewByEpoch: null } : {}),
          })
          .where("id", "=", id)
          .execute();
        await createAuditRepo(trx).append({
          action: "content_reviewed",
          actorId: userId,
          targetType: "content",
          targetId: id,
          ip: meta.ip ?? null,
          details: {
            previousReview: item.lastReviewedAt,
            reviewByCleared: patch.clearReviewBy ? item.reviewBy : null,
          },
          at: patch.lastReviewedAt,
        });
        // Pages, reads and the sitemap of every process show the new date.
        await bumpContentRevision(trx);
        await deps.hooks?.afterWrite?.({ kind: "upsert", id }, trx);
      });
      const after = {
        section: item.section,
        publishedAt: item.publishedAt,
        reviewBy: patch.clearReviewBy ? null : item.reviewBy,
        lastReviewedAt: patch.lastReviewedAt,
      };
      const reviewBy = effectiveReviewBy(after, periods());
      return {
        id,
        lastReviewedAt: patch.lastReviewedAt,
        lastReviewedBy: userId,
        reviewBy,
        stale: isStale(reviewBy, nowMs),
      };
    },
  };
}

export type FreshnessService = ReturnType<typeof createFreshnessService>;
