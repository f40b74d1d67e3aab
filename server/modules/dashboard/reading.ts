/**
 * Reading activity (issue 15): the content page's beacon reports the seconds a signed-in reader
 * spent on an item with the tab visible. One row per user, item and UTC day (`reading_activity`,
 * migration 031): `seconds` is the day's total, `firstAt`/`lastAt` the first and last ping.
 *
 * Rules (the reports page reads the same rows): signed-in readers only (API keys and service
 * credentials are refused by the transport); only published items whose body the reader may read
 * (403 otherwise); a ping adds at most `MAX_PING_SECONDS` (more is clamped) and an item's day
 * never exceeds `MAX_DAY_SECONDS`. A ping of 0 seconds changes nothing.
 */
import { type Kysely, sql } from "kysely";
import { z } from "zod";
import { canAccessContent } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { ServiceError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createContentRepo } from "../content/content.repo.ts";

export const MAX_PING_SECONDS = 60;
export const MAX_DAY_SECONDS = 4 * 60 * 60;

export const readingPingSchema = z.strictObject({
  contentId: z.string().trim().min(1).max(200),
  seconds: z.number().finite().min(0).max(86_400),
});
export type ReadingPing = z.infer<typeof readingPingSchema>;

export interface ReadingResult {
  /** The seconds this ping added (after clamping). */
  added: number;
  /** The item's total for the reader today. */
  today: number;
}

export function signedInUserId(actor: Actor, what: string): string {
  if (actor.kind !== "user" || !actor.access.isAuthenticated || !actor.userId) {
    throw new ServiceError("UNAUTHENTICATED", `Sign in to ${what}.`);
  }
  return actor.userId;
}

export function createReadingRecorder(deps: { db: Kysely<DB>; now: () => number }) {
  const contents = createContentRepo(deps.db);
  return {
    async record(actor: Actor, ping: ReadingPing): Promise<ReadingResult> {
      const userId = signedInUserId(actor, "record your reading");
      const item = await contents.getByIdOrSlug(ping.contentId);
      if (item?.status !== "published") {
        throw new ServiceError("NOT_FOUND", `No content with id or slug ${ping.contentId}`);
      }
      if (!canAccessContent({ minTier: item.tier, rolesRequired: item.rolesRequired }, actor.access)) {
        throw new ServiceError("FORBIDDEN", "Reading time is recorded only for items you can read.");
      }
      const add = Math.min(MAX_PING_SECONDS, Math.floor(ping.seconds));
      const nowIso = new Date(deps.now()).toISOString();
      const day = nowIso.slice(0, 10);
      const key = { userId, contentId: item.id, day };
      const current = async () =>
        (
          await deps.db
            .selectFrom("reading_activity")
            .select("seconds")
            .where("userId", "=", userId)
            .where("contentId", "=", item.id)
            .where("day", "=", day)
            .executeTakeFirst()
        )?.seconds ?? 0;
      if (add <= 0) return { added: 0, today: await current() };
      const before = await current();
      await deps.db
        .insertInto("reading_activity")
        .values({ ...key, seconds: Math.min(add, MAX_DAY_SECONDS), firstAt: nowIso, lastAt: nowIso })
        .onConflict((oc) =>
          oc.columns(["userId", "contentId", "day"]).doUpdateSet({
            seconds: sql<number>`case when ${sql.ref("reading_activity.seconds")} + ${add} > ${MAX_DAY_SECONDS} then ${MAX_DAY_SECONDS} else ${sql.ref("reading_activity.seconds")} + ${add} end`,
            lastAt: nowIso,
          }),
        )
        .execute();
      const today = await current();
      return { added: Math.max(0, today - before), today };
    },
  };
}
