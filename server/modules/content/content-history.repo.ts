/**
 * The saved versions of content items and their workflow events (migration 021). Thin and typed:
 * no access checks here (the services do them).
 */
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { fromJson } from "../../db/json.ts";
import type { DB } from "../../db/schema.ts";
import { nowIso } from "../../db/values.ts";
import { type Content, WRITABLE_FIELDS } from "./content.repo.ts";
import type { VersionSnapshot } from "./studio.types.ts";

/**
 * The fields a version keeps: every field a write may set except these. The stored status,
 * workflow state, reviewer notes and publication time belong to the workflow, the body's key, size
 * and checksum follow the body, and the author and last editor follow the save; the review-by
 * date belongs to freshness (decision 038): a restore never sets them from an old version.
 */
const UNVERSIONED_FIELDS = [
  "status",
  "workflowStatus",
  "reviewerNotes",
  "publishedAt",
  "bodyS3Key",
  "bodySize",
  "bodyChecksum",
  "authorId",
  "lastEditedBy",
  "reviewBy",
] as const;
type UnversionedField = (typeof UNVERSIONED_FIELDS)[number];

export const VERSIONED_FIELDS = WRITABLE_FIELDS.filter(
  (field): field is Exclude<(typeof WRITABLE_FIELDS)[number], UnversionedField> =>
    !(UNVERSIONED_FIELDS as readonly string[]).includes(field),
);

export type VersionedField = (typeof VERSIONED_FIELDS)[number];

const snapshotSchema = z.object({ fields: z.record(z.string(), z.unknown()), body: z.string() });

/** The snapshot of `item` with `body` as its source. */
export function snapshotOf(item: Content, body: string): VersionSnapshot {
  const fields: Record<string, unknown> = {};
  for (const key of VERSIONED_FIELDS) fields[key] = item[key];
  return { fields, body };
}

export interface StoredVersion {
  version: number;
  authorId: string | null;
  createdAt: string;
  note: string | null;
  snapshot: VersionSnapshot;
}

export interface StoredWorkflowEvent {
  id: string;
  contentId: string;
  action: string;
  fromState: string;
  toState: string;
  actorId: string | null;
  at: string;
  notes: string | null;
  publishedAt: string | null;
}

export function createContentHistoryRepo(db: Kysely<DB>) {
  const toVersion = (row: {
    version: number;
    authorId: string | null;
    createdAt: string;
    note: string | null;
    snapshot: string;
  }): StoredVersion => ({
    version: Number(row.version),
    authorId: row.authorId,
    createdAt: row.createdAt,
    note: row.note,
    snapshot: fromJson(snapshotSchema, row.snapshot, "snapshot"),
  });

  return {
    /** Records `item` (at its current version) as saved by `authorId`. */
    async addVersion(item: Content, body: string, authorId: string | null, note: string | null = null) {
      await db
        .insertInto("content_version")
        .values({
          id: uuidv7(),
          contentId: item.id,
          version: item.version,
          authorId,
          createdAt: item.updatedAt || nowIso(),
          note,
          snapshot: JSON.stringify(snapshotOf(item, body)),
        })
        .execute();
    },

    /** Whether any version of the item is kept. */
    async hasVersions(contentId: string): Promise<boolean> {
      const row = await db
        .selectFrom("content_version")
        .select("id")
        .where("contentId", "=", contentId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Every version of an item, newest first. */
    async listVersions(contentId: string): Promise<StoredVersion[]> {
      const rows = await db
        .selectFrom("content_version")
        .select(["version", "authorId", "createdAt", "note", "snapshot"])
        .where("contentId", "=", contentId)
        .orderBy("version", "desc")
        .execute();
      return rows.map(toVersion);
    },

    async getVersion(contentId: string, version: number): Promise<StoredVersion | null> {
      const row = await db
        .selectFrom("content_version")
        .select(["version", "authorId", "createdAt", "note", "snapshot"])
        .where("contentId", "=", contentId)
        .where("version", "=", version)
        .executeTakeFirst();
      return row ? toVersion(row) : null;
    },

    async addEvent(event: Omit<StoredWorkflowEvent, "id">): Promise<StoredWorkflowEvent> {
      const row = { id: uuidv7(), ...event };
      await db.insertInto("content_workflow_event").values(row).execute();
      return row;
    },

    /** Every workflow event of an item, newest first. */
    async listEvents(contentId: string): Promise<StoredWorkflowEvent[]> {
      return db
        .selectFrom("content_workflow_event")
        .selectAll()
        .where("contentId", "=", contentId)
        .orderBy("at", "desc")
        .orderBy("id", "desc")
        .execute();
    },
  };
}

export type ContentHistoryRepo = ReturnType<typeof createContentHistoryRepo>;
