/**
 * The billing operations' inputs (REST bodies and page forms), validated: 400 naming the field.
 */
import { z } from "zod";
import { BadInputError } from "../../errors.ts";

const intervalSchema = z.enum(["month", "year"], { message: "expected month or year" });
const seatsSchema = z
  .number({ message: "expected a whole number" })
  .int("expected a whole number")
  .min(1)
  .max(100_000);
const versionSchema = z.number({ message: "expected the subscription's version (a number)" }).int().min(1);
const planIdSchema = z.string({ message: "expected a plan id" }).trim().min(1, "expected a plan id").max(64);

export const checkoutInputSchema = z.strictObject({
  planId: planIdSchema,
  interval: intervalSchema,
  seats: z.coerce.number().pipe(seatsSchema).optional(),
  returnTo: z.string().max(500).nullish(),
});
export const changeInputSchema = z.strictObject({
  planId: planIdSchema,
  interval: intervalSchema,
  seats: seatsSchema.optional(),
  version: versionSchema,
});
export const versionInputSchema = z.strictObject({ version: versionSchema });
export const seatsInputSchema = z.strictObject({ seats: seatsSchema, version: versionSchema });

export function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field =
    issue.code === "unrecognized_keys"
      ? (issue.keys[0] ?? "body")
      : issue.path.map(String).join(".") || "body";
  const problem = issue.code === "unrecognized_keys" ? "unknown field" : issue.message;
  throw new BadInputError(`Invalid ${field}: ${problem}`, { field: { [field]: problem } });
}

/** A same-site path to come back to (`/…`, never `//…` or a scheme): else 400 naming returnTo. */
export function validReturnTo(value: string | null | undefined): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || /[\s\\]/.test(value)) {
    throw new BadInputError("Invalid returnTo: expected a path on this site, such as /ai-education/…", {
      field: { returnTo: "expected a path on this site" },
    });
  }
  return value;
}
