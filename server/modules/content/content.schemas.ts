/**
 * zod schemas for what the content repositories store as JSON, and for their cursors.
 */
import { z } from "zod";
import { stringListSchema, structuredDataSchema } from "../../db/json.ts";
import { timeCursorSchema } from "../../db/pagination.ts";

/** tags, aliases, audience, related, seoKeywords, rolesRequired. */
export const contentStringListSchema = stringListSchema;

/** structuredData: schema.org JSON-LD (an object or a list of objects). */
export const contentStructuredDataSchema = structuredDataSchema;

/** The string-list fields of Content (stored as JSON text). */
export const CONTENT_LIST_FIELDS = [
  "tags",
  "aliases",
  "audience",
  "related",
  "seoKeywords",
  "rolesRequired",
] as const;
export type ContentListField = (typeof CONTENT_LIST_FIELDS)[number];

/** The counters `incrementCounters` may change. */
export const CONTENT_COUNTERS = ["viewCount", "likeCount", "shareCount", "commentCount"] as const;
export type ContentCounter = (typeof CONTENT_COUNTERS)[number];

export const counterDeltasSchema = z.partialRecord(
  z.enum(CONTENT_COUNTERS),
  z.number().int().min(-1_000_000).max(1_000_000),
);

export const publishedCursorSchema = timeCursorSchema("publishedAt");
export const updatedCursorSchema = timeCursorSchema("updatedAt");
