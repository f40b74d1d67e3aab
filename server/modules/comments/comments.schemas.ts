/**
 * zod schemas for the comments repository: its cursor.
 */
import { timeCursorSchema } from "../../db/pagination.ts";

export const commentCursorSchema = timeCursorSchema("createdAt");
