/**
 * The notification sweep (issue 15), run every minute by one app process (the job's lease,
 * decision 028). Each mail is still claimed
 * by inserting its `notification_delivery` row (unique `dedupeKey`) before it is sent, so of
 * several processes (or overlapping passes) exactly one sends it; a failed send drops the claim so
 * a later pass retries.
 *
 * - Replies (`reply:<commentId>`): published replies whose parent's author opted in, is not the
 *   replier, and may still read the (published) item. A reply held for review is not sent while
 *   pending or hidden; the sweep looks at replies created *or moderated* since its cursor, so one
 *   approved later is sent then (decision: re-check at publication, not at creation).
 * - Followed sections (`section:<contentId>:<userId>`): items published since the cursor in a
 *   section the reader follows and whose body the reader may read at their current tier; one mail
 *   per item.
 * - Weekly digest (`digest:<ISO week>:<userId>`): on Mondays (UTC), the previous seven days' newest
 *   readable items (top 10); nothing readable → no mail.
 *
 * Cursors (`notification_cursor`) hold the start time of the last pass; each pass looks back a
 * little further (OVERLAP_MS) for rows committed late, and the dedupe keys keep that harmless. The
 * first pass only sets the cursors (no flood of old items). A mail never holds the body or excerpt
 * of an item its recipient cannot read; access is checked with the recipient's claims now.
 */
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { buildUserContext, canAccessContent, toAccessContext } from "../../../core/index.ts";
import { claimsForUser } from "../../auth/identity.ts";
import type { DB } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { SECTIONS } from "../content/sections.ts";
import { KIND_LABELS, type NotificationKind } from "./notifications.schemas.ts";
import type { UnsubscribeLinks } from "./unsubscribe-links.ts";

export const OVERLAP_MS = 5 * 60_000;
const REPLY_MAX_AGE_MS = 7 * 24 * 3600_000;
const BATCH = 500;

export interface SweepDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  links: UnsubscribeLinks;
  /** Absolute origin for links in mails (PUBLIC_URL). */
  baseUrl: string;
  now?: () => number;
  logger?: { error(details: object, message: string): void; info?(details: object, message: string): void };
}

export interface SweepResult {
  replies: number;
  followed: number;
  digests: number;
}

interface Recipient {
  id: string;
  email: string;
  name: string;
  username: string | null;
  accountType: string | null;
}

interface Item {
  id: string;
  slug: string;
  title: string;
  section: string | null;
  tier: string;
  rolesRequired: string;
  excerpt: string | null;
  status: string;
  publishedAt: string | null;
}

const parseRoles = (json: string): string[] => {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value)
      ? value.filter((r): r is string => typeof r === "string")
      : ["\u0000unreadable"];
  } catch {
    return ["\u0000unreadable"]; // fail closed
  }
};

/** Plain text of a comment body (markdown marks dropped), at most `max` characters. */
export function plainExcerpt(body: string, max = 280): string {
  const text = body
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`>#~]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** ISO 8601 week of a date (UTC), e.g. "2026-W48". */
export function isoWeek(date: Date): string {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

export async function runNotificationSweep(deps: SweepDeps): Promise<SweepResult> {
  const { db } = deps;
  const nowMs = (deps.now ?? Date.now)();
  const nowIso = new Date(nowMs).toISOString();
  const baseUrl = deps.baseUrl.replace(/\/+$/, "");
  const result: SweepResult = { replies: 0, followed: 0, digests: 0 };
  const readers = new Map<string, Promise<ReturnType<typeof toAccessContext> | null>>();

  /** The recipient's access now (null when the account is inactive or gone). */
  const accessOf = (user: Recipient) => {
    let found = readers.get(user.id);
    if (!found) {
      found = (async () => {
        const row = await db
          .selectFrom("user")
          .select("isActive")
          .where("id", "=", user.id)
          .executeTakeFirst();
        if (!row?.isActive) return null;
        const claims = await claimsForUser(db, user, new Date(nowMs));
        return toAccessContext(buildUserContext(claims));
      })();
      readers.set(user.id, found);
    }
    return found;
  };
  const mayRead = async (user: Recipient, item: Item) => {
    if (item.status !== "published") return false;
    const access = await accessOf(user);
    return (
      !!access && canAccessContent({ tier: item.tier, rolesRequired: parseRoles(item.rolesRequired) }, access)
    );
  };

  const footer = (user: Recipient, kind: NotificationKind) => {
    const unsubscribe = deps.links.url(user.id, kind);
    return {
      unsubscribe,
      text: `\n\n--\nYou receive this because you turned on ${KIND_LABELS[kind]} e-mails.\nUnsubscribe: ${unsubscribe}\nAll notification settings: ${baseUrl}/settings\n`,
    };
  };

  /** Claims the mail, sends it; on a failed send the claim is dropped so a later pass retries. */
  const deliver = async (
    user: Recipient,
    kind: NotificationKind,
    dedupeKey: string,
    subject: string,
    body: string,
  ): Promise<boolean> => {
    const claimed = await db
      .insertInto("notification_delivery")
      .values({ id: uuidv7(), userId: user.id, kind, dedupeKey, sentAt: nowIso, subject })
      .onConflict((oc) => oc.column("dedupeKey").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!claimed) return false; // another pass or process has it
    const { unsubscribe, text } = footer(user, kind);
    try {
      await deps.mailer.send({
        to: user.email,
        subject,
        text: `${body}${text}`,
        headers: {
          "List-Unsubscribe": `<${unsubscribe}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      });
      return true;
    } catch (error) {
      await db.deleteFrom("notification_delivery").where("dedupeKey", "=", dedupeKey).execute();
      deps.logger?.error({ err: error, kind }, "notification e-mail failed; will retry");
      return false;
    }
  };

  const cursor = async (name: string): Promise<number | null> => {
    const row = await db
      .selectFrom("notification_cursor")
      .select("value")
      .where("name", "=", name)
      .executeTakeFirst();
    const value = row ? Date.parse(row.value) : Number.NaN;
    return Number.isFinite(value) ? value : null;
  };
  const advance = async (name: string) => {
    await db
      .insertInto("notification_cursor")
      .values({ name, value: nowIso })
      .onConflict((oc) => oc.column("name").doUpdateSet({ value: nowIso }))
      .execute();
  };

  const itemUrl = (slug: string) => `${baseUrl}/content/${encodeURIComponent(slug)}`;
  const sectionLabel = (slug: string | null) => SECTIONS.find((s) => s.slug === slug)?.label ?? slug ?? "";

  // Replies
  const repliesSince = await cursor("replies");
  if (repliesSince !== null) {
    const since = new Date(Math.max(repliesSince - OVERLAP_MS, nowMs - REPLY_MAX_AGE_MS)).toISOString();
    const replies = await db
      .selectFrom("comment as r")
      .innerJoin("comment as p", "p.id", "r.parentCommentId")
      .innerJoin("content as c", "c.id", "r.contentId")
      .innerJoin("user as pu", "pu.id", "p.authorId")
      .innerJoin("notification_preference as np", (j) =>
        j.onRef("np.userId", "=", "p.authorId").on("np.kind", "=", "replies"),
      )
      .leftJoin("user as ru", "ru.id", "r.authorId")
      .select([
        "r.id as replyId",
        "r.body as replyBody",
        "r.authorId as replierId",
        "ru.displayName as replierDisplayName",
        "ru.name as replierName",
        "pu.id as userId",
        "pu.email",
        "pu.name",
        "pu.username",
        "pu.accountType",
        "np.enabled",
        "c.id",
        "c.slug",
        "c.title",
        "c.section",
        "c.tier",
        "c.rolesRequired",
        "c.excerpt",
        "c.status",
        "c.publishedAt",
      ])
      .where("r.status", "=", "published")
      .where("r.deletedAt", "is", null)
      .where("p.status", "<>", "removed")
      .where((eb) =>
        eb.and([
          eb("r.createdAt", ">", new Date(nowMs - REPLY_MAX_AGE_MS).toISOString()),
          eb.or([eb("r.createdAt", ">", since), eb("r.moderatedAt", ">", since)]),
        ]),
      )
      .orderBy("r.createdAt")
      .limit(BATCH)
      .execute();
    for (const r of replies) {
      if (!r.enabled || !r.replierId || r.replierId === r.userId) continue;
      const user: Recipient = {
        id: r.userId,
        email: r.email,
        name: r.name,
        username: r.username,
        accountType: r.accountType,
      };
      if (!(await mayRead(user, r))) continue;
      const who = r.replierDisplayName || r.replierName || "Someone";
      const subject = `${who} replied to your comment on ${r.title}`;
      const body = `${who} replied to your comment on “${r.title}”:\n\n${plainExcerpt(r.replyBody)}\n\nRead the conversation: ${itemUrl(r.slug)}#comment-${encodeURIComponent(r.replyId)}`;
      if (await deliver(user, "replies", `reply:${r.replyId}`, subject, body)) result.replies++;
    }
  }
  await advance("replies");

  // Followed sections
  const sectionsSince = await cursor("followed_sections");
  if (sectionsSince !== null) {
    const since = new Date(sectionsSince - OVERLAP_MS).toISOString();
    const items = await db
      .selectFrom("content")
      .select(["id", "slug", "title", "section", "tier", "rolesRequired", "excerpt", "status", "publishedAt"])
      .where("status", "=", "published")
      .where("section", "is not", null)
      .where("publishedAt", ">", since)
      .where("publishedAt", "<=", nowIso)
      .orderBy("publishedAt")
      .limit(BATCH)
      .execute();
    for (const item of items) {
      const followers = await db
        .selectFrom("section_follow as f")
        .innerJoin("user as u", "u.id", "f.userId")
        .innerJoin("notification_preference as np", (j) =>
          j.onRef("np.userId", "=", "f.userId").on("np.kind", "=", "followed_sections"),
        )
        .select(["u.id", "u.email", "u.name", "u.username", "u.accountType", "np.enabled"])
        .where("f.section", "=", item.section!)
        .execute();
      for (const f of followers) {
        if (!f.enabled || !(await mayRead(f, item))) continue;
        const label = sectionLabel(item.section);
        const subject = `New in ${label}: ${item.title}`;
        const summary = item.excerpt ? `\n\n${plainExcerpt(item.excerpt, 400)}` : "";
        const body = `A new item was published in ${label}, a section you follow:\n\n${item.title}${summary}\n\nRead it: ${itemUrl(item.slug)}`;
        if (await deliver(f, "followed_sections", `section:${item.id}:${f.id}`, subject, body))
          result.followed++;
      }
    }
  }
  await advance("followed_sections");

  // Weekly digest: Mondays (UTC), the previous seven days.
  if (new Date(nowMs).getUTCDay() === 1) {
    const week = isoWeek(new Date(nowMs));
    const from = new Date(nowMs - 7 * 86_400_000).toISOString();
    const items = await db
      .selectFrom("content")
      .select(["id", "slug", "title", "section", "tier", "rolesRequired", "excerpt", "status", "publishedAt"])
      .where("status", "=", "published")
      .where("publishedAt", ">", from)
      .where("publishedAt", "<=", nowIso)
      .orderBy("publishedAt", "desc")
      .limit(200)
      .execute();
    if (items.length) {
      const sent = new Set(
        (
          await db
            .selectFrom("notification_delivery")
            .select("userId")
            .where("kind", "=", "weekly_digest")
            .where("dedupeKey", "like", `digest:${week}:%`)
            .execute()
        ).map((d) => d.userId),
      );
      const subscribers = (
        await db
          .selectFrom("notification_preference as np")
          .innerJoin("user as u", "u.id", "np.userId")
          .select(["u.id", "u.email", "u.name", "u.username", "u.accountType"])
          .where("np.kind", "=", "weekly_digest")
          .where("np.enabled", "=", true)
          .execute()
      ).filter((u) => !sent.has(u.id));
      for (const user of subscribers) {
        const readable: Item[] = [];
        for (const item of items) {
          if (readable.length >= 10) break;
          if (await mayRead(user, item)) readable.push(item);
        }
        if (!readable.length) continue;
        const lines = readable.map((i) => {
          const summary = i.excerpt ? `\n  ${plainExcerpt(i.excerpt, 200)}` : "";
          return `• ${i.title} (${sectionLabel(i.section)})${summary}\n  ${itemUrl(i.slug)}`;
        });
        const subject = `Your weekly digest: ${readable.length} new ${readable.length === 1 ? "item" : "items"}`;
        const body = `New this week on Lumen Hub:\n\n${lines.join("\n\n")}`;
        if (await deliver(user, "weekly_digest", `digest:${week}:${user.id}`, subject, body))
          result.digests++;
      }
    }
  }
  return result;
}

export interface NotificationSweeper {
  runOnce(): Promise<SweepResult>;
  stop(): Promise<void>;
}

/** Runs the sweep every `intervalMs` (default a minute) on an unref'd timer; failures are logged. */
export function startNotificationSweeper(
  deps: SweepDeps & {
    intervalMs?: number;
    /** The jobs registry's track; a shared job's answers undefined for a tick another process ran. */
    track?: <T>(pass: () => Promise<T>) => Promise<T | undefined>;
  },
): NotificationSweeper {
  let running: Promise<SweepResult> | null = null;
  let stopped = false;
  const empty: SweepResult = { replies: 0, followed: 0, digests: 0 };
  const runOnce = () => {
    if (running) return running;
    const track = deps.track ?? ((pass) => pass());
    running = track(() => runNotificationSweep(deps))
      .then((result) => result ?? empty)
      .catch((error: unknown) => {
        deps.logger?.error({ err: error }, "notification sweep failed");
        return empty;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) void runOnce();
  }, deps.intervalMs ?? 60_000);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
