/**
 * One keyset-paginated query for the data API's lists: conditions (access rules and filters,
 * all in SQL), an optional sort key then `id` as the tie-breaker, ASC or DESC, `limit + 1` rows
 * fetched to know whether another page exists. The opaque cursor (`nextToken`) holds the last
 * row's sort key and id (see pagination.ts).
 *
 * With an index on (key…, sortColumn, id) the page is one index range scan.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import { z } from "zod";
import { BadInputError } from "../errors.ts";
import { DEFAULT_LIMIT, decodeCursor, MAX_LIMIT, type Page, toPage } from "./pagination.ts";
import type { DB } from "./schema.ts";

export type SortDirection = "ASC" | "DESC";

/** The page size of a data API list: default 20; outside 1..100 → BadInputError (never clamped). */
export function pageLimit(limit: number | null | undefined): number {
  if (limit === undefined || limit === null) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new BadInputError(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return limit;
}

const idCursor = z.strictObject({ id: z.string().min(1).max(200) });
const sortCursor = z.strictObject({ s: z.string().min(1).max(200), id: z.string().min(1).max(200) });

export interface KeysetQuery<T> {
  table: keyof DB & string;
  conditions: readonly RawBuilder<boolean>[];
  /** Sort column before `id`; null orders by id only. Rows where it is NULL are left out. */
  sortColumn: string | null;
  direction?: SortDirection;
  limit?: number | null;
  cursor?: string | null;
  map: (row: never) => T;
}

export async function keysetPage<T>(db: Kysely<DB>, query: KeysetQuery<T>): Promise<Page<T>> {
  const limit = pageLimit(query.limit);
  const direction = query.direction ?? "ASC";
  const op = sql.raw(direction === "ASC" ? ">" : "<");
  const order = direction === "ASC" ? "asc" : "desc";
  const conditions = [...query.conditions];
  const sortColumn = query.sortColumn;
  if (sortColumn) conditions.push(sql<boolean>`${sql.ref(sortColumn)} is not null`);
  if (query.cursor) {
    if (sortColumn) {
      const c = decodeCursor(sortCursor, query.cursor);
      conditions.push(sql<boolean>`(${sql.ref(sortColumn)}, ${sql.ref("id")}) ${op} (${c.s}, ${c.id})`);
    } else {
      const c = decodeCursor(idCursor, query.cursor);
      conditions.push(sql<boolean>`${sql.ref("id")} ${op} ${c.id}`);
    }
  }
  // biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time; rows are mapped by `map`
  let builder = (db as Kysely<any>)
    .selectFrom(query.table)
    .selectAll()
    .where(conditions.length ? sql<boolean>`${sql.join(conditions, sql` and `)}` : sql<boolean>`1 = 1`);
  if (sortColumn) builder = builder.orderBy(sql.ref(sortColumn), order);
  const rows = (await builder
    .orderBy(sql.ref("id"), order)
    .limit(limit + 1)
    .execute()) as Record<string, unknown>[];
  return toPage(
    rows,
    limit,
    query.map as (row: Record<string, unknown>) => T,
    (row): Record<string, string> =>
      sortColumn ? { s: String(row[sortColumn]), id: String(row.id) } : { id: String(row.id) },
  );
}
