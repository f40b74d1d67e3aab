/**
 * zod schemas for the users repository: group names and the user-list cursor.
 */
import { z } from "zod";
import { timeCursorSchema } from "../../db/pagination.ts";

/** Group names are case-sensitive identifiers (individual-free, app-admin, org-acme-admin, ContentManager …). */
export const groupNameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/);

export const groupDefinitionSchema = z.object({
  name: groupNameSchema,
  precedence: z.number().int().min(0).max(1_000_000).optional(),
  description: z.string().max(1000).nullable().optional(),
});

export const userCursorSchema = timeCursorSchema("createdAt");
