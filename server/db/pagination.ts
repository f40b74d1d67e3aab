/**
 * Keyset (cursor) pagination helpers. A cursor is opaque to clients: base64url of a small JSON
 * object holding the sort key of the last item returned and its id, e.g. {publishedAt, id}.
 * A malformed cursor is a `BadInputError` (code BAD_USER_INPUT), never a crash.
 */
import { z } from "zod";
import { BadInputError } from "../errors.ts";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Page<T> {
  items: T[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface PageOptions {
  limit?: number | undefined;
  cursor?: string | null | undefined;
}

/** Clamps a requested page size to 1..100; missing or non-numeric means the default (20). */
export function clampLimit(limit: number | undefined | null, fallback = DEFAULT_LIMIT): number {
  if (limit === undefined || limit === null || !Number.isFinite(limit)) return fallback;
  return Math.min(MAX_LIMIT, Math.max(1, Math.trunc(limit)));
}

const MAX_CURSOR_LENGTH = 1024;

export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

export function decodeCursor<S extends z.ZodType>(schema: S, cursor: string): z.output<S> {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new BadInputError("cursor is malformed");
  }
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new BadInputError("cursor is malformed");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new BadInputError("cursor is malformed");
  return parsed.data;
}

const isoSchema = z.iso.datetime();
const idSchema = z.string().min(1).max(200);

/** Builds the cursor schema for a list ordered by `key` (an ISO datetime column) then id. */
export function timeCursorSchema<K extends string>(key: K) {
  return z.strictObject({ [key]: isoSchema, id: idSchema } as { [P in K]: typeof isoSchema } & {
    id: typeof idSchema;
  });
}

/**
 * Cuts the `limit + 1` rows a keyset query fetched into a page: the extra row only signals that
 * another page exists; the cursor is taken from the last row kept.
 */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  map: (row: R) => T,
  cursorOf: (row: R) => Record<string, string | number>,
): Page<T> {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return {
    items: kept.map(map),
    nextCursor: hasMore && last !== undefined ? encodeCursor(cursorOf(last)) : null,
  };
}
