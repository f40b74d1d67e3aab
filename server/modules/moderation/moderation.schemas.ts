/**
 * The moderation console's inputs (REST `/api/moderation/*`, the /moderate page) and wire shapes.
 * Every input is parsed here; a failure is a 400 naming the field.
 */
import { z } from "zod";
import { decodeCursor, encodeCursor } from "../../db/pagination.ts";
import { BadInputError } from "../../errors.ts";

export const MODERATION_QUEUES = ["reported", "pending", "hidden", "all"] as const;
export type ModerationQueue = (typeof MODERATION_QUEUES)[number];

export const MODERATION_ACTIONS = ["approve", "hide", "remove", "dismiss"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const RESTRICTION_KINDS = ["muted", "banned"] as const;
export type RestrictionKind = (typeof RESTRICTION_KINDS)[number];

/** How long a restriction lasts; `permanent` has no end. */
export const RESTRICTION_DURATIONS = ["1d", "7d", "30d", "permanent"] as const;
export type RestrictionDuration = (typeof RESTRICTION_DURATIONS)[number];
export const DURATION_DAYS: Readonly<Record<RestrictionDuration, number | null>> = Object.freeze({
  "1d": 1,
  "7d": 7,
  "30d": 30,
  permanent: null,
});

export const MAX_BULK_IDS = 100;
export const MAX_REASON_LENGTH = 500;
export const QUEUE_DEFAULT_LIMIT = 25;
export const QUEUE_MAX_LIMIT = 100;

const oneOf = (values: readonly string[]) => `expected one of ${values.join(", ")}`;
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());
const idSchema = z.string().trim().min(1, "must not be empty").max(200, "at most 200 characters");
const reasonSchema = z
  .string({ message: "must be text" })
  .trim()
  .max(MAX_REASON_LENGTH, `at most ${MAX_REASON_LENGTH} characters`);

/** Where a queue page ends: the last row's sort value (ISO time) and id. */
const cursorSchema = z.strictObject({
  q: z.enum(MODERATION_QUEUES),
  at: z.string().min(1).max(40),
  id: idSchema,
});
export type QueueCursor = z.output<typeof cursorSchema>;

export function encodeQueueCursor(cursor: QueueCursor): string {
  return encodeCursor(cursor);
}

export const queueQuerySchema = z.strictObject({
  queue: optional(z.enum(MODERATION_QUEUES, { message: oneOf(MODERATION_QUEUES) })),
  cursor: optional(z.string().max(1024)),
  limit: optional(
    z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1)
      .max(QUEUE_MAX_LIMIT),
  ),
  contentId: optional(idSchema),
  authorId: optional(idSchema),
});

export interface QueueQuery {
  queue: ModerationQueue;
  cursor: QueueCursor | null;
  limit: number;
  contentId: string | null;
  authorId: string | null;
}

/** Throws a BadInputError naming the first field at fault. */
function parseOrThrow<S extends z.ZodType>(schema: S, raw: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const field: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.length
      ? issue.path.map(String).join(".")
      : issue.code === "unrecognized_keys"
        ? issue.keys.join(",")
        : what;
    field[key] ??= issue.code === "unrecognized_keys" ? "not a known parameter" : issue.message;
  }
  const [first] = Object.entries(field);
  throw new BadInputError(first ? `${first[0]}: ${first[1]}` : `${what} is not valid`, { field });
}

export function parseQueueQuery(raw: Record<string, unknown>): QueueQuery {
  const q = parseOrThrow(queueQuerySchema, raw, "query");
  const queue = q.queue ?? "reported";
  let cursor: QueueCursor | null = null;
  if (q.cursor) {
    cursor = decodeCursor(cursorSchema, q.cursor);
    if (cursor.q !== queue)
      throw new BadInputError("cursor: belongs to another queue", {
        field: { cursor: "belongs to another queue" },
      });
  }
  return {
    queue,
    cursor,
    limit: q.limit ?? QUEUE_DEFAULT_LIMIT,
    contentId: q.contentId ?? null,
    authorId: q.authorId ?? null,
  };
}

export const actionInputSchema = z.strictObject({
  action: z.enum(MODERATION_ACTIONS, { message: oneOf(MODERATION_ACTIONS) }),
  ids: z
    .array(idSchema, { message: "must be a list of comment ids" })
    .min(1, "choose at least one comment")
    .max(MAX_BULK_IDS, `at most ${MAX_BULK_IDS} comments at once`),
  reason: optional(reasonSchema),
});
export type ActionInput = z.output<typeof actionInputSchema>;

export function parseActionInput(raw: unknown): ActionInput {
  const input = parseOrThrow(actionInputSchema, raw, "body");
  return { ...input, ids: [...new Set(input.ids)], reason: input.reason || undefined };
}

export const restrictInputSchema = z.strictObject({
  userId: idSchema,
  kind: z.enum(RESTRICTION_KINDS, { message: oneOf(RESTRICTION_KINDS) }),
  duration: optional(z.enum(RESTRICTION_DURATIONS, { message: oneOf(RESTRICTION_DURATIONS) })),
  reason: optional(reasonSchema),
  hideComments: optional(z.boolean({ message: "must be true or false" })),
});
export type RestrictInput = z.output<typeof restrictInputSchema>;

export function parseRestrictInput(raw: unknown): RestrictInput {
  const input = parseOrThrow(restrictInputSchema, raw, "body");
  if (input.hideComments && input.kind !== "banned")
    throw new BadInputError("hideComments: only with a ban", { field: { hideComments: "only with a ban" } });
  return { ...input, reason: input.reason || undefined };
}

// --- Wire shapes ---------------------------------------------------------------------------------

export interface ModerationRestriction {
  kind: RestrictionKind;
  until: string | null;
  reason: string | null;
}

export interface ModerationComment {
  id: string;
  /** The text as written (render as text); null for a removed comment (kept for the audit only). */
  body: string | null;
  status: string;
  createdAt: string;
  editedAt: string | null;
  parentCommentId: string | null;
  replyCount: number;
  reportCount: number;
  moderatedAt: string | null;
  moderatedByName: string | null;
  moderationReason: string | null;
  author: {
    id: string;
    name: string;
    email: string;
    /** Staff cannot be muted or banned. */
    staff: boolean;
    restriction: ModerationRestriction | null;
  } | null;
  item: { id: string; title: string; slug: string; url: string };
  /** Open reports: reasons with counts (most frequent first), the newest report's time and notes. */
  reports: { reasons: { reason: string; count: number }[]; latestAt: string | null; notes: string[] };
}

export interface ModerationQueuePage {
  queue: ModerationQueue;
  items: ModerationComment[];
  nextCursor: string | null;
}

export type ActionResult =
  | { id: string; ok: true; status: string; changed: boolean }
  | { id: string; ok: false; error: "not_found" | "removed"; message: string };

export interface ActionOutcome {
  action: ModerationAction;
  results: ActionResult[];
  /** How many succeeded / changed something. */
  done: number;
  changed: number;
}

export interface RestrictedUser {
  userId: string;
  name: string;
  email: string;
  kind: RestrictionKind;
  reason: string | null;
  until: string | null;
  createdAt: string;
  createdByName: string | null;
}

export interface ModerationSummary {
  reported: number;
  pending: number;
  hidden: number;
  restricted: number;
  review: number;
}

export interface ReviewQueueItem {
  id: string;
  title: string;
  type: string;
  authorName: string | null;
  /** When it last changed (the submission, for an item waiting in review). */
  submittedAt: string;
  editUrl: string;
  publicUrl: string;
}
