/**
 * The exporters of the library (decision 035): every content item, whatever its status or tier
 * (the operator exports everything), with its body as stored, as
 *
 * - Markdown: one file per item, `<section>/<slug>.md`, YAML front matter then the body. The
 *   front matter keys are the Markdown importer's (title, slug, type, section, category, tier,
 *   status, summary, tags, author, date, updated, draft) plus the image and media references;
 *   every string is double-quoted (JSON spelling, which YAML reads as the same string);
 * - JSON: one document `{ format, version, exportedAt, categories, items }`, written item by item.
 *
 * Bodies are read from object storage at the item's own key only (decision 011): an item whose
 * body is missing is exported without one and named in the summary.
 */
import { createWriteStream, existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import { fromJson, storedStringListSchema } from "../../db/json.ts";
import type { DB } from "../../db/schema.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { ownBodyKey } from "../content/body-key.ts";

export const EXPORT_FORMAT = "lumen-hub-library";
export const EXPORT_VERSION = 1;
const BATCH = 100;

export class ExportError extends Error {
  override name = "ExportError";
}

export interface ExportDeps {
  db: Kysely<DB>;
  storage: ObjectStore;
}

export interface ExportedMedia {
  /** The reference content uses: `media:<id>`. */
  ref: string;
  key: string | null;
  kind: string | null;
  contentType: string | null;
  fileName: string | null;
  alt: string | null;
}

export interface ExportedItem {
  id: string;
  title: string;
  slug: string;
  type: string;
  /** The item's section, else its category's; null when neither has one. */
  section: string | null;
  /** The category's slug. */
  category: string | null;
  categoryLabel: string | null;
  /** free, basic, pro or enterprise. */
  tier: string;
  status: string;
  /** The summary readers see (the stored excerpt). */
  summary: string | null;
  tags: string[];
  /** The author's e-mail address. */
  author: string | null;
  authorName: string | null;
  createdAt: string;
  publishedAt: string | null;
  updatedAt: string;
  /** The featured image (a `media:<id>` reference or a URL) and its text alternative. */
  image: string | null;
  imageAlt: string | null;
  ogImage: string | null;
  /** Every uploaded object the item names (image, body, structured data). */
  media: ExportedMedia[];
  bodyFormat: string;
  /** The body as stored; null when the item has none (or it is missing from storage). */
  body: string | null;
}

export interface ExportSummary {
  format: "markdown" | "json";
  /** The folder (Markdown) or the file (JSON) written. */
  path: string;
  items: number;
  /** Items per status. */
  statuses: Record<string, number>;
  /** Items whose row names a body that storage does not have (exported without a body). */
  missingBodies: string[];
}

type Progress = (done: number, total: number) => void;

const MEDIA_REF = /media:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g;

function mediaIdsIn(...texts: (string | null | undefined)[]): string[] {
  const ids = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const match of text.matchAll(MEDIA_REF)) ids.add(match[1]!);
  }
  return [...ids];
}

function tagsOf(value: string | null | undefined): string[] {
  try {
    return fromJson(storedStringListSchema, value ?? null, "tags");
  } catch {
    return [];
  }
}

/** How many content items the library holds. */
export async function countLibrary(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom("content")
    .select(db.fn.countAll<number | string>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Every content item with its body, in id order (read a batch at a time). */
export async function* libraryItems(deps: ExportDeps, missing: string[] = []): AsyncGenerator<ExportedItem> {
  const { db, storage } = deps;
  const categories = new Map(
    (await db.selectFrom("content_category").select(["id", "slug", "label", "section"]).execute()).map(
      (c) => [c.id, c],
    ),
  );
  const categoriesBySlug = new Map([...categories.values()].map((c) => [c.slug, c]));
  let after: string | null = null;
  for (;;) {
    let query = db.selectFrom("content").selectAll().orderBy("id").limit(BATCH);
    if (after !== null) query = query.where("id", ">", after);
    const rows = await query.execute();
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    const authorIds = [...new Set(rows.map((r) => r.authorId).filter((id): id is string => id !== null))];
    const authors = new Map(
      authorIds.length
        ? (
            await db.selectFrom("user").select(["id", "email", "name"]).where("id", "in", authorIds).execute()
          ).map((u) => [u.id, u])
        : [],
    );
    const bodies = new Map<string, string | null>();
    await Promise.all(
      rows.map(async (row) => {
        const key = ownBodyKey(row);
        if (!key) {
          if (row.bodyS3Key) missing.push(row.slug);
          bodies.set(row.id, null);
          return;
        }
        const object = await storage.get(key);
        if (!object) missing.push(row.slug);
        bodies.set(row.id, object ? new TextDecoder().decode(object.body) : null);
      }),
    );
    const mediaIds = new Set<string>();
    for (const row of rows) {
      for (const id of mediaIdsIn(bodies.get(row.id), row.featuredImage, row.ogImage, row.structuredData))
        mediaIds.add(id);
    }
    const media = new Map(
      mediaIds.size
        ? (
            await db
              .selectFrom("media_object")
              .select(["id", "key", "kind", "contentType", "fileName", "alt"])
              .where("id", "in", [...mediaIds])
              .execute()
          ).map((m) => [m.id, m])
        : [],
    );
    for (const row of rows) {
      const category =
        (row.categoryId ? categories.get(row.categoryId) : undefined) ??
        (row.categorySlug ? categoriesBySlug.get(row.categorySlug) : undefined);
      const author = row.authorId ? authors.get(row.authorId) : undefined;
      const body = bodies.get(row.id) ?? null;
      yield {
        id: row.id,
        title: row.title,
        slug: row.slug,
        type: row.type,
        section: row.section ?? category?.section ?? null,
        category: row.categorySlug ?? category?.slug ?? null,
        categoryLabel: category?.label ?? row.category ?? null,
        tier: String(row.tier).toLowerCase(),
        status: row.status,
        summary: row.excerpt,
        tags: tagsOf(row.tags),
        author: author?.email ?? null,
        authorName: author?.name ?? null,
        createdAt: row.createdAt,
        publishedAt: row.publishedAt,
        updatedAt: row.updatedAt,
        image: row.featuredImage,
        imageAlt: row.featuredImageAlt,
        ogImage: row.ogImage,
        media: mediaIdsIn(body, row.featuredImage, row.ogImage, row.structuredData).map((id) => {
          const m = media.get(id);
          return {
            ref: `media:${id}`,
            key: m?.key ?? null,
            kind: m?.kind ?? null,
            contentType: m?.contentType ?? null,
            fileName: m?.fileName ?? null,
            alt: m?.alt ?? null,
          };
        }),
        bodyFormat: row.bodyFormat,
        body,
      };
    }
  }
}

const yamlString = (value: string) => JSON.stringify(value);

/**
 * YAML front matter of the given fields, in order: strings double-quoted, lists as block
 * sequences, booleans and numbers plain; null and undefined fields are left out.
 */
export function frontMatter(fields: Record<string, unknown>): string {
  const lines = ["---"];
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) lines.push(`${key}: []`);
      else lines.push(`${key}:`, ...value.map((v) => `  - ${yamlString(String(v))}`));
    } else if (typeof value === "boolean" || typeof value === "number") lines.push(`${key}: ${value}`);
    else lines.push(`${key}: ${yamlString(String(value))}`);
  }
  lines.push("---");
  return `${lines.join("\n")}\n`;
}

/** One item as a Markdown file: the importer's front matter keys, then the body as stored. */
export function markdownDocument(item: ExportedItem): string {
  const head = frontMatter({
    title: item.title,
    slug: item.slug,
    type: item.type,
    section: item.section,
    category: item.category,
    tier: item.tier,
    status: item.status,
    summary: item.summary,
    tags: item.tags,
    author: item.author,
    date: item.publishedAt,
    updated: item.updatedAt,
    draft: item.status !== "published",
    image: item.image,
    imageAlt: item.imageAlt,
    ogImage: item.ogImage,
    media: item.media.map((m) => m.ref),
  });
  const body = item.body ?? "";
  return `${head}\n${body}${body.endsWith("\n") || body === "" ? "" : "\n"}`;
}

/** A file or folder name from a slug or section: lower-case letters, digits, dashes, underscores. */
export function safeName(value: string, fallback: string): string {
  const name = value
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 120);
  return name || fallback;
}

async function prepareFolder(dir: string): Promise<void> {
  if (existsSync(dir) && (await readdir(dir)).length > 0) {
    throw new ExportError(`${dir} is not empty: give a new folder for the export`);
  }
  await mkdir(dir, { recursive: true });
}

/** The whole library as Markdown files under `dir` (new or empty): `<section>/<slug>.md`. */
export async function exportMarkdown(
  deps: ExportDeps,
  dir: string,
  options: { progress?: Progress } = {},
): Promise<ExportSummary> {
  await prepareFolder(dir);
  const total = await countLibrary(deps.db);
  const missing: string[] = [];
  const statuses: Record<string, number> = {};
  const used = new Set<string>();
  let done = 0;
  options.progress?.(0, total);
  for await (const item of libraryItems(deps, missing)) {
    const folder = safeName(item.section ?? "", "unsectioned");
    let file = path.join(folder, `${safeName(item.slug, item.id)}.md`);
    if (used.has(file)) file = path.join(folder, `${safeName(item.slug, "item")}-${item.id}.md`);
    used.add(file);
    await mkdir(path.join(dir, folder), { recursive: true });
    await writeFile(path.join(dir, file), markdownDocument(item), { flag: "wx" });
    statuses[item.status] = (statuses[item.status] ?? 0) + 1;
    options.progress?.(++done, Math.max(total, done));
  }
  return { format: "markdown", path: dir, items: done, statuses, missingBodies: missing };
}

/** The whole library as one JSON document, `dir/library.json` (the folder new or empty). */
export async function exportJson(
  deps: ExportDeps,
  dir: string,
  options: { progress?: Progress; now?: () => number } = {},
): Promise<ExportSummary> {
  await prepareFolder(dir);
  const file = path.join(dir, "library.json");
  const total = await countLibrary(deps.db);
  const categories = await deps.db
    .selectFrom("content_category")
    .select(["slug", "label", "description", "section", "defaultTier", "isActive", "sortOrder"])
    .orderBy("sortOrder")
    .orderBy("slug")
    .execute();
  const out = createWriteStream(file, { flags: "wx" });
  const failed = new Promise<never>((_, reject) => out.on("error", reject));
  failed.catch(() => {});
  const write = (text: string) =>
    Promise.race([
      failed,
      new Promise<void>((resolve) => {
        if (out.write(text)) resolve();
        else out.once("drain", resolve);
      }),
    ]);
  const missing: string[] = [];
  const statuses: Record<string, number> = {};
  let done = 0;
  options.progress?.(0, total);
  try {
    const head = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: new Date(options.now?.() ?? Date.now()).toISOString(),
      categories: categories.map((c) => ({ ...c, isActive: Boolean(c.isActive) })),
    };
    await write(`${JSON.stringify(head, null, 2).replace(/\n}$/, "")},\n  "items": [`);
    for await (const item of libraryItems(deps, missing)) {
      await write(`${done === 0 ? "\n" : ",\n"}    ${JSON.stringify(item)}`);
      statuses[item.status] = (statuses[item.status] ?? 0) + 1;
      options.progress?.(++done, Math.max(total, done));
    }
    await write(`${done === 0 ? "" : "\n  "}]\n}\n`);
  } finally {
    await Promise.race([failed, new Promise<void>((resolve) => out.end(resolve))]);
  }
  return { format: "json", path: file, items: done, statuses, missingBodies: missing };
}
