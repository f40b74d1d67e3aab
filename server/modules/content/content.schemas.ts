/**
 * zod schemas for what the content repositories store as JSON, and for their cursors.
 */
import { z } from "zod";
import { TIERS } from "../../../core/tiers.ts";
import { stringListSchema, structuredDataSchema } from "../../db/json.ts";
import { timeCursorSchema } from "../../db/pagination.ts";
import { BadInputError } from "../../errors.ts";

/** tags, aliases, audience, related, seoKeywords, rolesRequired. */
export const contentStringListSchema = stringListSchema;

/** structuredData: schema.org JSON-LD (an object or a list of objects). */
export const contentStructuredDataSchema = structuredDataSchema;

/** The string-list fields of Content (stored as JSON text). */
export const CONTENT_LIST_FIELDS = [
  "tags",
  "aliases",
  "audience",
  "related",
  "seoKeywords",
  "rolesRequired",
] as const;
export type ContentListField = (typeof CONTENT_LIST_FIELDS)[number];

/** The counters `incrementCounters` may change. */
export const CONTENT_COUNTERS = ["viewCount", "likeCount", "shareCount", "commentCount"] as const;
export type ContentCounter = (typeof CONTENT_COUNTERS)[number];

export const counterDeltasSchema = z.partialRecord(
  z.enum(CONTENT_COUNTERS),
  z.number().int().min(-1_000_000).max(1_000_000),
);

export const publishedCursorSchema = timeCursorSchema("publishedAt");
export const updatedCursorSchema = timeCursorSchema("updatedAt");

// Write inputs of the data API (GraphQL) -------------------------------------------------------
// What a client may set. Never: id, version, counters, epochs, createdAt/updatedAt, authorId,
// lastEditedBy, bodySize, bodyChecksum (SECURITY.md §10: no mass assignment). Strict objects:
// an unknown field is an error naming it.

/** Content status values the API accepts (spec §4 leaves them open). */
export const CONTENT_STATUSES = ["draft", "review", "published", "archived"] as const;
export const CONTENT_TYPES = ["article", "course", "video", "markdown", "category", "collection"] as const;

const text = (max: number) => z.string().trim().max(max, `at most ${max} characters`);
const optionalText = (max: number) => text(max).nullable().optional();
const slug = z
  .string()
  .min(1, "required")
  .max(200, "at most 200 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lowercase letters, digits and single hyphens only");
const optionalSlug = slug.nullable().optional();
const tier = z.enum(TIERS, { message: `expected one of ${TIERS.join(", ")}` });
const isoDate = z.iso.datetime({ offset: true, message: "expected an ISO-8601 datetime" });
/**
 * Storage keys are chosen by the server, never by a client (decision 011): these fields are
 * refused on every write with a message naming them.
 */
export const SERVER_CHOSEN_FIELDS = ["bodyS3Key", "bodySize", "bodyChecksum"] as const;

/** The largest body accepted through the API, in bytes (the GraphQL request limit is lower). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** BAD_USER_INPUT naming the first server-chosen field `input` carries (even as null). */
export function refuseServerChosenFields(input: unknown, what: string, bodyField: boolean): void {
  if (typeof input !== "object" || input === null) return;
  const field = SERVER_CHOSEN_FIELDS.find((f) => Object.hasOwn(input, f));
  if (!field) return;
  throw new BadInputError(
    `${what}.${field}: storage keys, sizes and checksums are chosen by the server and cannot be set` +
      (bodyField ? "; send the body text in `body` and it is stored at the item's own key" : ""),
    { details: [field] },
  );
}
const url = text(2000).refine(
  (v) => v === "" || /^(https:\/\/|\/)/.test(v),
  "expected an https URL or a path",
);

export const contentWriteSchema = z.strictObject({
  gid: optionalText(200),
  tenant: optionalText(200),
  type: z.enum(CONTENT_TYPES).optional(),
  title: text(300).min(1, "required").optional(),
  slug: slug.optional(),
  status: z.enum(CONTENT_STATUSES).optional(),
  category: optionalText(200),
  categoryId: optionalText(200),
  categorySlug: optionalSlug,
  categoryTier: tier.nullable().optional(),
  section: optionalText(100),
  taxon: optionalText(200),
  tier: tier.optional(),
  classification: optionalText(100),
  pii: z.boolean().optional(),
  retention: optionalText(100),
  isPublic: z.boolean().optional(),
  publishedAt: isoDate.nullable().optional(),
  eventTime: isoDate.nullable().optional(),
  /** The markdown body: stored by the server at the item's own key (size and checksum computed). */
  body: z
    .string()
    .refine((v) => Buffer.byteLength(v, "utf8") <= MAX_BODY_BYTES, `at most ${MAX_BODY_BYTES} bytes`)
    .optional(),
  bodyFormat: z.enum(["markdown", "html"]).optional(),
  excerpt: optionalText(2000),
  tags: contentStringListSchema.optional(),
  aliases: contentStringListSchema.optional(),
  audience: contentStringListSchema.optional(),
  related: contentStringListSchema.optional(),
  seoKeywords: contentStringListSchema.optional(),
  seoTitle: optionalText(300),
  metaDescription: optionalText(500),
  ogTitle: optionalText(300),
  ogDescription: optionalText(500),
  ogImage: url.nullable().optional(),
  twitterCard: optionalText(50),
  schemaType: optionalText(100),
  canonicalUrl: url.nullable().optional(),
  noindex: z.boolean().optional(),
  structuredData: contentStructuredDataSchema.nullable().optional(),
  featured: z.boolean().optional(),
  featuredOrder: z.number().int().min(0).max(1_000_000).nullable().optional(),
  featuredImage: url.nullable().optional(),
  featuredImageAlt: optionalText(500),
  workflowStatus: optionalText(100),
  reviewerNotes: optionalText(5000),
  templateId: optionalText(100),
  rolesRequired: contentStringListSchema.optional(),
  /** The item's own review-by date (decision 038): a day (YYYY-MM-DD, its start in UTC) or an instant; null clears it. */
  reviewBy: z
    .union([z.iso.date().transform((d) => `${d}T00:00:00.000Z`), isoDate], {
      message: "expected a date (YYYY-MM-DD) or an ISO-8601 datetime",
    })
    .nullable()
    .optional(),
});
export const contentCreateSchema = contentWriteSchema.required({ title: true, slug: true });
export type ContentWriteInput = z.output<typeof contentWriteSchema>;
export type ContentCreateInput = z.output<typeof contentCreateSchema>;

export const contentCategoryWriteSchema = z.strictObject({
  slug: slug.optional(),
  label: text(200).min(1, "required").optional(),
  description: optionalText(2000),
  defaultTier: tier.nullable().optional(),
  icon: optionalText(100),
  s3Prefix: z
    .string()
    .max(300)
    .regex(/^content\/(?:[A-Za-z0-9_.-]+\/)*$/, "expected a prefix under content/ ending in /")
    .refine((k) => !k.split("/").includes(".."), "must not contain ..")
    .nullable()
    .optional(),
  isActive: z.boolean().optional(),
});
export const contentCategoryCreateSchema = contentCategoryWriteSchema.required({ slug: true, label: true });
export type ContentCategoryWriteInput = z.output<typeof contentCategoryWriteSchema>;

export const contentItemWriteSchema = z.strictObject({
  contentId: optionalText(200),
  title: optionalText(300),
  slug: optionalSlug,
  tier: tier.optional(),
  tenant: optionalText(200),
  categoryId: optionalText(200),
  category: optionalText(200),
  categorySlug: optionalSlug,
  categoryTier: tier.nullable().optional(),
  section: optionalText(100),
  isPublic: z.boolean().optional(),
  publishedAt: isoDate.nullable().optional(),
  excerpt: optionalText(2000),
  tags: contentStringListSchema.optional(),
  seoTitle: optionalText(300),
  metaDescription: optionalText(500),
  canonicalUrl: url.nullable().optional(),
  featuredImage: url.nullable().optional(),
  structuredData: contentStructuredDataSchema.nullable().optional(),
});
export const contentItemCreateSchema = contentItemWriteSchema.required({ tier: true });
export type ContentItemWriteInput = z.output<typeof contentItemWriteSchema>;

/** Parses `input` with `schema`; the first problem becomes a BadInputError naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join(".");
  const message =
    issue.code === "unrecognized_keys"
      ? `${what}: unknown field ${issue.keys.join(", ")} (it cannot be set)`
      : `${what}.${field || "input"}: ${issue.message}`;
  throw new BadInputError(message, {
    details: parsed.error.issues.map((i) => i.path.join(".")),
    field:
      issue.code === "unrecognized_keys"
        ? Object.fromEntries(issue.keys.map((key) => [key, "cannot be set"]))
        : { [field || "input"]: issue.message },
  });
}

/** Keyset cursors of the data API's lists: by id, and by a sort key then id. */
export const idCursorSchema = z.strictObject({ id: z.string().min(1).max(200) });
export const sortKeyCursorSchema = z.strictObject({
  s: z.string().min(1).max(200),
  id: z.string().min(1).max(200),
});
