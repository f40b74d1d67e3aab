/**
 * Where webhook events are recorded (decision 037). A write that causes an event only inserts one
 * `webhook_delivery` row per enabled endpoint that wants it, on the writer's own executor:
 *
 * - inside the writer's transaction the rows are written under a savepoint, so a failing insert
 *   is rolled back alone and the write still commits (and a write that rolls back takes its
 *   events with it);
 * - outside a transaction they are written right after the write.
 * Either way a failure is logged and swallowed: webhooks never fail the write that caused them.
 * Sending is the sender's (`webhook-sender.ts`), which this module kicks once rows are recorded.
 *
 * The sources: content writes through the content repository's write hooks (publish, archive and
 * updates of live content, told apart with `webhook_content_state`), the audit log's append
 * (`sign_up` → user.signed_up; subscription and entitlement actions → subscription.changed), and
 * the comment create (comment.posted).
 *
 * Payloads never carry a gated body: content events carry metadata only (id, slug, title, type,
 * tier, section, category, status, URL, times), comment events no comment text. User and
 * subscription events carry the user's id and e-mail (every endpoint is made by a platform
 * administrator).
 */
import { type Kysely, sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { contentPathFor } from "../../../core/seo/urls.ts";
import type { DB } from "../../db/schema.ts";

export const WEBHOOK_EVENTS = [
  "content.published",
  "content.updated",
  "content.archived",
  "subscription.changed",
  "user.signed_up",
  "comment.posted",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The event of the "send a test event" button (never recorded by a write). */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = Object.freeze({
  "content.published": "An item went live (published now or at its scheduled time)",
  "content.updated": "A live item was changed",
  "content.archived": "An item was archived",
  "subscription.changed": "A subscription or a reader's plan access changed",
  "user.signed_up": "Someone signed up",
  "comment.posted": "A comment was posted",
});

export function isWebhookEvent(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

/** The JSON body of every delivery. */
export interface WebhookPayload {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

interface Recorder {
  /** The public base URL the payloads' `url` fields are made absolute with ("" until set). */
  baseUrl: string;
  /** The runtime's clock (epoch ms): deliveries are due from the time the sender reads. */
  now: () => number;
  warn(details: object, message: string): void;
  kicks: Set<() => void>;
}

/**
 * Process-wide: the runtime sets the base URL and logger, and its sender registers a kick. The
 * recording functions themselves only use the executor they are given.
 */
const recorder: Recorder = { baseUrl: "", now: Date.now, warn: () => {}, kicks: new Set() };

export function configureWebhookRecorder(options: {
  baseUrl: string;
  now?: () => number;
  logger?: { warn(details: object, message: string): void };
}): void {
  recorder.baseUrl = options.baseUrl.replace(/\/+$/, "");
  if (options.now) recorder.now = options.now;
  if (options.logger) recorder.warn = (details, message) => options.logger!.warn(details, message);
}

/** Registers a sender's kick (called after events are recorded); returns the unregister. */
export function onWebhookRecorded(kick: () => void): () => void {
  recorder.kicks.add(kick);
  return () => recorder.kicks.delete(kick);
}

export function kickSenders(): void {
  for (const kick of recorder.kicks) {
    try {
      kick();
    } catch {
      // A kick only schedules a pass; the periodic sweep sends anyway.
    }
  }
}

const toBool = (v: boolean | number) => v === true || v === 1;

function parseEvents(text: string): string[] {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Inserts the deliveries of one event (one per enabled endpoint that wants `type`); answers the
 * number of rows. Throws on a database error: callers use `recordSafely`.
 */
export async function insertDeliveries(
  executor: Kysely<DB>,
  payload: WebhookPayload,
  endpointIds: readonly string[] | null,
  nowMs: number,
): Promise<number> {
  let endpoints: string[];
  if (endpointIds) endpoints = [...endpointIds];
  else {
    const rows = await executor.selectFrom("webhook_endpoint").select(["id", "events", "enabled"]).execute();
    endpoints = rows
      .filter((r) => toBool(r.enabled) && parseEvents(r.events).includes(payload.type))
      .map((r) => r.id);
  }
  if (endpoints.length === 0) return 0;
  const body = JSON.stringify(payload);
  const at = new Date(nowMs).toISOString();
  await executor
    .insertInto("webhook_delivery")
    .values(
      endpoints.map((endpointId) => ({
        id: uuidv7(),
        endpointId,
        eventId: payload.id,
        eventType: payload.type,
        payload: body,
        status: "pending",
        attempts: 0,
        nextAttemptEpoch: nowMs,
        leaseUntil: 0,
        createdAt: at,
        createdEpoch: nowMs,
      })),
    )
    .execute();
  return endpoints.length;
}

let savepoints = 0;

/**
 * Runs `fn` so that its failure never fails the caller's write: under a savepoint inside a
 * transaction (rolled back alone on error), plainly outside one. Errors are logged.
 */
async function recordSafely(
  executor: Kysely<DB>,
  what: string,
  fn: (executor: Kysely<DB>) => Promise<number>,
): Promise<void> {
  let recorded = 0;
  try {
    if (executor.isTransaction) {
      const name = sql.id(`webhook_${++savepoints % 1_000_000}`);
      await sql`savepoint ${name}`.execute(executor);
      try {
        recorded = await fn(executor);
        await sql`release savepoint ${name}`.execute(executor);
      } catch (error) {
        await sql`rollback to savepoint ${name}`.execute(executor);
        await sql`release savepoint ${name}`.execute(executor);
        throw error;
      }
    } else recorded = await fn(executor);
  } catch (error) {
    recorder.warn({ err: error }, `webhooks: ${what} could not be recorded (the write went on)`);
    return;
  }
  if (recorded > 0) kickSenders();
}

function newPayload(type: string, data: Record<string, unknown>, nowMs: number): WebhookPayload {
  return { id: uuidv7(), type, createdAt: new Date(nowMs).toISOString(), data };
}

/** Records one event for every enabled endpoint subscribed to it (never throws). */
export function recordWebhookEvent(
  executor: Kysely<DB>,
  type: WebhookEventType,
  data: Record<string, unknown>,
  nowMs = recorder.now(),
): Promise<void> {
  return recordSafely(executor, type, (ex) =>
    insertDeliveries(ex, newPayload(type, data, nowMs), null, nowMs),
  );
}

// --- Content -------------------------------------------------------------------------------------

const absolute = (path: string) => `${recorder.baseUrl}${path}`;

/**
 * The content write hook: compares the item with the last status and version webhooks saw of it
 * and records content.published (it went live), content.archived (it was archived) or
 * content.updated (a live item got a new version). A delete forgets the item.
 */
export async function contentWritten(
  change: { kind: "upsert" | "delete"; id: string },
  executor: Kysely<DB>,
): Promise<void> {
  await recordSafely(executor, `the content event of ${change.id}`, async (ex) => {
    if (change.kind === "delete") {
      await ex.deleteFrom("webhook_content_state").where("contentId", "=", change.id).execute();
      return 0;
    }
    const item = await ex
      .selectFrom("content")
      .select([
        "id",
        "slug",
        "title",
        "type",
        "tier",
        "section",
        "category",
        "status",
        "version",
        "createdAt",
        "updatedAt",
        "publishedAt",
      ])
      .where("id", "=", change.id)
      .executeTakeFirst();
    if (!item) return 0;
    const seen = await ex
      .selectFrom("webhook_content_state")
      .select(["status", "version"])
      .where("contentId", "=", item.id)
      .executeTakeFirst();
    const version = Number(item.version);
    if (seen && seen.status === item.status && Number(seen.version) === version) return 0;
    if (seen) {
      await ex
        .updateTable("webhook_content_state")
        .set({ status: item.status, version })
        .where("contentId", "=", item.id)
        .execute();
    } else {
      await ex
        .insertInto("webhook_content_state")
        .values({ contentId: item.id, status: item.status, version })
        .execute();
    }
    const before = seen?.status ?? null;
    let type: WebhookEventType | null = null;
    if (item.status === "published") type = before === "published" ? "content.updated" : "content.published";
    else if (item.status === "archived" && before !== "archived") type = "content.archived";
    if (!type) return 0;
    const path = contentPathFor({ type: item.type, slug: item.slug });
    const nowMs = recorder.now();
    return insertDeliveries(
      ex,
      newPayload(
        type,
        {
          id: item.id,
          slug: item.slug,
          title: item.title,
          type: item.type,
          tier: item.tier,
          section: item.section,
          category: item.category,
          status: item.status,
          version,
          path,
          url: absolute(path),
          createdAt: item.createdAt,
          updatedAt: item.updatedAt,
          publishedAt: item.publishedAt,
        },
        nowMs,
      ),
      null,
      nowMs,
    );
  });
}

/**
 * Content written without the hooks (the demo seed, a restore) becomes known as it is, so its
 * first hooked write is told apart correctly. One statement; run at start and in the sweep.
 */
export async function adoptUnseenContent(db: Kysely<DB>): Promise<void> {
  await db
    .insertInto("webhook_content_state")
    .columns(["contentId", "status", "version"])
    .expression((eb) =>
      eb
        .selectFrom("content")
        .select(["content.id", "content.status", "content.version"])
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom("webhook_content_state")
                .select("webhook_content_state.contentId")
                .whereRef("webhook_content_state.contentId", "=", "content.id"),
            ),
          ),
        ),
    )
    .execute();
}

// --- Audit log: sign-ups and subscription changes -------------------------------------------------

const SUBSCRIPTION_ACTIONS = new Set([
  "subscription_created",
  "subscription_updated",
  "subscription_deleted",
  "subscription_granted",
  "subscription_extended",
  "subscription_canceled",
  "entitlement_changed",
]);

/** The audit log's append hook: `sign_up` and the subscription actions become events. */
export async function auditAppended(
  executor: Kysely<DB>,
  entry: {
    action: string;
    at: string;
    actorId: string | null;
    targetType: string | null;
    targetId: string | null;
    details: string | null;
  },
): Promise<void> {
  const signUp = entry.action === "sign_up";
  if (!signUp && !SUBSCRIPTION_ACTIONS.has(entry.action)) return;
  await recordSafely(executor, entry.action, async (ex) => {
    const nowMs = recorder.now();
    const userId = entry.targetType === "user" ? entry.targetId : signUp ? entry.actorId : null;
    const user = userId
      ? await ex.selectFrom("user").select(["id", "email"]).where("id", "=", userId).executeTakeFirst()
      : undefined;
    if (signUp) {
      if (!user) return 0;
      return insertDeliveries(
        ex,
        newPayload("user.signed_up", { userId: user.id, email: user.email, signedUpAt: entry.at }, nowMs),
        null,
        nowMs,
      );
    }
    let details: Record<string, unknown> = {};
    try {
      const parsed = entry.details ? JSON.parse(entry.details) : null;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) details = parsed;
    } catch {
      details = {};
    }
    const pick = (key: string) => (typeof details[key] === "string" ? details[key] : null);
    const data = {
      change: entry.action,
      subscriptionId: pick("subscriptionId"),
      userId: user?.id ?? (entry.targetType === "user" ? entry.targetId : null),
      email: user?.email ?? null,
      organizationId: entry.targetType === "organization" ? entry.targetId : null,
      tier: pick("tier"),
      status: pick("status"),
      fromTier: pick("fromTier"),
      toTier: pick("toTier"),
      reason: pick("reason"),
      changedAt: entry.at,
    };
    return insertDeliveries(ex, newPayload("subscription.changed", data, nowMs), null, nowMs);
  });
}

// --- Comments ------------------------------------------------------------------------------------

/** The comment create hook (after its transaction): comment.posted, without the comment's text. */
export async function commentPosted(
  executor: Kysely<DB>,
  comment: {
    id: string;
    contentId: string;
    authorId: string | null;
    parentCommentId: string | null;
    status: string;
    createdAt: string;
  },
): Promise<void> {
  await recordSafely(executor, "comment.posted", async (ex) => {
    const item = await ex
      .selectFrom("content")
      .select(["id", "slug", "title", "type", "tier"])
      .where("id", "=", comment.contentId)
      .executeTakeFirst();
    const path = item ? contentPathFor(item) : null;
    const nowMs = recorder.now();
    return insertDeliveries(
      ex,
      newPayload(
        "comment.posted",
        {
          id: comment.id,
          status: comment.status,
          authorId: comment.authorId,
          parentCommentId: comment.parentCommentId,
          createdAt: comment.createdAt,
          content: item ? { id: item.id, slug: item.slug, title: item.title, tier: item.tier } : null,
          path,
          url: path ? absolute(path) : null,
        },
        nowMs,
      ),
      null,
      nowMs,
    );
  });
}
