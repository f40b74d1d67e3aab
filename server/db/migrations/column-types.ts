/**
 * Column types that differ by dialect, for the migrations.
 * Frozen: applied migrations depend on these; add new helpers rather than changing these.
 */
import { type ColumnDefinitionBuilder, type Kysely, sql } from "kysely";
import { dialectOf } from "../dialect.ts";

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
export type AnyDb = Kysely<any>;

export function columnTypes(db: AnyDb) {
  const pg = dialectOf(db) === "postgres";
  return {
    pg,
    /** boolean in PostgreSQL, integer 0/1 in SQLite (Better Auth's mapping too). */
    bool: pg ? ("boolean" as const) : ("integer" as const),
    /** A NOT NULL boolean with a default. */
    boolNotNull(value: boolean) {
      return (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(pg ? value : value ? 1 : 0);
    },
    /** Datetime columns owned by Better Auth: timestamptz in PostgreSQL, date (ISO text) in SQLite. */
    authDate: pg ? ("timestamptz" as const) : ("date" as const),
    /** Better Auth gives its timestamp columns `default CURRENT_TIMESTAMP` on PostgreSQL only. */
    authDateNowDefault(col: ColumnDefinitionBuilder) {
      return pg ? col.defaultTo(sql`CURRENT_TIMESTAMP`).notNull() : col.notNull();
    },
    /** Epoch milliseconds and GitHub ids: bigint (int8 in PostgreSQL, integer affinity in SQLite). */
    bigint: "bigint" as const,
  };
}
