/**
 * The data API's generic list filters, applied in SQL (dialect-safe, every value a bound parameter).
 *
 * A model declares which of its columns may be filtered and their kind (`FilterFields`); a client
 * filter is `{ <field>: { eq, ne, lt, le, gt, ge, between: [a, b], beginsWith, contains } }`,
 * validated with zod against that declaration (an unknown field, an operator the kind does not
 * have or a value of the wrong type is a `BadInputError` naming the field). Several fields and
 * several operators on one field all have to hold (AND).
 *
 * Semantics, the same on SQLite and PostgreSQL:
 * - `eq`, `lt`, `le`, `gt`, `ge`: comparisons; a NULL column never matches;
 * - `ne`: different from the value, NULL included (`col <> v or col is null`);
 * - `between: [a, b]`: `a <= col <= b` (inclusive, as the original API);
 * - `beginsWith`, `contains`: case-sensitive prefix / substring of a text column (`substr` and
 *   `instr`/`strpos`, not LIKE: SQLite's LIKE ignores case and both treat % and _ as wildcards).
 * - datetimes are compared as canonical ISO-8601 UTC text (decision 002), so inputs are normalised
 *   with `isoInput` first.
 *
 * The sort-key condition of the list-by-key queries (`SortKeyCondition`: exactly one of eq, lt,
 * le, gt, ge, between, beginsWith) is built here too.
 */
import { type RawBuilder, sql } from "kysely";
import { z } from "zod";
import { BadInputError } from "../errors.ts";
import type { Dialect } from "./dialect.ts";
import { isoInput } from "./values.ts";

/**
 * `datetime`: the ISO text columns of our own tables (comparisons, and beginsWith such as
 * "2026-02"). Better Auth's datetime columns are timestamptz on PostgreSQL: not filterable here.
 */
export type FieldKind = "string" | "number" | "boolean" | "datetime";
export type FilterFields = Readonly<Record<string, FieldKind>>;

export type FilterValue = string | number | boolean;

export interface ScalarFilter {
  eq?: FilterValue | null | undefined;
  ne?: FilterValue | null | undefined;
  lt?: FilterValue | null | undefined;
  le?: FilterValue | null | undefined;
  gt?: FilterValue | null | undefined;
  ge?: FilterValue | null | undefined;
  between?: readonly FilterValue[] | null | undefined;
  beginsWith?: string | null | undefined;
  contains?: string | null | undefined;
}

/** A client's filter: field name → operators (unknown shapes are refused by `parseFilter`). */
export type ModelFilter = Readonly<Record<string, ScalarFilter | null | undefined>>;

export type SortKeyCondition = Pick<
  ScalarFilter,
  "eq" | "lt" | "le" | "gt" | "ge" | "between" | "beginsWith"
>;

export const MAX_FILTER_STRING = 1000;

const COMPARISONS = ["eq", "ne", "lt", "le", "gt", "ge"] as const;
const SORT_OPERATORS = ["eq", "lt", "le", "gt", "ge", "between", "beginsWith"] as const;

function valueSchema(kind: FieldKind) {
  switch (kind) {
    case "string":
      return z.string().max(MAX_FILTER_STRING);
    case "number":
      return z.number().finite();
    case "boolean":
      return z.boolean();
    case "datetime":
      return z.string().max(64);
  }
}

function operatorSchema(kind: FieldKind) {
  const value = valueSchema(kind).nullish();
  const shape: Record<string, z.ZodType> = {};
  const comparisons = kind === "boolean" ? (["eq", "ne"] as const) : COMPARISONS;
  for (const op of comparisons) shape[op] = value;
  if (kind !== "boolean") shape.between = z.tuple([valueSchema(kind), valueSchema(kind)]).nullish();
  if (kind === "string" || kind === "datetime") {
    shape.beginsWith = z.string().min(1).max(MAX_FILTER_STRING).nullish();
  }
  if (kind === "string") shape.contains = z.string().min(1).max(MAX_FILTER_STRING).nullish();
  return z.strictObject(shape);
}

/** Validates a client filter against the model's filterable fields; null/undefined → no filter. */
export function parseFilter(fields: FilterFields, input: unknown): ModelFilter {
  if (input === null || input === undefined) return {};
  if (typeof input !== "object" || Array.isArray(input)) throw new BadInputError("filter must be an object");
  const out: Record<string, ScalarFilter> = {};
  for (const [field, ops] of Object.entries(input as Record<string, unknown>)) {
    const kind = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (kind === undefined) throw new BadInputError(`filter.${field} is not a filterable field`);
    if (ops === null || ops === undefined) continue;
    const parsed = operatorSchema(kind).safeParse(ops);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `.${issue.path.join(".")}` : "";
      const keys = issue?.code === "unrecognized_keys" ? ` (${issue.keys.join(", ")} not allowed)` : "";
      throw new BadInputError(`filter.${field}${where} is not valid${keys}`);
    }
    out[field] = parsed.data as ScalarFilter;
  }
  return out;
}

/** Validates a sort-key condition: exactly one operator, of the sort key's kind. */
export function parseSortKeyCondition(
  kind: FieldKind,
  input: unknown,
  name = "sortKey",
): SortKeyCondition | null {
  if (input === null || input === undefined) return null;
  const schema = operatorSchema(kind);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new BadInputError(`${name} is not valid`);
  const data = parsed.data as ScalarFilter;
  const used = Object.entries(data).filter(([, v]) => v !== undefined && v !== null);
  if (used.length === 0) return null;
  if (used.length > 1 || !(SORT_OPERATORS as readonly string[]).includes(used[0]![0])) {
    throw new BadInputError(`${name} takes exactly one of ${SORT_OPERATORS.join(", ")}`);
  }
  return data as SortKeyCondition;
}

function normalise(kind: FieldKind, value: FilterValue, field: string): FilterValue {
  return kind === "datetime" ? isoInput(String(value), `filter.${field}`) : value;
}

export interface FilterSqlOptions {
  dialect: Dialect;
  /** Qualifies the columns (`"comment"."status"`), for queries over several tables. */
  table?: string;
}

function ref(field: string, table: string | undefined) {
  return sql.ref(table ? `${table}.${field}` : field);
}

/** Number of characters as SQL counts them (code points), for `substr`. */
function charLength(value: string): number {
  return [...value].length;
}

function operatorSql(
  column: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  kind: FieldKind,
  field: string,
  op: string,
  raw: unknown,
  dialect: Dialect,
): RawBuilder<boolean> | null {
  if (raw === null || raw === undefined) return null;
  switch (op) {
    case "eq":
      return sql<boolean>`${column} = ${normalise(kind, raw as FilterValue, field)}`;
    case "ne":
      return sql<boolean>`(${column} <> ${normalise(kind, raw as FilterValue, field)} or ${column} is null)`;
    case "lt":
      return sql<boolean>`${column} < ${normalise(kind, raw as FilterValue, field)}`;
    case "le":
      return sql<boolean>`${column} <= ${normalise(kind, raw as FilterValue, field)}`;
    case "gt":
      return sql<boolean>`${column} > ${normalise(kind, raw as FilterValue, field)}`;
    case "ge":
      return sql<boolean>`${column} >= ${normalise(kind, raw as FilterValue, field)}`;
    case "between": {
      const [a, b] = raw as [FilterValue, FilterValue];
      return sql<boolean>`(${column} >= ${normalise(kind, a, field)} and ${column} <= ${normalise(kind, b, field)})`;
    }
    case "beginsWith": {
      const prefix = String(raw);
      return sql<boolean>`substr(${column}, 1, ${charLength(prefix)}) = ${prefix}`;
    }
    case "contains":
      return dialect === "postgres"
        ? sql<boolean>`strpos(${column}, ${String(raw)}) > 0`
        : sql<boolean>`instr(${column}, ${String(raw)}) > 0`;
    default:
      throw new BadInputError(`filter.${field}.${op} is not an operator`);
  }
}

/**
 * The SQL condition of a parsed filter (AND of every field and operator), or null when it has
 * none. Only fields named in `fields` are read (parse with `parseFilter` first).
 */
export function filterSql(
  fields: FilterFields,
  filter: ModelFilter,
  options: FilterSqlOptions,
): RawBuilder<boolean> | null {
  const parts: RawBuilder<boolean>[] = [];
  for (const [field, ops] of Object.entries(filter)) {
    const kind = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (kind === undefined) throw new BadInputError(`filter.${field} is not a filterable field`);
    if (!ops) continue;
    const column = ref(field, options.table);
    for (const [op, value] of Object.entries(ops)) {
      const part = operatorSql(column, kind, field, op, value, options.dialect);
      if (part) parts.push(part);
    }
  }
  if (parts.length === 0) return null;
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** The SQL of a sort-key condition on `column` (see `parseSortKeyCondition`), or null for none. */
export function sortKeySql(
  column: string,
  kind: FieldKind,
  condition: SortKeyCondition | null,
  options: FilterSqlOptions,
): RawBuilder<boolean> | null {
  if (!condition) return null;
  return filterSql({ [column]: kind }, { [column]: condition }, options);
}
