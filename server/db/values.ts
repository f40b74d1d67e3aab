/**
 * Conversions between column values and domain values, shared by the repositories.
 */
import { z } from "zod";
import { BadInputError } from "../errors.ts";

/** 0/1 (SQLite) or true/false (PostgreSQL) → boolean. */
export function toBool(value: boolean | number | bigint | null | undefined): boolean {
  return value === true || value === 1 || value === 1n;
}

/** ISO text or a Date (PostgreSQL timestamptz) → ISO-8601 UTC string with milliseconds. */
export function toIso(value: Date | string): string {
  if (value instanceof Date) return value.toISOString();
  // Already in our canonical form: avoid the Date round trip on the hot path.
  if (value.length === 24 && value.endsWith("Z")) return value;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? value : parsed.toISOString();
}

export function toIsoOrNull(value: Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}

export function nowIso(): string {
  return new Date().toISOString();
}

const isoInputSchema = z.union([z.iso.datetime({ offset: true }), z.date()]);

/**
 * Normalises a datetime given by a caller (ISO string with Z or an offset, or a Date) to the
 * canonical stored form; anything else is a `BadInputError` naming the field.
 */
export function isoInput(value: string | Date, field: string): string {
  const parsed = isoInputSchema.safeParse(value);
  if (!parsed.success) throw new BadInputError(`${field} must be an ISO-8601 datetime`);
  const date = parsed.data instanceof Date ? parsed.data : new Date(parsed.data);
  // Outside years 0000-9999 toISOString() is not fixed width, which would break text ordering.
  if (Number.isNaN(date.getTime()) || date.toISOString().length !== 24) {
    throw new BadInputError(`${field} must be an ISO-8601 datetime`);
  }
  return date.toISOString();
}

export function isoInputOrNull(value: string | Date | null | undefined, field: string): string | null {
  return value === null || value === undefined ? null : isoInput(value, field);
}

/** Epoch milliseconds of a canonical ISO string. */
export function epochOf(iso: string): number {
  return Date.parse(iso);
}

export function epochOrNull(iso: string | null): number | null {
  return iso === null ? null : Date.parse(iso);
}

/** Drops keys whose value is `undefined`, so a patch only touches the fields it names. */
export function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  return out;
}
