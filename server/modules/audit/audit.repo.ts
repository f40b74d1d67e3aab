/**
 * The audit log: append-only security and admin events, newest first.
 */
import type { Kysely, Selectable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import { fromJson, toJsonOrNull } from "../../db/json.ts";
import { clampLimit, decodeCursor, type Page, type PageOptions, toPage } from "../../db/pagination.ts";
import type { AuditLogTable, DB } from "../../db/schema.ts";
import { isoInput, nowIso } from "../../db/values.ts";
import { BadInputError } from "../../errors.ts";
import { OPERATOR_ACTOR_ID } from "../actor.ts";
import { auditAppended } from "../webhooks/webhook-events.ts";
import { auditActionSchema, auditCursorSchema, auditDetailsSchema } from "./audit.schemas.ts";

export type AuditDetails = z.output<typeof auditDetailsSchema>;

export interface AuditEntry {
  id: string;
  at: string;
  actorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  details: AuditDetails | null;
}

export interface NewAuditEntry {
  action: string;
  actorId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  ip?: string | null;
  details?: AuditDetails | null;
  /** Defaults to now. */
  at?: string | Date;
}

export interface AuditListFilter {
  actorId?: string;
  action?: string;
}

function fromRow(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    actorId: row.actorId,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    ip: row.ip,
    details: fromJson(auditDetailsSchema.nullable(), row.details, "details"),
  };
}

export function createAuditRepo(db: Kysely<DB>) {
  return {
    async append(entry: NewAuditEntry): Promise<AuditEntry> {
      const action = auditActionSchema.safeParse(entry.action);
      if (!action.success) throw new BadInputError("audit action is not valid");
      // The operator (command line) is recorded as the system actor, with how it acted.
      const operator = entry.actorId === OPERATOR_ACTOR_ID;
      const values = {
        id: uuidv7(),
        at: entry.at === undefined ? nowIso() : isoInput(entry.at, "at"),
        actorId: operator ? null : (entry.actorId ?? null),
        action: action.data,
        targetType: entry.targetType ?? null,
        targetId: entry.targetId ?? null,
        ip: entry.ip ?? null,
        details: toJsonOrNull(
          auditDetailsSchema,
          operator ? { ...(entry.details ?? {}), via: "cli" } : entry.details,
          "details",
        ),
      };
      await db.insertInto("audit_log").values(values).execute();
      // Sign-ups and subscription changes are webhook events too (decision 037; never throws).
      await auditAppended(db, values);
      return fromRow(values);
    },

    /** Newest first (at desc, then id desc), keyset-paginated; optionally one actor's events. */
    async listRecent(filter: AuditListFilter = {}, page: PageOptions = {}): Promise<Page<AuditEntry>> {
      const limit = clampLimit(page.limit);
      const cursor = page.cursor ? decodeCursor(auditCursorSchema, page.cursor) : null;
      let query = db.selectFrom("audit_log").selectAll();
      if (filter.actorId !== undefined) query = query.where("actorId", "=", filter.actorId);
      if (filter.action !== undefined) query = query.where("action", "=", filter.action);
      if (cursor) {
        query = query.where((eb) => eb(eb.refTuple("at", "id"), "<", eb.tuple(cursor.at, cursor.id)));
      }
      const rows = await query
        .orderBy("at", "desc")
        .orderBy("id", "desc")
        .limit(limit + 1)
        .execute();
      return toPage(rows, limit, fromRow, (r) => ({ at: r.at, id: r.id }));
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
