/**
 * Bookmarks (issue 15): a signed-in reader saves items to read later. Only published items the
 * reader may read can be saved (403 otherwise, like likes); saving and removing are idempotent.
 * A reader sees only their own bookmarks, and the list keeps only items they can still read.
 */
import type { Kysely } from "kysely";
import { canAccessContent } from "../../../core/index.ts";
import { dialectOf } from "../../db/dialect.ts";
import type { DB } from "../../db/schema.ts";
import { ServiceError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { type Content, contentFromRow, createContentRepo } from "../content/content.repo.ts";
import type { ContentSummary } from "../content/content.types.ts";
import { readableBy } from "../content/readable-sql.ts";
import type { BookmarkState, SavedItem } from "./dashboard.types.ts";
import { signedInUserId } from "./reading.ts";

export const BOOKMARK_LIST_MAX = 100;

export interface BookmarkDeps {
  db: Kysely<DB>;
  now: () => number;
  summarize: (actor: Actor, items: readonly Content[]) => Promise<ContentSummary[]>;
}

export function createBookmarks(deps: BookmarkDeps) {
  const { db } = deps;
  const contents = createContentRepo(db);
  const dialect = dialectOf(db);

  /** The reader's saved, published, readable items, newest first. */
  async function savedRows(actor: Actor, userId: string, limit: number) {
    return db
      .selectFrom("bookmark as b")
      .innerJoin("content as c", "c.id", "b.contentId")
      .selectAll("c")
      .select("b.createdAt as savedAt")
      .where("b.userId", "=", userId)
      .where("c.status", "=", "published")
      .where(readableBy(actor.access, dialect, "c"))
      .orderBy("b.createdAt", "desc")
      .orderBy("c.id")
      .limit(limit)
      .execute();
  }

  return {
    async list(actor: Actor, limit = BOOKMARK_LIST_MAX): Promise<{ items: SavedItem[]; total: number }> {
      const userId = signedInUserId(actor, "see your saved items");
      const rows = await savedRows(actor, userId, Math.min(limit, BOOKMARK_LIST_MAX));
      const items = rows.map(({ savedAt, ...row }) => ({ savedAt, content: contentFromRow(row as never) }));
      const summaries = await deps.summarize(
        actor,
        items.map((i) => i.content),
      );
      const total = Number(
        (
          await db
            .selectFrom("bookmark as b")
            .innerJoin("content as c", "c.id", "b.contentId")
            .select((eb) => eb.fn.countAll<number | string>().as("n"))
            .where("b.userId", "=", userId)
            .where("c.status", "=", "published")
            .where(readableBy(actor.access, dialect, "c"))
            .executeTakeFirst()
        )?.n ?? 0,
      );
      return { items: summaries.map((item, i) => ({ item, savedAt: items[i]!.savedAt })), total };
    },

    /** Saves (or removes) a bookmark; idempotent. Unknown or unpublished → NOT_FOUND. */
    async set(actor: Actor, key: string, saved: boolean): Promise<BookmarkState> {
      const userId = signedInUserId(actor, "save items");
      const item = await contents.getByIdOrSlug(key);
      if (item?.status !== "published") {
        throw new ServiceError("NOT_FOUND", `No content with id or slug ${key}`);
      }
      if (saved) {
        if (!canAccessContent({ minTier: item.tier, rolesRequired: item.rolesRequired }, actor.access)) {
          throw new ServiceError(
            "FORBIDDEN",
            `You can save only items you can read: “${item.title}” is not in your plan.`,
          );
        }
        await db
          .insertInto("bookmark")
          .values({ userId, contentId: item.id, createdAt: new Date(deps.now()).toISOString() })
          .onConflict((oc) => oc.columns(["userId", "contentId"]).doNothing())
          .execute();
      } else {
        await db
          .deleteFrom("bookmark")
          .where("userId", "=", userId)
          .where("contentId", "=", item.id)
          .execute();
      }
      return { contentId: item.id, saved };
    },

    /** Whether the signed-in reader saved this item (the content page's Save button). */
    async isSaved(userId: string, contentId: string): Promise<boolean> {
      const row = await db
        .selectFrom("bookmark")
        .select("contentId")
        .where("userId", "=", userId)
        .where("contentId", "=", contentId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type Bookmarks = ReturnType<typeof createBookmarks>;
