/**
 * The one Pothos schema builder of the data API (code-first: the schema, its TypeScript types and
 * the resolvers come from the same code), with the shared scalars, enums, filter inputs and the
 * list/connection helpers every model module uses. See docs/decisions/006-graphql.md.
 */
import SchemaBuilder from "@pothos/core";
import { GraphQLError, Kind, valueFromASTUntyped } from "graphql";
import type { FieldKind, FilterFields } from "../db/filters.ts";
import type { Page } from "../db/pagination.ts";
import { isoInput } from "../db/values.ts";
import type { Connection } from "../modules/data-service.ts";
import type { GraphQLContext } from "./context.ts";

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    ID: { Input: string; Output: string };
    DateTime: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
    File: { Input: File; Output: never };
  };
  DefaultFieldNullability: false;
}>({ defaultFieldNullability: false });

const badDateTime = () =>
  new GraphQLError("DateTime must be an ISO-8601 datetime such as 2026-01-31T12:00:00Z", {
    extensions: { code: "BAD_USER_INPUT" },
  });

/** ISO-8601 UTC text, as stored (decision 002); inputs normalised to that form. */
builder.scalarType("DateTime", {
  description: "An ISO-8601 date and time in UTC, e.g. 2026-01-31T12:00:00.000Z",
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== "string") throw badDateTime();
    try {
      return isoInput(value, "DateTime");
    } catch {
      throw badDateTime();
    }
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw badDateTime();
    try {
      return isoInput(ast.value, "DateTime");
    } catch {
      throw badDateTime();
    }
  },
});

/** Any JSON value (structuredData: schema.org JSON-LD, validated by the services). */
builder.scalarType("JSON", {
  description: "A JSON value",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables ?? undefined),
});

/**
 * Whether a variable is the file Yoga parsed from a multipart request: a WHATWG `File`, though not
 * necessarily this runtime's class (Yoga's fetch ponyfill makes its own), so read by its shape.
 */
const isFile = (value: unknown): value is File =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as File).stream === "function" &&
  typeof (value as File).type === "string" &&
  typeof (value as File).size === "number" &&
  typeof (value as File).name === "string";

/**
 * A file of a GraphQL multipart request (https://github.com/jaydenseric/graphql-multipart-request-spec):
 * Yoga parses the request and puts the file in the variables. Input only.
 */
builder.scalarType("File", {
  description: "A file sent in a multipart request (the GraphQL multipart request spec). Input only.",
  serialize: () => {
    throw new GraphQLError("File is an input type only.");
  },
  parseValue: (value) => {
    if (isFile(value)) return value;
    throw new GraphQLError("File must be a file part of a multipart request (operations, map, files).", {
      extensions: { code: "BAD_USER_INPUT" },
    });
  },
  parseLiteral: () => {
    throw new GraphQLError("File must be sent as a variable of a multipart request.", {
      extensions: { code: "BAD_USER_INPUT" },
    });
  },
});

builder.queryType({});
builder.mutationType({});

export const SortDirection = builder.enumType("SortDirection", {
  values: ["ASC", "DESC"] as const,
});

// Filter inputs: one per scalar kind (server/db/filters.ts applies them in SQL). -------------

export const StringFilter = builder.inputType("StringFilter", {
  description: "All given conditions must hold. Matching is case-sensitive.",
  fields: (t) => ({
    eq: t.string(),
    ne: t.string(),
    lt: t.string(),
    le: t.string(),
    gt: t.string(),
    ge: t.string(),
    between: t.stringList({ description: "[low, high], inclusive" }),
    beginsWith: t.string(),
    contains: t.string(),
  }),
});

export const IntFilter = builder.inputType("IntFilter", {
  fields: (t) => ({
    eq: t.int(),
    ne: t.int(),
    lt: t.int(),
    le: t.int(),
    gt: t.int(),
    ge: t.int(),
    between: t.intList({ description: "[low, high], inclusive" }),
  }),
});

export const FloatFilter = builder.inputType("FloatFilter", {
  description: "For whole numbers beyond 32 bits (epoch milliseconds).",
  fields: (t) => ({
    eq: t.float(),
    ne: t.float(),
    lt: t.float(),
    le: t.float(),
    gt: t.float(),
    ge: t.float(),
    between: t.floatList({ description: "[low, high], inclusive" }),
  }),
});

export const BooleanFilter = builder.inputType("BooleanFilter", {
  fields: (t) => ({ eq: t.boolean(), ne: t.boolean() }),
});

export const DateTimeFilter = builder.inputType("DateTimeFilter", {
  fields: (t) => ({
    eq: t.field({ type: "DateTime" }),
    ne: t.field({ type: "DateTime" }),
    lt: t.field({ type: "DateTime" }),
    le: t.field({ type: "DateTime" }),
    gt: t.field({ type: "DateTime" }),
    ge: t.field({ type: "DateTime" }),
    between: t.field({ type: ["DateTime"], description: "[low, high], inclusive" }),
  }),
});

/** The sort-key condition of a list-by-key query on a datetime sort key: give one operator. */
export const DateTimeKeyCondition = builder.inputType("DateTimeKeyCondition", {
  description: "One of eq, lt, le, gt, ge, between or beginsWith on the sort key.",
  fields: (t) => ({
    eq: t.field({ type: "DateTime" }),
    lt: t.field({ type: "DateTime" }),
    le: t.field({ type: "DateTime" }),
    gt: t.field({ type: "DateTime" }),
    ge: t.field({ type: "DateTime" }),
    between: t.field({ type: ["DateTime"], description: "[low, high], inclusive" }),
    beginsWith: t.string({ description: "A prefix of the ISO text, e.g. 2026-03" }),
  }),
});

/** The sort-key condition of a list-by-key query on a text sort key: give one operator. */
export const StringKeyCondition = builder.inputType("StringKeyCondition", {
  description: "One of eq, lt, le, gt, ge, between or beginsWith on the sort key.",
  fields: (t) => ({
    eq: t.string(),
    lt: t.string(),
    le: t.string(),
    gt: t.string(),
    ge: t.string(),
    between: t.stringList({ description: "[low, high], inclusive" }),
    beginsWith: t.string(),
  }),
});

/** The sort-key condition of a list-by-key query on a whole-number sort key: give one operator. */
export const IntKeyCondition = builder.inputType("IntKeyCondition", {
  description: "One of eq, lt, le, gt, ge or between on the sort key.",
  fields: (t) => ({
    eq: t.int(),
    lt: t.int(),
    le: t.int(),
    gt: t.int(),
    ge: t.int(),
    between: t.intList({ description: "[low, high], inclusive" }),
  }),
});

/**
 * The `<Model>Filter` input of a model: one filter per field the service lets clients filter on
 * (`FilterFields`), so the GraphQL input and the SQL side come from one declaration. Number
 * fields are `IntFilter`, or `FloatFilter` when named in `floatFields` (beyond 32 bits).
 */
export function filterInput(name: string, fields: FilterFields, floatFields: readonly string[] = []) {
  const inputFor = (field: string, kind: FieldKind) => {
    switch (kind) {
      case "string":
        return StringFilter;
      case "boolean":
        return BooleanFilter;
      case "datetime":
        return DateTimeFilter;
      case "number":
        return floatFields.includes(field) ? FloatFilter : IntFilter;
    }
  };
  return builder.inputType(name, {
    description: `Conditions on ${name.replace(/Filter$/, "")} fields; all must hold.`,
    fields: (t) =>
      Object.fromEntries(
        Object.entries(fields).map(([field, kind]) => [field, t.field({ type: inputFor(field, kind) })]),
      ),
  });
}

/**
 * `<Model>Connection { items, nextToken }`: one page of a list (nextToken null on the last page),
 * from a `Page` (content services) or a `Connection` (the data services).
 */
export function connectionType<T>(name: string, item: PothosSchemaTypes.ObjectRef<PothosTypes, T>) {
  return builder.objectRef<Page<T> | Connection<T>>(`${name}Connection`).implement({
    fields: (t) => ({
      items: t.field({ type: [item], resolve: (page) => page.items }),
      nextToken: t.string({
        nullable: true,
        description: "Pass as nextToken for the next page; null on the last page.",
        resolve: (page) => ("nextCursor" in page ? page.nextCursor : page.nextToken),
      }),
    }),
  });
}

export type PothosTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The field builder of an input type (for input field sets shared by create and update). */
export type InputFields = PothosSchemaTypes.InputFieldBuilder<PothosTypes, "InputObject">;

/** An input object as a plain object for the service's zod schema (explicit nulls clear a field). */
export function plainInput(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}
