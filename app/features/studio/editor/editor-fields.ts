/**
 * The editable fields of an item as the editor form holds them (text inputs hold strings; lists
 * are string arrays; structured data is the JSON text as typed), how they come from a loaded
 * item, how they go back to the server, and the client-side checks that mirror the server's
 * (server/modules/content/content.schemas.ts `contentWriteSchema`).
 */
import { TIERS, type Tier } from "../../../../core/index.ts";
import type { StudioItem } from "../../../../server/modules/content/studio.types.ts";
import { SLUG_MAX, SLUG_PATTERN } from "./slugify.ts";
import { checkStructuredData, structuredDataText } from "./structured-data.ts";

export const CONTENT_TYPES = ["article", "course", "video", "markdown", "collection"] as const;
export type EditorContentType = (typeof CONTENT_TYPES)[number];

export interface EditorFields {
  title: string;
  slug: string;
  type: EditorContentType;
  section: string;
  categorySlug: string;
  excerpt: string;
  tags: string[];
  tier: Tier;
  rolesRequired: string[];
  seoTitle: string;
  metaDescription: string;
  canonicalUrl: string;
  noindex: boolean;
  seoKeywords: string[];
  ogTitle: string;
  ogDescription: string;
  ogImage: string;
  twitterCard: string;
  schemaType: string;
  /** The JSON-LD as typed ("" for none). */
  structuredData: string;
  featured: boolean;
  /** As typed ("" for none). */
  featuredOrder: string;
  featuredImage: string;
  featuredImageAlt: string;
  /** Course lessons and collection members: item slugs, in order. */
  related: string[];
  /** The item's own review-by day, YYYY-MM-DD ("" for none: the section's default period applies). */
  reviewBy: string;
  /** The Markdown source. */
  body: string;
}

export type EditorFieldName = keyof EditorFields;
export type FieldErrors = Partial<Record<EditorFieldName, string>>;

/** Limits of the server's write schema, in characters. */
export const TEXT_LIMITS: Partial<Record<EditorFieldName, number>> = {
  title: 300,
  section: 100,
  excerpt: 2000,
  seoTitle: 300,
  metaDescription: 500,
  ogTitle: 300,
  ogDescription: 500,
  twitterCard: 50,
  schemaType: 100,
  featuredImageAlt: 500,
  canonicalUrl: 2000,
  ogImage: 2000,
  featuredImage: 2000,
};
/** What search engines show before cutting a title or description off (a guide, not a rule). */
export const SEO_GUIDE = { seoTitle: 60, metaDescription: 160 } as const;
export const MAX_BODY_BYTES = 1024 * 1024;
const LIST_MAX = 500;
const LIST_ITEM_MAX = 500;
const URL_FIELDS = ["canonicalUrl", "ogImage", "featuredImage"] as const;
const LIST_FIELDS = ["tags", "rolesRequired", "seoKeywords", "related"] as const;

const asType = (value: string | null | undefined): EditorContentType =>
  (CONTENT_TYPES as readonly string[]).includes(value ?? "") ? (value as EditorContentType) : "article";
const asTier = (value: string | null | undefined): Tier =>
  (TIERS as readonly string[]).includes(value ?? "") ? (value as Tier) : "Free";

/** The form of a new item. */
export function emptyFields(): EditorFields {
  return {
    title: "",
    slug: "",
    type: "article",
    section: "",
    categorySlug: "",
    excerpt: "",
    tags: [],
    tier: "Free",
    rolesRequired: [],
    seoTitle: "",
    metaDescription: "",
    canonicalUrl: "",
    noindex: false,
    seoKeywords: [],
    ogTitle: "",
    ogDescription: "",
    ogImage: "",
    twitterCard: "",
    schemaType: "",
    structuredData: "",
    featured: false,
    featuredOrder: "",
    featuredImage: "",
    featuredImageAlt: "",
    related: [],
    reviewBy: "",
    body: "",
  };
}

/** The form of a loaded item. */
export function fieldsFromItem(item: StudioItem): EditorFields {
  return {
    title: item.title,
    slug: item.slug,
    type: asType(item.type),
    section: item.section ?? "",
    categorySlug: item.categorySlug ?? "",
    excerpt: item.excerpt ?? "",
    tags: [...item.tags],
    tier: asTier(item.tier),
    rolesRequired: [...item.rolesRequired],
    seoTitle: item.seoTitle ?? "",
    metaDescription: item.metaDescription ?? "",
    canonicalUrl: item.canonicalUrl ?? "",
    noindex: item.noindex,
    seoKeywords: [...item.seoKeywords],
    ogTitle: item.ogTitle ?? "",
    ogDescription: item.ogDescription ?? "",
    ogImage: item.ogImage ?? "",
    twitterCard: item.twitterCard ?? "",
    schemaType: item.schemaType ?? "",
    structuredData: structuredDataText(item.structuredData),
    featured: item.featured,
    featuredOrder: item.featuredOrder === null ? "" : String(item.featuredOrder),
    featuredImage: item.featuredImage ?? "",
    featuredImageAlt: item.featuredImageAlt ?? "",
    related: [...item.related],
    reviewBy: item.reviewBy ? item.reviewBy.slice(0, 10) : "",
    body: item.body,
  };
}

/** A comma-separated list as typed → its trimmed, non-empty, distinct entries. */
export function parseList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** Whether two forms hold the same values (the dirty check). */
export function sameFields(a: EditorFields, b: EditorFields): boolean {
  return (Object.keys(a) as EditorFieldName[]).every((name) => {
    const x = a[name];
    const y = b[name];
    return Array.isArray(x) && Array.isArray(y) ? sameList(x, y) : x === y;
  });
}

/** One field's value as the server takes it ("" → null for optional texts). */
function wireValue(fields: EditorFields, name: EditorFieldName): unknown {
  const value = fields[name];
  switch (name) {
    case "title":
    case "slug":
    case "type":
    case "tier":
    case "body":
    case "noindex":
    case "featured":
      return value;
    case "structuredData": {
      const check = checkStructuredData(fields.structuredData);
      return check.ok ? check.value : null;
    }
    case "featuredOrder":
      return fields.featuredOrder.trim() === "" ? null : Number(fields.featuredOrder);
    default:
      if (Array.isArray(value)) return value;
      return typeof value === "string" && value.trim() === ""
        ? null
        : typeof value === "string"
          ? value.trim()
          : value;
  }
}

/**
 * What a save sends: every field of a new item (`saved` null), or only the fields that differ from
 * the last saved form, so a save never overwrites what it did not change.
 */
export function toPayload(fields: EditorFields, saved: EditorFields | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(fields) as EditorFieldName[]) {
    if (saved && sameFields({ ...saved, [name]: fields[name] }, saved)) continue;
    const value = wireValue(fields, name);
    if (!saved && (value === null || (Array.isArray(value) && value.length === 0))) continue;
    out[name] = value;
  }
  return out;
}

/** A real calendar day written YYYY-MM-DD. */
function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

const isUrl = (value: string) => value === "" || /^(https:\/\/|\/)/.test(value.trim());

/** The problems of a form, by field, as the server would name them (empty when it may be saved). */
export function validateFields(fields: EditorFields): FieldErrors {
  const errors: FieldErrors = {};
  const title = fields.title.trim();
  if (title === "") errors.title = "Give the item a title.";
  const slug = fields.slug;
  if (slug === "") errors.slug = "Give the item an address (slug).";
  else if (slug.length > SLUG_MAX) errors.slug = `At most ${SLUG_MAX} characters.`;
  else if (!SLUG_PATTERN.test(slug)) errors.slug = "Lowercase letters, digits and single hyphens only.";
  for (const [name, max] of Object.entries(TEXT_LIMITS) as [EditorFieldName, number][]) {
    const value = fields[name];
    if (typeof value === "string" && value.trim().length > max && !errors[name]) {
      errors[name] = `At most ${max} characters (now ${value.trim().length}).`;
    }
  }
  for (const name of URL_FIELDS) {
    if (!errors[name] && !isUrl(fields[name]))
      errors[name] = "Use an https:// address or a path starting with /.";
  }
  for (const name of LIST_FIELDS) {
    const list = fields[name];
    if (list.length > LIST_MAX) errors[name] = `At most ${LIST_MAX} entries.`;
    else if (list.some((v) => v.length > LIST_ITEM_MAX))
      errors[name] = `Each entry at most ${LIST_ITEM_MAX} characters.`;
  }
  const order = fields.featuredOrder.trim();
  if (order !== "" && !(/^\d+$/.test(order) && Number(order) <= 1_000_000)) {
    errors.featuredOrder = "A whole number from 0 to 1000000.";
  }
  if (fields.featuredImage.trim() !== "" && fields.featuredImageAlt.trim() === "") {
    errors.featuredImageAlt = "Describe the image for readers who cannot see it.";
  }
  const reviewBy = fields.reviewBy.trim();
  if (reviewBy !== "" && !isDay(reviewBy)) errors.reviewBy = "A date such as 2027-03-31.";
  const structured = checkStructuredData(fields.structuredData);
  if (!structured.ok) errors.structuredData = structured.message;
  if (new TextEncoder().encode(fields.body).byteLength > MAX_BODY_BYTES) {
    errors.body = "The text is larger than 1 MiB: split it into several items.";
  }
  return errors;
}

/** Server field names that are not form fields, mapped to the form field that shows them. */
const SERVER_FIELD_ALIASES: Record<string, EditorFieldName> = {
  category: "categorySlug",
  categoryId: "categorySlug",
  input: "title",
};

/** A 400 answer's `field` map (names like "input.slug" or "slug") → the form's errors. */
export function serverFieldErrors(field: Readonly<Record<string, string>>): FieldErrors {
  const out: FieldErrors = {};
  const names = new Set(Object.keys(emptyFields()));
  for (const [raw, problem] of Object.entries(field)) {
    const name = raw.replace(/^input\./, "").split(".")[0]!;
    const target = names.has(name) ? (name as EditorFieldName) : SERVER_FIELD_ALIASES[name];
    if (target && !out[target]) out[target] = problem;
  }
  return out;
}
