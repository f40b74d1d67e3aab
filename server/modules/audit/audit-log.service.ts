/**
 * The audit log for platform administrators (/admin/logs, `GET /api/admin/audit*`): every
 * `audit_log` row (security events and admin, billing, organisation and account actions) with
 * filters, keyset paging and a bounded export. Access: `adminAccess("audit.read")` — platform
 * administrators only (decision 009); visitors 401, everyone else 403, API keys and service
 * tokens 403.
 *
 * Filters (`parseAuditQuery`, shared by the screen's GET form and the REST API):
 * q (free text over action, target id, actor e-mail/name and the details text), actor (a user id,
 * an e-mail, or "system"), action (one or several), kind (a category of core/audit-actions.ts),
 * targetType, targetId, from/to (ISO date-time, or a date: `to` then includes that whole day),
 * sort (newest | oldest), cursor, limit.
 */
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { z } from "zod";
import { adminAccess } from "../../../core/admin-scope.ts";
import {
  AUDIT_ACTIONS,
  AUDIT_CATEGORIES,
  type AuditCategory,
  auditActionLabel,
  auditActionsOf,
  auditCategory,
} from "../../../core/audit-actions.ts";
import { fromJson } from "../../db/json.ts";
import { clampLimit, decodeCursor, encodeCursor, type Page } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { BadInputError, ForbiddenError, UnauthenticatedError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import type { AuditDetails } from "./audit.repo.ts";
import { auditCursorSchema, auditDetailsSchema } from "./audit.schemas.ts";

/** Most rows one export holds. */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;
const EXPORT_BATCH = 500;
const MAX_ACTIONS = 50;

export type AuditSort = "newest" | "oldest";

export interface AuditQuery {
  q: string | null;
  actor: string | null;
  actions: string[];
  kind: AuditCategory | null;
  targetType: string | null;
  targetId: string | null;
  /** Inclusive lower bound (ISO). */
  from: string | null;
  /** Upper bound (ISO): inclusive for a date-time, the next day's start (exclusive) for a date. */
  to: string | null;
  toExclusive: boolean;
  sort: AuditSort;
  cursor: string | null;
  limit: number;
}

export interface AuditLogItem {
  id: string;
  at: string;
  actor: { id: string; name: string | null; email: string | null } | null;
  action: string;
  label: string;
  category: AuditCategory;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  details: AuditDetails | null;
}

/** What a query string may hold: one value, or several for `action`. */
export type QueryInput = URLSearchParams | Record<string, string | string[] | undefined>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function values(input: QueryInput, key: string): string[] {
  if (input instanceof URLSearchParams) return input.getAll(key);
  const v = input[key];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function single(input: QueryInput, key: string, max: number): string | null {
  const all = values(input, key).map((v) => v.trim());
  const set = all.filter((v) => v !== "");
  if (set.length > 1) throw bad(key, "give it once");
  const value = set[0] ?? null;
  if (value !== null && value.length > max) throw bad(key, `at most ${max} characters`);
  return value;
}

function bad(field: string, problem: string): BadInputError {
  return new BadInputError(`${field}: ${problem}`, { field: { [field]: problem } });
}

function time(field: "from" | "to", value: string | null): { iso: string; dateOnly: boolean } | null {
  if (value === null) return null;
  if (DATE_ONLY.test(value)) {
    const start = new Date(`${value}T00:00:00.000Z`);
    if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== value)
      throw bad(field, "not a real date");
    return { iso: start.toISOString(), dateOnly: true };
  }
  if (!z.iso.datetime({ offset: true }).safeParse(value).success)
    throw bad(field, "expected a date (2026-01-31) or an ISO date-time (2026-01-31T12:00:00Z)");
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw bad(field, "not a real time");
  return { iso: at.toISOString(), dateOnly: false };
}

/** Parses and validates the filters; a bad value is a BadInputError naming the parameter. */
export function parseAuditQuery(input: QueryInput): AuditQuery {
  const known = new Set([
    "q",
    "actor",
    "action",
    "kind",
    "targetType",
    "targetId",
    "from",
    "to",
    "sort",
    "cursor",
    "limit",
    "format",
  ]);
  const keys = input instanceof URLSearchParams ? [...input.keys()] : Object.keys(input);
  for (const key of keys) if (!known.has(key)) throw bad(key, "is not a filter of the audit log");

  const actions = [
    ...new Set(
      values(input, "action")
        .flatMap((v) => v.split(","))
        .map((v) => v.trim())
        .filter((v) => v !== ""),
    ),
  ];
  if (actions.length > MAX_ACTIONS) throw bad("action", `at most ${MAX_ACTIONS} actions`);
  for (const a of actions) if (a.length > 100) throw bad("action", "at most 100 characters each");

  const kind = single(input, "kind", 40);
  if (kind !== null && !(AUDIT_CATEGORIES as readonly string[]).includes(kind))
    throw bad("kind", `one of ${AUDIT_CATEGORIES.join(", ")}`);

  const sort = single(input, "sort", 10) ?? "newest";
  if (sort !== "newest" && sort !== "oldest") throw bad("sort", "newest or oldest");

  const limitText = single(input, "limit", 6);
  let limit = 50;
  if (limitText !== null) {
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100)
      throw bad("limit", "a whole number from 1 to 100");
    limit = clampLimit(Number(limitText), 50);
  }

  const from = time("from", single(input, "from", 40));
  const toRaw = time("to", single(input, "to", 40));
  let to: string | null = null;
  if (toRaw) to = toRaw.dateOnly ? new Date(Date.parse(toRaw.iso) + 86_400_000).toISOString() : toRaw.iso;
  if (from && to && (toRaw?.dateOnly ? to <= from.iso : to < from.iso))
    throw bad("to", "must not be before from");

  const cursor = single(input, "cursor", 1024);
  if (cursor !== null) {
    try {
      decodeCursor(auditCursorSchema, cursor);
    } catch {
      throw bad("cursor", "is malformed");
    }
  }

  return {
    q: single(input, "q", 200),
    actor: single(input, "actor", 320),
    actions,
    kind: kind as AuditCategory | null,
    targetType: single(input, "targetType", 100),
    targetId: single(input, "targetId", 200),
    from: from?.iso ?? null,
    to,
    toExclusive: toRaw?.dateOnly ?? false,
    sort,
    cursor,
    limit,
  };
}

/** The filters of a query as URL parameters (no cursor or limit): export links and paging keep them. */
export function auditQueryParams(
  query: AuditQuery,
  raw?: { from?: string | null; to?: string | null },
): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.actor) params.set("actor", query.actor);
  for (const a of query.actions) params.append("action", a);
  if (query.kind) params.set("kind", query.kind);
  if (query.targetType) params.set("targetType", query.targetType);
  if (query.targetId) params.set("targetId", query.targetId);
  const from = raw?.from ?? query.from;
  const to = raw?.to ?? query.to;
  if (from) params.set("from", from);
  if (to) params.set("to", to);
  if (query.sort !== "newest") params.set("sort", query.sort);
  return params;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern (with ESCAPE '\'). */
function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type AuditRow = {
  id: string;
  at: string;
  actorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  details: string | null;
  actorName: string | null;
  actorEmail: string | null;
};

function toItem(row: AuditRow): AuditLogItem {
  let details: AuditDetails | null = null;
  try {
    details = fromJson(auditDetailsSchema.nullable(), row.details, "details");
  } catch {
    details = { unreadable: String(row.details) };
  }
  return {
    id: row.id,
    at: row.at,
    actor: row.actorId ? { id: row.actorId, name: row.actorName, email: row.actorEmail } : null,
    action: row.action,
    label: auditActionLabel(row.action),
    category: auditCategory(row.action),
    targetType: row.targetType,
    targetId: row.targetId,
    ip: row.ip,
    details,
  };
}

export function requireAuditReader(actor: Actor): void {
  if (actor.kind === "api-key" || actor.kind === "service")
    throw new ForbiddenError(
      "the audit log is for signed-in platform administrators; credentials cannot read it",
    );
  const decision = adminAccess("audit.read", actor.access);
  if (decision.kind === "denied") {
    if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
    throw new ForbiddenError(decision.message);
  }
}

export function createAuditLogService(deps: { db: Kysely<DB> }) {
  const { db } = deps;

  function filtered(query: AuditQuery, after: { at: string; id: string } | null) {
    let qb: SelectQueryBuilder<DB, "audit_log" | "user", AuditRow> = db
      .selectFrom("audit_log")
      .leftJoin("user", "user.id", "audit_log.actorId")
      .select([
        "audit_log.id",
        "audit_log.at",
        "audit_log.actorId",
        "audit_log.action",
        "audit_log.targetType",
        "audit_log.targetId",
        "audit_log.ip",
        "audit_log.details",
        "user.name as actorName",
        "user.email as actorEmail",
      ]) as never;
    if (query.actor !== null) {
      const actorFilter = query.actor;
      if (actorFilter.toLowerCase() === "system") qb = qb.where("audit_log.actorId", "is", null);
      else if (actorFilter.includes("@"))
        qb = qb.where(sql<boolean>`lower(${sql.ref("user.email")}) = ${actorFilter.toLowerCase()}`);
      else qb = qb.where("audit_log.actorId", "=", actorFilter);
    }
    if (query.actions.length > 0) qb = qb.where("audit_log.action", "in", query.actions);
    if (query.kind !== null) {
      if (query.kind === "other") {
        const all = Object.keys(AUDIT_ACTIONS);
        qb = qb.where("audit_log.action", "not in", all);
      } else {
        qb = qb.where("audit_log.action", "in", auditActionsOf(query.kind));
      }
    }
    if (query.targetType !== null) qb = qb.where("audit_log.targetType", "=", query.targetType);
    if (query.targetId !== null) qb = qb.where("audit_log.targetId", "=", query.targetId);
    if (query.from !== null) qb = qb.where("audit_log.at", ">=", query.from);
    if (query.to !== null) qb = qb.where("audit_log.at", query.toExclusive ? "<" : "<=", query.to);
    if (query.q !== null) {
      const pattern = likeContains(query.q);
      const like = (ref: string) =>
        sql<boolean>`lower(coalesce(${sql.ref(ref)}, '')) like ${pattern} escape '\\'`;
      qb = qb.where((eb) =>
        eb.or([
          like("audit_log.action"),
          like("audit_log.targetId"),
          like("audit_log.details"),
          like("user.email"),
          like("user.name"),
        ]),
      );
    }
    const desc = query.sort === "newest";
    if (after) {
      qb = qb.where((eb) =>
        eb(eb.refTuple("audit_log.at", "audit_log.id"), desc ? "<" : ">", eb.tuple(after.at, after.id)),
      );
    }
    return qb.orderBy("audit_log.at", desc ? "desc" : "asc").orderBy("audit_log.id", desc ? "desc" : "asc");
  }

  return {
    /** One page of rows matching `query` (platform administrators only). */
    async list(actor: Actor, query: AuditQuery): Promise<Page<AuditLogItem>> {
      requireAuditReader(actor);
      const after = query.cursor ? decodeCursor(auditCursorSchema, query.cursor) : null;
      const rows = await filtered(query, after)
        .limit(query.limit + 1)
        .execute();
      const hasMore = rows.length > query.limit;
      const kept = hasMore ? rows.slice(0, query.limit) : rows;
      const last = kept[kept.length - 1];
      return {
        items: kept.map(toItem),
        nextCursor: hasMore && last ? encodeCursor({ at: last.at, id: last.id }) : null,
      };
    },

    /**
     * Every row matching `query` (from its cursor on), at most `AUDIT_EXPORT_MAX_ROWS`, read in
     * keyset batches so an export never holds the whole log in memory. Access is checked here,
     * before the first row is read.
     */
    exportRows(actor: Actor, query: AuditQuery): AsyncIterable<AuditLogItem> {
      requireAuditReader(actor);
      return {
        async *[Symbol.asyncIterator]() {
          let after = query.cursor ? decodeCursor(auditCursorSchema, query.cursor) : null;
          let sent = 0;
          while (sent < AUDIT_EXPORT_MAX_ROWS) {
            const batch = Math.min(EXPORT_BATCH, AUDIT_EXPORT_MAX_ROWS - sent);
            const rows = await filtered(query, after).limit(batch).execute();
            for (const row of rows) yield toItem(row);
            sent += rows.length;
            const last = rows[rows.length - 1];
            if (rows.length < batch || !last) break;
            after = { at: last.at, id: last.id };
          }
        },
      };
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;
