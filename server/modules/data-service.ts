/**
 * Shapes shared by the data services (subscriptions, users, comments, repositories): list
 * arguments, list-by-key arguments, the page they answer, and input validation with zod that
 * names the offending field in a `BadInputError`.
 */
import type { RawBuilder } from "kysely";
import type { z } from "zod";
import type { Dialect } from "../db/dialect.ts";
import {
  type FieldKind,
  type FilterFields,
  filterSql,
  parseFilter,
  parseSortKeyCondition,
  type SortKeyCondition,
  sortKeySql,
} from "../db/filters.ts";
import type { SortDirection } from "../db/keyset-page.ts";
import type { Page } from "../db/pagination.ts";
import { BadInputError } from "../errors.ts";

export type { SortDirection, SortKeyCondition };

export interface ListArgs {
  /** `{ field: { eq, ne, lt, le, gt, ge, between, beginsWith, contains } }` over the model's filterable fields. */
  filter?: unknown;
  /** 1..100, default 20. */
  limit?: number | null;
  /** The `nextToken` of the previous page. */
  nextToken?: string | null;
}

export interface ListByKeyArgs extends ListArgs {
  /** A condition on the index's sort key (exactly one of eq, lt, le, gt, ge, between, beginsWith). */
  sortKey?: SortKeyCondition | null;
  sortDirection?: SortDirection | null;
}

export interface Connection<T> {
  items: T[];
  nextToken: string | null;
}

export function toConnection<R, T>(page: Page<R>, map: (row: R) => T): Connection<T> {
  return { items: page.items.map(map), nextToken: page.nextCursor };
}

/** Parses `input` with `schema`; a failure is a BadInputError naming the first bad field (message and `field`). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = "input"): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    throw new BadInputError(`${what}.${key} cannot be set here`, { field: { [key]: "cannot be set here" } });
  }
  const field = issue?.path.length ? `${what}.${issue.path.join(".")}` : what;
  const problem = issue?.message ?? "is not valid";
  throw new BadInputError(`${field}: ${problem}`, {
    field: issue?.path.length ? { [String(issue.path[0])]: problem } : undefined,
  });
}

export function requireVersion(expectedVersion: unknown): number {
  if (typeof expectedVersion !== "number" || !Number.isInteger(expectedVersion) || expectedVersion < 1) {
    throw new BadInputError("version must be the record's current version (a whole number from 1)");
  }
  return expectedVersion;
}

/** The id argument of get/update/delete: a non-empty string of at most 200 characters. */
export function requireId(id: unknown, name = "id"): string {
  if (typeof id !== "string" || id.length === 0 || id.length > 200)
    throw new BadInputError(`${name} is not valid`);
  return id;
}

/** The filter's SQL (after validation against `fields`), as a list of conditions (0 or 1). */
export function filterConditions(
  fields: FilterFields,
  filter: unknown,
  dialect: Dialect,
  table?: string,
): RawBuilder<boolean>[] {
  const condition = filterSql(fields, parseFilter(fields, filter), { dialect, ...(table ? { table } : {}) });
  return condition ? [condition] : [];
}

/** The sort-key condition's SQL, as a list of conditions (0 or 1). */
export function sortKeyConditions(
  column: string,
  kind: FieldKind,
  sortKey: unknown,
  dialect: Dialect,
): RawBuilder<boolean>[] {
  const condition = sortKeySql(column, kind, parseSortKeyCondition(kind, sortKey), { dialect });
  return condition ? [condition] : [];
}

export function direction(value: unknown): SortDirection {
  if (value === undefined || value === null || value === "ASC") return "ASC";
  if (value === "DESC") return "DESC";
  throw new BadInputError("sortDirection must be ASC or DESC");
}
