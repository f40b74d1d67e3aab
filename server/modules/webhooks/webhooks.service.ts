/**
 * Webhook endpoints and their delivery log (/admin/webhooks, `/api/admin/webhooks*`; decision
 * 037). Access: `adminAccess("webhooks.manage")` — platform administrators only; visitors 401,
 * everyone else 403 (API keys and service tokens are refused by the REST layer before this).
 *
 * - An endpoint's secret is generated here and answered once, on creation and on rotation; lists
 *   show only its last four characters.
 * - Creating, changing, rotating and deleting an endpoint write audit rows (never the secret).
 * - "Send a test event" records a `webhook.test` delivery for that endpoint only; a replay is a
 *   new delivery of the same event (same id and body) to the same endpoint. Both are sent at once
 *   by the sender and appear in the log like any other delivery.
 */
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { adminAccess } from "../../../core/admin-scope.ts";
import type { DB } from "../../db/schema.ts";
import {
  BadInputError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthenticatedError,
} from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import {
  insertDeliveries,
  kickSenders,
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
  type WebhookPayload,
} from "./webhook-events.ts";
import { MAX_ATTEMPTS } from "./webhook-sender.ts";
import { newWebhookSecret } from "./webhook-signing.ts";
import { webhookUrlProblem } from "./webhook-url.ts";

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  /** The secret's last four characters (the whole secret is shown once). */
  secretHint: string;
  createdAt: string;
  updatedAt: string;
  secretRotatedAt: string | null;
  /** The latest delivery's outcome, for the list. */
  lastDelivery: { status: DeliveryStatus; at: string; responseStatus: number | null } | null;
}

export type DeliveryStatus = "pending" | "sending" | "succeeded" | "failed";

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  responseStatus: number | null;
  responseExcerpt: string | null;
  durationMs: number | null;
  error: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  replayOf: string | null;
  /** The JSON body sent. */
  payload: WebhookPayload;
}

export interface WebhooksServiceDeps {
  db: Kysely<DB>;
  now?: () => number;
  allowPrivateNetworks?: boolean;
}

const MAX_ENDPOINTS = 50;
const eventsList = `one or more of ${WEBHOOK_EVENTS.join(", ")}`;

const urlField = z
  .string({ message: "expected a URL" })
  .trim()
  .min(1, "required")
  .max(2000, "at most 2000 characters");
const eventsField = z
  .array(z.string({ message: `expected event names: ${eventsList}` }), {
    message: `expected a list: ${eventsList}`,
  })
  .min(1, `choose at least one event: ${eventsList}`)
  .max(WEBHOOK_EVENTS.length * 2);
const descriptionField = z.string({ message: "expected text" }).trim().max(500, "at most 500 characters");
const enabledField = z.boolean({ message: "expected true or false" });

export const webhookCreateSchema = z.strictObject({
  url: urlField,
  events: eventsField,
  description: descriptionField.optional(),
  enabled: enabledField.optional(),
});
export const webhookUpdateSchema = z.strictObject({
  url: urlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.optional(),
  enabled: enabledField.optional(),
});

function bad(field: string, problem: string): BadInputError {
  return new BadInputError(`${field}: ${problem}`, { field: { [field]: problem } });
}

function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const problem = "unknown field (it cannot be set)";
    throw new BadInputError(`${issue.keys.join(", ")}: ${problem}`, {
      field: Object.fromEntries(issue.keys.map((k) => [k, problem])),
    });
  }
  const field = String(issue.path[0] ?? "body");
  const problem = issue.code === "invalid_type" && issue.input === undefined ? "required" : issue.message;
  throw bad(field, problem);
}

function checkEvents(events: string[]): string[] {
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length > 0)
    throw bad("events", `unknown event ${unknown.map((u) => `"${u}"`).join(", ")}; expected ${eventsList}`);
  return [...new Set(events)];
}

function requireManager(actor: Actor): string {
  const decision = adminAccess("webhooks.manage", actor.access);
  if (decision.kind === "denied") {
    if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
    throw new ForbiddenError(decision.message);
  }
  if (!actor.userId) throw new ForbiddenError("webhooks are managed by a signed-in platform administrator");
  return actor.userId;
}

const toBool = (v: boolean | number) => v === true || v === 1;

function parseStoredEvents(text: string): string[] {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const allowPrivateNetworks = deps.allowPrivateNetworks ?? false;

  function checkUrl(url: string): string {
    const problem = webhookUrlProblem(url, { allowPrivateNetworks });
    if (problem) throw bad("url", problem);
    return url;
  }

  function deliveryStatus(row: { status: string; leaseUntil: number | string }, at: number): DeliveryStatus {
    if (row.status === "pending" && Number(row.leaseUntil) > at) return "sending";
    return row.status === "succeeded" || row.status === "failed" ? row.status : "pending";
  }

  async function endpointRow(id: string) {
    if (typeof id !== "string" || id.length === 0 || id.length > 100)
      throw new NotFoundError("webhook endpoint", String(id));
    const row = await db.selectFrom("webhook_endpoint").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new NotFoundError("webhook endpoint", id);
    return row;
  }

  async function toEndpoints(rows: Awaited<ReturnType<typeof endpointRow>>[]): Promise<WebhookEndpoint[]> {
    const at = now();
    const result: WebhookEndpoint[] = [];
    for (const row of rows) {
      const last = await db
        .selectFrom("webhook_delivery")
        .select(["status", "leaseUntil", "lastAttemptAt", "createdAt", "responseStatus"])
        .where("endpointId", "=", row.id)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      result.push({
        id: row.id,
        url: row.url,
        description: row.description,
        events: parseStoredEvents(row.events),
        enabled: toBool(row.enabled),
        secretHint: row.secret.slice(-4),
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
        secretRotatedAt: row.secretRotatedAt,
        lastDelivery: last
          ? {
              status: deliveryStatus(last, at),
              at: last.lastAttemptAt ?? last.createdAt,
              responseStatus: last.responseStatus === null ? null : Number(last.responseStatus),
            }
          : null,
      });
    }
    return result;
  }

  type DeliveryRow = {
    id: string;
    endpointId: string;
    eventId: string;
    eventType: string;
    payload: string;
    status: string;
    attempts: number;
    nextAttemptEpoch: number | null;
    leaseUntil: number;
    lastAttemptAt: string | null;
    responseStatus: number | null;
    responseExcerpt: string | null;
    durationMs: number | null;
    error: string | null;
    replayOf: string | null;
    createdAt: string;
  };

  function toDelivery(row: DeliveryRow, at: number): WebhookDelivery {
    let payload: WebhookPayload;
    try {
      payload = JSON.parse(row.payload) as WebhookPayload;
    } catch {
      payload = { id: row.eventId, type: row.eventType, createdAt: row.createdAt, data: {} };
    }
    const status = deliveryStatus(row, at);
    return {
      id: row.id,
      endpointId: row.endpointId,
      eventId: row.eventId,
      eventType: row.eventType,
      status,
      attempts: Number(row.attempts),
      maxAttempts: MAX_ATTEMPTS,
      responseStatus: row.responseStatus === null ? null : Number(row.responseStatus),
      responseExcerpt: row.responseExcerpt,
      durationMs: row.durationMs === null ? null : Number(row.durationMs),
      error: row.error,
      lastAttemptAt: row.lastAttemptAt,
      nextAttemptAt:
        row.status === "pending" && row.nextAttemptEpoch !== null
          ? new Date(Number(row.nextAttemptEpoch)).toISOString()
          : null,
      createdAt: row.createdAt,
      replayOf: row.replayOf,
      payload,
    };
  }

  async function audit(
    action: string,
    actorId: string,
    targetId: string,
    details: Record<string, unknown>,
    ip: string | null,
  ) {
    await createAuditRepo(db).append({
      action,
      actorId,
      targetType: "webhook_endpoint",
      targetId,
      ip,
      details: details as never,
    });
  }

  /** Inserts one delivery of a new or replayed event for one endpoint and has it sent at once. */
  async function deliver(
    endpointId: string,
    payload: WebhookPayload,
    replayOf: string | null,
  ): Promise<WebhookDelivery> {
    const at = now();
    const id = uuidv7();
    await db
      .insertInto("webhook_delivery")
      .values({
        id,
        endpointId,
        eventId: payload.id,
        eventType: payload.type,
        payload: JSON.stringify(payload),
        status: "pending",
        attempts: 0,
        nextAttemptEpoch: at,
        leaseUntil: 0,
        replayOf,
        createdAt: new Date(at).toISOString(),
        createdEpoch: at,
      })
      .execute();
    kickSenders();
    const row = await db
      .selectFrom("webhook_delivery")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return toDelivery(row as DeliveryRow, now());
  }

  return {
    events: WEBHOOK_EVENTS,

    async list(actor: Actor): Promise<WebhookEndpoint[]> {
      requireManager(actor);
      const rows = await db
        .selectFrom("webhook_endpoint")
        .selectAll()
        .orderBy("createdAt")
        .orderBy("id")
        .execute();
      return toEndpoints(rows);
    },

    async get(actor: Actor, id: string): Promise<WebhookEndpoint> {
      requireManager(actor);
      return (await toEndpoints([await endpointRow(id)]))[0]!;
    },

    async create(actor: Actor, input: unknown, meta: { ip?: string | null } = {}) {
      const userId = requireManager(actor);
      const data = parseBody(webhookCreateSchema, input);
      const url = checkUrl(data.url);
      const events = checkEvents(data.events);
      const count = await db
        .selectFrom("webhook_endpoint")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      if (Number(count?.n ?? 0) >= MAX_ENDPOINTS)
        throw new ConflictError(`at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
      const at = new Date(now()).toISOString();
      const id = uuidv7();
      const secret = newWebhookSecret();
      await db
        .insertInto("webhook_endpoint")
        .values({
          id,
          url,
          description: data.description ?? "",
          events: JSON.stringify(events),
          secret,
          enabled: data.enabled ?? true,
          createdBy: userId,
          createdAt: at,
          updatedAt: at,
          secretRotatedAt: null,
        })
        .execute();
      await audit(
        "webhook_endpoint_created",
        userId,
        id,
        { url, events, enabled: data.enabled ?? true },
        meta.ip ?? null,
      );
      return { endpoint: (await toEndpoints([await endpointRow(id)]))[0]!, secret };
    },

    async update(
      actor: Actor,
      id: string,
      input: unknown,
      meta: { ip?: string | null } = {},
    ): Promise<WebhookEndpoint> {
      const userId = requireManager(actor);
      const row = await endpointRow(id);
      const data = parseBody(webhookUpdateSchema, input);
      const patch: {
        url?: string;
        events?: string;
        description?: string;
        enabled?: boolean;
        updatedAt: string;
      } = {
        updatedAt: new Date(now()).toISOString(),
      };
      const changed: Record<string, unknown> = {};
      if (data.url !== undefined && data.url !== row.url) {
        patch.url = checkUrl(data.url);
        changed.url = patch.url;
      }
      if (data.events !== undefined) {
        const events = checkEvents(data.events);
        patch.events = JSON.stringify(events);
        changed.events = events;
      }
      if (data.description !== undefined) {
        patch.description = data.description;
        changed.description = true;
      }
      if (data.enabled !== undefined) {
        patch.enabled = data.enabled;
        changed.enabled = data.enabled;
      }
      await db.updateTable("webhook_endpoint").set(patch).where("id", "=", row.id).execute();
      await audit(
        "webhook_endpoint_updated",
        userId,
        row.id,
        { url: patch.url ?? row.url, changed },
        meta.ip ?? null,
      );
      return (await toEndpoints([await endpointRow(row.id)]))[0]!;
    },

    async rotateSecret(actor: Actor, id: string, meta: { ip?: string | null } = {}) {
      const userId = requireManager(actor);
      const row = await endpointRow(id);
      const secret = newWebhookSecret();
      const at = new Date(now()).toISOString();
      await db
        .updateTable("webhook_endpoint")
        .set({ secret, secretRotatedAt: at, updatedAt: at })
        .where("id", "=", row.id)
        .execute();
      await audit("webhook_secret_rotated", userId, row.id, { url: row.url }, meta.ip ?? null);
      return { endpoint: (await toEndpoints([await endpointRow(row.id)]))[0]!, secret };
    },

    async delete(actor: Actor, id: string, meta: { ip?: string | null } = {}): Promise<void> {
      const userId = requireManager(actor);
      const row = await endpointRow(id);
      await db.deleteFrom("webhook_delivery").where("endpointId", "=", row.id).execute();
      await db.deleteFrom("webhook_endpoint").where("id", "=", row.id).execute();
      await audit("webhook_endpoint_deleted", userId, row.id, { url: row.url }, meta.ip ?? null);
    },

    /** A `webhook.test` event to this endpoint only (sent even if it does not subscribe to it). */
    async sendTest(actor: Actor, id: string): Promise<WebhookDelivery> {
      const userId = requireManager(actor);
      const row = await endpointRow(id);
      if (!toBool(row.enabled))
        throw new ConflictError("this endpoint is disabled; enable it to send a test event");
      const at = now();
      const payload: WebhookPayload = {
        id: uuidv7(),
        type: WEBHOOK_TEST_EVENT,
        createdAt: new Date(at).toISOString(),
        data: { endpointId: row.id, requestedBy: userId, message: "A test event from Lumen Hub." },
      };
      return deliver(row.id, payload, null);
    },

    /** The endpoint's deliveries, newest first; `before` pages on (the last id shown). */
    async deliveries(
      actor: Actor,
      id: string,
      query: { before?: string | null; limit?: number | null; status?: string | null } = {},
    ): Promise<{ items: WebhookDelivery[]; nextBefore: string | null }> {
      requireManager(actor);
      const row = await endpointRow(id);
      const limit = query.limit ?? 25;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        throw bad("limit", "a whole number from 1 to 100");
      const status = query.status ?? null;
      if (status !== null && !["pending", "succeeded", "failed"].includes(status))
        throw bad("status", "pending, succeeded or failed");
      let q = db.selectFrom("webhook_delivery").selectAll().where("endpointId", "=", row.id);
      if (query.before) {
        if (query.before.length > 100) throw bad("before", "not a delivery id");
        q = q.where("id", "<", query.before);
      }
      if (status) q = q.where("status", "=", status);
      const rows = (await q
        .orderBy("id", "desc")
        .limit(limit + 1)
        .execute()) as DeliveryRow[];
      const at = now();
      const items = rows.slice(0, limit).map((r) => toDelivery(r, at));
      return { items, nextBefore: rows.length > limit ? items[items.length - 1]!.id : null };
    },

    async delivery(actor: Actor, deliveryId: string): Promise<WebhookDelivery> {
      requireManager(actor);
      const row = await db
        .selectFrom("webhook_delivery")
        .selectAll()
        .where("id", "=", deliveryId)
        .executeTakeFirst();
      if (!row) throw new NotFoundError("webhook delivery", deliveryId);
      return toDelivery(row as DeliveryRow, now());
    },

    /** A new attempt of any delivery: a new row with the same event id and body, sent at once. */
    async replay(actor: Actor, deliveryId: string): Promise<WebhookDelivery> {
      requireManager(actor);
      if (typeof deliveryId !== "string" || deliveryId.length > 100)
        throw new NotFoundError("webhook delivery", String(deliveryId));
      const row = await db
        .selectFrom("webhook_delivery")
        .selectAll()
        .where("id", "=", deliveryId)
        .executeTakeFirst();
      if (!row) throw new NotFoundError("webhook delivery", deliveryId);
      const endpoint = await endpointRow(row.endpointId);
      if (!toBool(endpoint.enabled))
        throw new ConflictError("this endpoint is disabled; enable it to replay a delivery");
      const original = toDelivery(row as DeliveryRow, now());
      return deliver(endpoint.id, original.payload, row.id);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

/** The events a new endpoint may subscribe to, with labels (the screen's checkboxes). */
export { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS } from "./webhook-events.ts";

// Re-exported so callers need one import for the event-recording helper of the tests.
export { insertDeliveries };
