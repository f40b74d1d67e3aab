/**
 * One typed repository for a child table: rows that belong to a parent row through a key column
 * (`repositoryId`), carry their own string `id`, and may have a natural key unique within the
 * parent (a file's `path`, a branch's `name`). Each table states its shape once in a
 * `ChildTableSpec` (table, parent, natural key, ordering, row ↔ record mapping, column builders);
 * `createChildTableRepo` turns it into get / list / page / create / upsert / update / delete /
 * replace operations whose argument and result types follow from `schema.ts`.
 *
 * Writes name the parent when it is missing (`NotFoundError`) and translate constraint
 * violations (`ConflictError` for a taken natural key, `BadInputError` for a dangling reference).
 */
import { type Insertable, type Kysely, type RawBuilder, type Selectable, sql, type Updateable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { NotFoundError, rethrowConstraintError } from "../errors.ts";
import { type KeysetQuery, keysetPage } from "./keyset-page.ts";
import type { Page } from "./pagination.ts";
import type { DB } from "./schema.ts";
import { inTransaction } from "./transaction.ts";

/** Tables whose rows have a string `id`. */
export type TableWithId = { [T in keyof DB]: DB[T] extends { id: string } ? T : never }[keyof DB];

/** Columns of `T` holding a (non-null) string: candidates for a parent or natural key. */
export type StringColumn<T extends keyof DB> = {
  [C in keyof Selectable<DB[T]> & string]: Selectable<DB[T]>[C] extends string ? C : never;
}[keyof Selectable<DB[T]> & string];

/** Every column but the id and the parent key: what a create or an upsert writes. */
export type ChildColumns<T extends keyof DB, P extends string> = Omit<Insertable<DB[T]>, "id" | P>;

/** A column unique within one parent; `parse` checks (and may normalise) a key a caller gives. */
export interface NaturalKey<T extends keyof DB> {
  column: StringColumn<T>;
  parse?: (value: string) => string;
}

export interface ChildTableSpec<T extends TableWithId, P extends StringColumn<T>, R, I> {
  table: T;
  /** The record's name in error messages ("repository file"). */
  entity: string;
  /** The column naming the parent row, and the parent's table (its `id`) and name in messages. */
  parent: { column: P; table: TableWithId; entity: string };
  /** A column unique within one parent, for look-ups, deletes and upserts by (parent, key). */
  naturalKey?: NaturalKey<T>;
  /** Order of `list` (then `id`, so the order is total). */
  order: readonly (readonly [keyof DB[T] & string, "asc" | "desc"])[];
  fromRow: (row: Selectable<DB[T]>) => R;
  /** A complete row from a caller's input (defaults filled in, values checked). */
  columns: (input: I) => ChildColumns<T, P>;
  /** Only the columns `patch` names (values checked). */
  patchColumns: (patch: Partial<I>) => Updateable<DB[T]>;
}

/** Rows inserted per statement by `replaceAll` (well under either dialect's parameter limit). */
const INSERT_BATCH = 200;

export interface ChildTableRepo<T extends TableWithId, R, I> {
  getById(id: string): Promise<R | null>;
  /** The parent's rows in the spec's order; `match` adds equality conditions. */
  list(parentId: string, match?: Partial<Selectable<DB[T]>>): Promise<R[]>;
  /** One keyset page over the whole table (the data API's lists). */
  listPage(query: Omit<KeysetQuery<R>, "table" | "map">): Promise<Page<R>>;
  /**
   * The rows of several parents at once (the data loaders): the first `perParent` of each parent
   * by id, among the rows matching `conditions` (column references qualified with the table
   * name). One query, whatever the number of parents.
   */
  listByParentIds(
    parentIds: readonly string[],
    conditions: readonly RawBuilder<boolean>[],
    perParent: number,
  ): Promise<R[]>;
  /** A new row; a taken unique key → ConflictError, unknown parent → NotFoundError. */
  create(parentId: string, input: I): Promise<R>;
  /** Applies the columns `patch` names; an empty patch reads the row. No row → NotFoundError. */
  update(id: string, patch: Partial<I>): Promise<R>;
  /** True when a row was deleted. */
  deleteById(id: string): Promise<boolean>;
  /** Deletes every row of the parent; the count deleted. */
  deleteByParent(parentId: string): Promise<number>;
  /** Replaces all rows of the parent in one transaction (a sync). Unknown parent → NotFoundError. */
  replaceAll(parentId: string, inputs: readonly I[]): Promise<void>;
}

/** A child table with a natural key adds the operations by (parent, key). */
export interface KeyedChildTableRepo<T extends TableWithId, R, I> extends ChildTableRepo<T, R, I> {
  /** The row at (parent, key), or null. */
  getByKey(parentId: string, key: string): Promise<R | null>;
  /** Inserts or replaces the row at (parent, key). Unknown parent → NotFoundError. */
  upsert(parentId: string, input: I): Promise<R>;
  /** Deletes the parent's rows with these keys; the count deleted. */
  deleteByKeys(parentId: string, keys: readonly string[]): Promise<number>;
}

export function createChildTableRepo<T extends TableWithId, P extends StringColumn<T>, R, I>(
  db: Kysely<DB>,
  spec: ChildTableSpec<T, P, R, I> & { naturalKey: NaturalKey<T> },
): KeyedChildTableRepo<T, R, I>;
export function createChildTableRepo<T extends TableWithId, P extends StringColumn<T>, R, I>(
  db: Kysely<DB>,
  spec: ChildTableSpec<T, P, R, I>,
): ChildTableRepo<T, R, I>;
export function createChildTableRepo<T extends TableWithId, P extends StringColumn<T>, R, I>(
  db: Kysely<DB>,
  spec: ChildTableSpec<T, P, R, I>,
): KeyedChildTableRepo<T, R, I> {
  const { entity, fromRow } = spec;
  const table: string = spec.table;
  const parentColumn: string = spec.parent.column;
  // The table is a type parameter here, which Kysely's builders cannot resolve column names
  // against; the queries are written against an untyped view and every row passes `fromRow`,
  // whose argument type is the table's `Selectable` row.
  // biome-ignore lint/suspicious/noExplicitAny: see above; the public signatures stay typed
  const anyDb = db as Kysely<any>;
  const toRecord = (row: unknown): R => fromRow(row as Selectable<DB[T]>);

  /** Only reached through the keyed overload, whose spec names the key. */
  function naturalKey(): { column: string; parse: (value: string) => string } {
    const key = spec.naturalKey;
    if (!key) throw new Error(`${table} has no natural key`);
    return { column: key.column, parse: key.parse ?? ((value) => value) };
  }

  async function requireParent(parentId: string): Promise<void> {
    const row = await anyDb
      .selectFrom(spec.parent.table)
      .select("id")
      .where("id", "=", parentId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(spec.parent.entity, parentId);
  }

  function newRow(parentId: string, columns: ChildColumns<T, P>): Record<string, unknown> {
    return { ...columns, id: uuidv7(), [parentColumn]: parentId };
  }

  return {
    async getById(id) {
      const row = await anyDb.selectFrom(table).selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async getByKey(parentId, key) {
      const { column, parse } = naturalKey();
      const row = await anyDb
        .selectFrom(table)
        .selectAll()
        .where(parentColumn, "=", parentId)
        .where(column, "=", parse(key))
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async list(parentId, match = {}) {
      let query = anyDb.selectFrom(table).selectAll().where(parentColumn, "=", parentId);
      for (const [column, value] of Object.entries(match)) {
        if (value !== undefined) query = query.where(column, "=", value);
      }
      for (const [column, direction] of spec.order) query = query.orderBy(column, direction);
      const rows = await query.orderBy("id").execute();
      return rows.map(toRecord);
    },

    listPage(query) {
      return keysetPage(db, { ...query, table: spec.table, map: toRecord as (row: never) => R });
    },

    async listByParentIds(parentIds, conditions, perParent) {
      if (parentIds.length === 0) return [];
      const parentRef = sql.ref(`${table}.${parentColumn}`);
      const where = sql.join([sql`${parentRef} in (${sql.join([...parentIds])})`, ...conditions], sql` and `);
      const ranked = await sql<
        Record<string, unknown>
      >`select * from (select ${sql.table(table)}.*, row_number() over (partition by ${parentRef} order by ${sql.ref(`${table}.id`)}) as ${sql.ref("rowNumber")} from ${sql.table(table)} where ${where}) as ${sql.ref("ranked")} where ${sql.ref("rowNumber")} <= ${perParent} order by ${sql.ref(parentColumn)}, ${sql.ref("id")}`.execute(
        db,
      );
      return ranked.rows.map(toRecord);
    },

    async create(parentId, input) {
      const columns = spec.columns(input);
      await requireParent(parentId);
      try {
        const row = await anyDb
          .insertInto(table)
          .values(newRow(parentId, columns))
          .returningAll()
          .executeTakeFirstOrThrow();
        return toRecord(row);
      } catch (error) {
        rethrowConstraintError(error, entity);
      }
    },

    async upsert(parentId, input) {
      const { column } = naturalKey();
      const columns = spec.columns(input);
      await requireParent(parentId);
      const row = await anyDb
        .insertInto(table)
        .values(newRow(parentId, columns))
        .onConflict((oc) =>
          oc.columns([parentColumn, column]).doUpdateSet(columns as Record<string, unknown>),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },

    async update(id, patch) {
      const set = spec.patchColumns(patch);
      let row: unknown;
      try {
        row =
          Object.keys(set).length === 0
            ? await anyDb.selectFrom(table).selectAll().where("id", "=", id).executeTakeFirst()
            : await anyDb
                .updateTable(table)
                .set(set as Record<string, unknown>)
                .where("id", "=", id)
                .returningAll()
                .executeTakeFirst();
      } catch (error) {
        rethrowConstraintError(error, entity);
      }
      if (!row) throw new NotFoundError(entity, id);
      return toRecord(row);
    },

    async deleteById(id) {
      const result = await anyDb.deleteFrom(table).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async deleteByParent(parentId) {
      const result = await anyDb.deleteFrom(table).where(parentColumn, "=", parentId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteByKeys(parentId, keys) {
      if (keys.length === 0) return 0;
      const { column, parse } = naturalKey();
      const result = await anyDb
        .deleteFrom(table)
        .where(parentColumn, "=", parentId)
        .where(column, "in", keys.map(parse))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async replaceAll(parentId, inputs) {
      const rows = inputs.map((input) => newRow(parentId, spec.columns(input)));
      await requireParent(parentId);
      await inTransaction(db, async (trx) => {
        const anyTrx = trx as typeof anyDb;
        await anyTrx.deleteFrom(table).where(parentColumn, "=", parentId).execute();
        for (let i = 0; i < rows.length; i += INSERT_BATCH) {
          await anyTrx
            .insertInto(table)
            .values(rows.slice(i, i + INSERT_BATCH))
            .execute();
        }
      });
    },
  };
}
