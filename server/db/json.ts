/**
 * JSON columns are text in both dialects and pass through zod on the way in and on the way out.
 */
import { z } from "zod";
import { BadInputError, DataIntegrityError } from "../errors.ts";

function describeIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}

/**
 * Validates `value` with `schema` and serialises the parsed result.
 * Throws `BadInputError` (code BAD_USER_INPUT) naming `field` when the value does not fit.
 */
export function toJson<S extends z.ZodType>(schema: S, value: z.input<S>, field = "value"): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new BadInputError(`${field} is not valid`, { details: describeIssues(parsed.error) });
  }
  return JSON.stringify(parsed.data);
}

/** Like `toJson`, but null and undefined are stored as SQL NULL. */
export function toJsonOrNull<S extends z.ZodType>(
  schema: S,
  value: z.input<S> | null | undefined,
  field = "value",
): string | null {
  return value === null || value === undefined ? null : toJson(schema, value, field);
}

/**
 * Parses stored JSON text and validates it. A NULL column is passed to the schema as `null`
 * (so a `.nullable()` schema accepts it, a `.default([])`-style schema can supply a value).
 * Throws `DataIntegrityError` when the stored text is not JSON or has the wrong shape.
 */
export function fromJson<S extends z.ZodType>(
  schema: S,
  text: string | null | undefined,
  field = "value",
): z.output<S> {
  let raw: unknown = null;
  if (text !== null && text !== undefined) {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new DataIntegrityError(`stored ${field} is not JSON`, { cause: error });
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new DataIntegrityError(`stored ${field} has an unexpected shape`, {
      details: describeIssues(parsed.error),
    });
  }
  return parsed.data;
}

// Shared shapes --------------------------------------------------------------------------------

/** A list of short strings: tags, aliases, audience, related, seoKeywords, labels, rolesRequired. */
export const stringListSchema = z.array(z.string().min(1).max(500)).max(500);

/** A stored string list; NULL reads as an empty list. */
export const storedStringListSchema = stringListSchema.nullable().transform((v) => v ?? []);

/** Any JSON object (metadata, audit details). */
export const jsonObjectSchema = z.record(z.string(), z.json());

/** schema.org JSON-LD: one object or a list of objects. */
export const structuredDataSchema = z.union([jsonObjectSchema, z.array(jsonObjectSchema).max(50)]);
