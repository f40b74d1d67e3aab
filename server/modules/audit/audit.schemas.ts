/**
 * zod schemas for the audit repository: the details document and the cursor.
 */
import { z } from "zod";
import { jsonObjectSchema } from "../../db/json.ts";
import { timeCursorSchema } from "../../db/pagination.ts";

/** Free-form event details (never secrets, tokens or password hashes: SECURITY.md §19). */
export const auditDetailsSchema = jsonObjectSchema;

export const auditActionSchema = z.string().min(1).max(100);

export const auditCursorSchema = timeCursorSchema("at");
