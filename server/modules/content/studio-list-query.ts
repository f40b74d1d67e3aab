/**
 * The query of the management table (`GET /api/studio/content`, the `/content` screen): every
 * parameter validated, each failure a 400 naming the parameter. Pure (no database): the cursor is
 * decoded here too, so a cursor from another sort or direction is refused before any query runs.
 */
import { z } from "zod";
import { parseTier, TIERS, type Tier, WORKFLOW_STATES, type WorkflowState } from "../../../core/index.ts";
import { decodeCursor, encodeCursor } from "../../db/pagination.ts";
import { BadInputError } from "../../errors.ts";
import { CONTENT_TYPES } from "./content.schemas.ts";
import { SECTIONS } from "./sections.ts";
import { STUDIO_SORTS, type StudioSort } from "./studio.types.ts";

export const STUDIO_LIST_DEFAULT_LIMIT = 25;
export const STUDIO_LIST_MAX_LIMIT = 100;
export const STUDIO_DIRECTIONS = ["desc", "asc"] as const;
export type StudioDirection = (typeof STUDIO_DIRECTIONS)[number];

/** Where a page ends: the last row's sort value and id, with the sort it belongs to. */
export interface StudioCursor {
  sort: StudioSort;
  dir: StudioDirection;
  /** A number (epoch ms) for the time sorts, the lower-cased title for `title`. */
  key: string | number;
  id: string;
}

export interface StudioListQuery {
  q: string | null;
  state: WorkflowState | null;
  section: string | null;
  category: string | null;
  tier: Tier | null;
  type: (typeof CONTENT_TYPES)[number] | null;
  /** A user id, or "me" (the actor). */
  author: string | null;
  sort: StudioSort;
  dir: StudioDirection;
  limit: number;
  cursor: StudioCursor | null;
}

const oneOf = (values: readonly string[]) => `expected one of ${values.join(", ")}`;
/** An empty parameter (`?state=` from a form's "All" choice) means "not given". */
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

export const studioListQuerySchema = z.strictObject({
  q: optional(z.string().trim().max(200, "at most 200 characters")),
  state: optional(z.enum(WORKFLOW_STATES, { message: oneOf(WORKFLOW_STATES) })),
  section: optional(
    z.enum(
      SECTIONS.map((s) => s.slug),
      { message: oneOf(SECTIONS.map((s) => s.slug)) },
    ),
  ),
  category: optional(
    z
      .string()
      .max(200, "at most 200 characters")
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "expected a category slug"),
  ),
  tier: optional(
    z.string().transform((v, ctx) => {
      const tier = parseTier(v);
      if (tier === null || v.trim() === "") {
        ctx.addIssue({ code: "custom", message: oneOf(TIERS) });
        return z.NEVER;
      }
      return tier;
    }),
  ),
  type: optional(z.enum(CONTENT_TYPES, { message: oneOf(CONTENT_TYPES) })),
  author: optional(
    z
      .string()
      .max(200, "at most 200 characters")
      .regex(/^[A-Za-z0-9_-]+$/, 'expected a user id or "me"'),
  ),
  sort: optional(z.enum(STUDIO_SORTS, { message: oneOf(STUDIO_SORTS) })),
  dir: optional(z.enum(STUDIO_DIRECTIONS, { message: oneOf(STUDIO_DIRECTIONS) })),
  limit: optional(
    z.coerce
      .number({ message: "expected a number" })
      .int("expected a whole number")
      .min(1, "expected at least 1")
      .max(STUDIO_LIST_MAX_LIMIT, `expected at most ${STUDIO_LIST_MAX_LIMIT}`),
  ),
  cursor: optional(z.string().max(1024, "at most 1024 characters")),
});

const cursorSchema = z.strictObject({
  s: z.enum(STUDIO_SORTS),
  d: z.enum(STUDIO_DIRECTIONS),
  k: z.union([z.string().max(400), z.number().finite()]),
  id: z.string().min(1).max(200),
});

const CURSOR_PROBLEM = "this page link is not valid for this list; start again from the first page";

function badCursor(): BadInputError {
  return new BadInputError(`Invalid cursor: ${CURSOR_PROBLEM}`, { field: { cursor: CURSOR_PROBLEM } });
}

export function encodeStudioCursor(cursor: StudioCursor): string {
  return encodeCursor({ s: cursor.sort, d: cursor.dir, k: cursor.key, id: cursor.id });
}

/** The cursor of `sort`/`dir`; anything else (garbage, another sort's cursor) → 400 naming `cursor`. */
export function decodeStudioCursor(raw: string, sort: StudioSort, dir: StudioDirection): StudioCursor {
  let decoded: z.output<typeof cursorSchema>;
  try {
    decoded = decodeCursor(cursorSchema, raw);
  } catch {
    throw badCursor();
  }
  const keyIsText = sort === "title";
  if (decoded.s !== sort || decoded.d !== dir || (typeof decoded.k === "string") !== keyIsText) {
    throw badCursor();
  }
  return { sort, dir, key: decoded.k, id: decoded.id };
}

/**
 * Reads the raw parameters (strings, as a URL carries them; unknown names refused). Throws a
 * BadInputError whose field map names the parameter at fault.
 */
export function parseStudioListQuery(raw: Record<string, unknown>): StudioListQuery {
  const parsed = studioListQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const names = issue.code === "unrecognized_keys" ? issue.keys : [String(issue.path[0] ?? "query")];
    const problem = issue.code === "unrecognized_keys" ? "not a parameter of this list" : issue.message;
    throw new BadInputError(`Invalid ${names.join(", ")}: ${problem}`, {
      field: Object.fromEntries(names.map((n) => [n, problem])),
    });
  }
  const p = parsed.data;
  const sort = p.sort ?? "updated";
  const dir = p.dir ?? "desc";
  return {
    q: p.q ? p.q : null,
    state: p.state ?? null,
    section: p.section ?? null,
    category: p.category ?? null,
    tier: p.tier ?? null,
    type: p.type ?? null,
    author: p.author ?? null,
    sort,
    dir,
    limit: p.limit ?? STUDIO_LIST_DEFAULT_LIMIT,
    cursor: p.cursor ? decodeStudioCursor(p.cursor, sort, dir) : null,
  };
}
