import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { describe, expect, it } from "vitest";
import { BadInputError } from "../errors.ts";
import type { Dialect } from "./dialect.ts";
import { type FilterFields, filterSql, parseFilter, parseSortKeyCondition, sortKeySql } from "./filters.ts";

const fields: FilterFields = { title: "string", views: "number", live: "boolean", at: "datetime" };

function compiler(dialect: Dialect) {
  return new Kysely<Record<string, never>>({
    dialect: {
      createAdapter: () => (dialect === "postgres" ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) =>
        dialect === "postgres" ? new PostgresIntrospector(db) : new SqliteIntrospector(db),
      createQueryCompiler: () =>
        dialect === "postgres" ? new PostgresQueryCompiler() : new SqliteQueryCompiler(),
    },
  });
}

function compile(dialect: Dialect, filter: unknown, table?: string) {
  const condition = filterSql(fields, parseFilter(fields, filter), { dialect, ...(table ? { table } : {}) });
  if (!condition) return null;
  const { sql, parameters } = condition.compile(compiler(dialect));
  return { sql, parameters };
}

describe("filter builder", () => {
  it.each([
    [{ title: { eq: "a" } }, `("title" = ?)`, ["a"]],
    [{ title: { ne: "a" } }, `(("title" <> ? or "title" is null))`, ["a"]],
    [{ views: { lt: 3 } }, `("views" < ?)`, [3]],
    [{ views: { le: 3 } }, `("views" <= ?)`, [3]],
    [{ views: { gt: 3 } }, `("views" > ?)`, [3]],
    [{ views: { ge: 3 } }, `("views" >= ?)`, [3]],
    [{ views: { between: [1, 9] } }, `(("views" >= ? and "views" <= ?))`, [1, 9]],
    [{ title: { beginsWith: "Ab%_" } }, `(substr("title", 1, ?) = ?)`, [4, "Ab%_"]],
    [{ title: { contains: "x" } }, `(instr("title", ?) > 0)`, ["x"]],
    [{ live: { eq: true } }, `("live" = ?)`, [true]],
    [{ at: { gt: "2026-01-01T01:00:00+01:00" } }, `("at" > ?)`, ["2026-01-01T00:00:00.000Z"]],
    [{ at: { beginsWith: "2026-02" } }, `(substr("at", 1, ?) = ?)`, [7, "2026-02"]],
    [
      { title: { eq: "a" }, views: { gt: 1, lt: 5 } },
      `("title" = ? and "views" < ? and "views" > ?)`,
      ["a", 5, 1],
    ],
  ])("sqlite: %j", (filter, sql, parameters) => {
    expect(compile("sqlite", filter)).toEqual({ sql, parameters });
  });

  it("uses strpos and numbered parameters on PostgreSQL, and qualifies columns when asked", () => {
    expect(compile("postgres", { title: { contains: "x" } }, "comment")).toEqual({
      sql: `(strpos("comment"."title", $1) > 0)`,
      parameters: ["x"],
    });
  });

  it("counts a prefix in code points, as SQL does", () => {
    expect(compile("sqlite", { title: { beginsWith: "é😀" } })?.parameters).toEqual([2, "é😀"]);
  });

  it("ignores null operators and empty filters", () => {
    expect(compile("sqlite", null)).toBeNull();
    expect(compile("sqlite", {})).toBeNull();
    expect(compile("sqlite", { title: { eq: null } })).toBeNull();
    expect(compile("sqlite", { title: null })).toBeNull();
  });

  it.each([
    [[1], /filter must be an object/],
    [{ secret: { eq: "x" } }, /filter\.secret is not a filterable field/],
    [{ constructor: { eq: "x" } }, /filter\.constructor is not a filterable field/],
    [{ title: { like: "x" } }, /filter\.title .*like not allowed/],
    [{ title: { eq: 3 } }, /filter\.title\.eq/],
    [{ views: { eq: "3" } }, /filter\.views\.eq/],
    [{ views: { beginsWith: "3" } }, /filter\.views/],
    [{ live: { lt: true } }, /filter\.live/],
    [{ views: { between: [1] } }, /filter\.views\.between/],
    [{ title: { contains: "" } }, /filter\.title\.contains/],
    [{ title: { eq: "x".repeat(1001) } }, /filter\.title\.eq/],
    [{ at: { eq: "yesterday" } }, /filter\.at/],
  ])("refuses %j", (filter, message) => {
    expect(() => compile("sqlite", filter)).toThrow(BadInputError);
    expect(() => compile("sqlite", filter)).toThrow(message);
  });

  it("takes exactly one sort-key operator", () => {
    expect(parseSortKeyCondition("string", { beginsWith: "a" })).toEqual({ beginsWith: "a" });
    expect(parseSortKeyCondition("string", null)).toBeNull();
    expect(parseSortKeyCondition("string", {})).toBeNull();
    expect(() => parseSortKeyCondition("string", { eq: "a", lt: "b" })).toThrow(BadInputError);
    expect(() => parseSortKeyCondition("string", { ne: "a" })).toThrow(BadInputError);
    expect(() => parseSortKeyCondition("string", { contains: "a" })).toThrow(BadInputError);
    expect(() => parseSortKeyCondition("number", { eq: "1" })).toThrow(BadInputError);
    const condition = sortKeySql("sortOrder", "number", { between: [1, 3] }, { dialect: "postgres" });
    expect(condition?.compile(compiler("postgres")).sql).toBe(`(("sortOrder" >= $1 and "sortOrder" <= $2))`);
  });
});
