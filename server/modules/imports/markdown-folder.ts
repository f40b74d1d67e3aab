/**
 * A folder of Markdown (`.md`, `.mdx`) files with YAML front matter, read into an import plan
 * (decision 036). Conventions read:
 * - this hub's own export: title, slug, type, section, category, tier, status, summary, tags,
 *   author, date, updated, draft (imported as they are);
 * - Hugo: title, date, draft, slug, tags, categories (as tags), description, `_index.md` (a
 *   folder's title and description);
 * - Jekyll: `_posts/YYYY-MM-DD-slug.md` (date and slug from the name), `_drafts/` (drafts),
 *   `published: false`, `permalink` (its last part as the slug), `layout` (ignored);
 * - Docusaurus: `id` (slug), `sidebar_label`, `description`, `_category_.json` (a folder's label
 *   and description).
 * Folders become categories (their path, joined by hyphens, is the slug); a file's own
 * `category` wins. Relative images are files of the folder (never outside it).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parseTier, type Tier } from "../../../core/tiers.ts";
import { CONTENT_STATUSES, CONTENT_TYPES } from "../content/content.schemas.ts";
import type { ContentType } from "../content/content.types.ts";
import { isSectionSlug } from "../content/sections.ts";
import {
  FrontMatterError,
  firstHeading,
  humanize,
  isoDate,
  parseFrontMatter,
  SLUG_PATTERN,
  slugify,
  stringList,
  text,
} from "./front-matter.ts";
import type {
  CategoryCandidate,
  ContentCandidate,
  ImageRef,
  ImportPlan,
  ReportEntry,
} from "./import.types.ts";

export interface MarkdownFolderOptions {
  /** The section of files that name none (e.g. "documentation"). */
  section?: string | null;
  /** The tier of files that name none (default Free). */
  tier?: Tier | null;
  /** The author (e-mail) of files that name none. */
  author?: string | null;
}

/** Folders never read: hidden ones, dependencies and Jekyll's generated or template folders. */
const SKIPPED_DIRS = new Set(["node_modules", "_site", "_layouts", "_includes", "_data", "_sass"]);
/** Jekyll folders that hold posts but are not categories. */
const POST_DIRS = new Set(["_posts", "_drafts"]);
const JEKYLL_NAME = /^(\d{4}-\d{2}-\d{2})-(.+)$/;
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;

async function walk(root: string, dir = ""): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".")) continue;
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) out.push(...(await walk(root, rel)));
    } else if (entry.isFile()) {
      out.push(rel);
    }
  }
  return out;
}

/** The folder part that names a category (Jekyll's _posts/_drafts left out). */
function categoryDir(rel: string): string {
  return path.posix
    .dirname(rel)
    .split("/")
    .filter((part) => part !== "." && !POST_DIRS.has(part))
    .join("/");
}

/** The file a relative image reference names, inside `root` only; null for a link that is not local. */
export function localImage(root: string, fileDir: string, ref: string): ImageRef | null {
  if (EXTERNAL.test(ref)) return null;
  let clean: string;
  try {
    clean = decodeURIComponent(ref.split(/[?#]/)[0]!);
  } catch {
    clean = ref.split(/[?#]/)[0]!;
  }
  if (!clean) return null;
  const candidates = clean.startsWith("/")
    ? [path.join(root, clean), path.join(root, "static", clean)]
    : [path.resolve(root, fileDir, clean)];
  const inside = candidates.find((file) => {
    const relative = path.relative(root, file);
    return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  });
  return { ref, file: inside ?? null };
}

export async function readMarkdownFolder(
  root: string,
  options: MarkdownFolderOptions = {},
): Promise<ImportPlan> {
  const absRoot = path.resolve(root);
  const files = await walk(absRoot);
  const unreadable: ReportEntry[] = [];
  const folderInfo = new Map<string, { label?: string; description?: string | null }>();

  // Folder labels: Docusaurus _category_.json, Hugo _index.md.
  for (const rel of files) {
    const name = path.posix.basename(rel);
    const dir = categoryDir(rel);
    if (name === "_category_.json") {
      try {
        const json = JSON.parse(await readFile(path.join(absRoot, rel), "utf8")) as Record<string, unknown>;
        const link = (json.link ?? {}) as Record<string, unknown>;
        folderInfo.set(dir, {
          ...folderInfo.get(dir),
          ...(text(json.label) ? { label: text(json.label)! } : {}),
          description: text(json.description) ?? text(link.description) ?? null,
        });
      } catch (error) {
        unreadable.push({
          kind: "category",
          source: rel,
          action: "skipped",
          reason: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    } else if (name === "_index.md" || name === "_index.mdx") {
      try {
        const { data } = parseFrontMatter(await readFile(path.join(absRoot, rel), "utf8"));
        folderInfo.set(dir, {
          ...folderInfo.get(dir),
          ...(text(data.title) ? { label: text(data.title)! } : {}),
          description: text(data.description) ?? text(data.summary) ?? null,
        });
      } catch (error) {
        unreadable.push({
          kind: "category",
          source: rel,
          action: "skipped",
          reason: error instanceof FrontMatterError ? error.message : String(error),
        });
      }
    }
  }

  const optionSection = options.section ?? null;
  const categories = new Map<string, CategoryCandidate>();
  const categoryFor = (slug: string, sourceKey: string, label: string, description: string | null) => {
    if (!categories.has(slug)) {
      categories.set(slug, {
        sourceKey,
        slug,
        label,
        description,
        section: optionSection,
        defaultTier: null,
      });
    }
    return slug;
  };

  const contents: ContentCandidate[] = [];
  for (const rel of files) {
    const name = path.posix.basename(rel);
    if (!/\.mdx?$/i.test(name) || /^_index\.mdx?$/i.test(name)) continue;
    let parsed: { data: Record<string, unknown>; body: string };
    try {
      parsed = parseFrontMatter(await readFile(path.join(absRoot, rel), "utf8"));
    } catch (error) {
      unreadable.push({
        kind: "content",
        source: rel,
        action: "skipped",
        reason: error instanceof FrontMatterError ? error.message : `unreadable: ${String(error)}`,
      });
      continue;
    }
    const { data } = parsed;
    // MDX: module lines (import/export) are code, not text of the page.
    const body = /\.mdx$/i.test(name)
      ? parsed.body
          .replace(/^import\s[^\n]*\sfrom\s+["'][^"'\n]+["'];?[ \t]*(?:\n|$)/gm, "")
          .replace(/^export\s+(?:const|let|default|function)\b[^\n]*(?:\n|$)/gm, "")
          .replace(/^\n+/, "")
      : parsed.body;
    const problems: string[] = [];
    const warnings: string[] = [];
    const stem = name.replace(/\.mdx?$/i, "");
    const jekyll = JEKYLL_NAME.exec(stem);
    const dir = categoryDir(rel);
    const folderName = dir ? path.posix.basename(dir) : "";
    const isIndex = /^(index|readme)$/i.test(stem);

    // Slug: front matter slug, Docusaurus id, Jekyll permalink or file name, else the file name.
    const permalink = text(data.permalink)?.replace(/\/+$/, "").split("/").pop() ?? null;
    const given =
      text(data.slug)
        ?.replace(/^\/+|\/+$/g, "")
        .split("/")
        .pop() ||
      text(data.id) ||
      permalink?.replace(/\.html?$/, "") ||
      (jekyll ? jekyll[2]! : isIndex && folderName ? folderName : stem);
    const slug = slugify(given ?? "");
    if (!slug) problems.push(`slug: “${given}” gives no usable slug`);
    else if (given !== slug && text(data.slug)) warnings.push(`slug “${given}” imported as “${slug}”`);

    const title =
      text(data.title) ??
      text(data.sidebar_label) ??
      firstHeading(body) ??
      humanize(jekyll ? jekyll[2]! : stem);

    let type: ContentType = optionSection === "documentation" ? "markdown" : "article";
    const givenType = text(data.type);
    if (givenType) {
      if ((CONTENT_TYPES as readonly string[]).includes(givenType)) type = givenType as ContentType;
      else problems.push(`type: unknown type “${givenType}” (expected one of ${CONTENT_TYPES.join(", ")})`);
    }

    const section = text(data.section) ?? optionSection;
    if (section && !isSectionSlug(section)) problems.push(`section: unknown section “${section}”`);

    let tier: Tier = options.tier ?? "Free";
    const givenTier = text(data.tier);
    if (givenTier) {
      const parsedTier = parseTier(givenTier);
      if (parsedTier) tier = parsedTier;
      else problems.push(`unknown tier “${givenTier}” (expected Free, Basic, Pro or Enterprise)`);
    }

    let status: ContentCandidate["status"] =
      data.draft === true || data.published === false || rel.split("/").includes("_drafts")
        ? "draft"
        : "published";
    const givenStatus = text(data.status);
    if (givenStatus) {
      if ((CONTENT_STATUSES as readonly string[]).includes(givenStatus))
        status = givenStatus as ContentCandidate["status"];
      else
        problems.push(
          `status: unknown status “${givenStatus}” (expected one of ${CONTENT_STATUSES.join(", ")})`,
        );
    }

    let publishedAt = isoDate(data.date);
    if (publishedAt === null) {
      problems.push(`date: “${String(data.date)}” is not a date`);
      publishedAt = undefined;
    }
    if (publishedAt === undefined && jekyll) publishedAt = isoDate(jekyll[1]) ?? undefined;

    // Category: the file's own, else its folder's.
    let categorySlug: string | null = null;
    const givenCategory = text(data.category);
    if (givenCategory) {
      const catSlug = slugify(givenCategory);
      if (!catSlug) problems.push(`category: “${givenCategory}” gives no usable slug`);
      else
        categorySlug = categoryFor(
          catSlug,
          `category:${catSlug}`,
          SLUG_PATTERN.test(givenCategory) ? humanize(givenCategory) : givenCategory,
          null,
        );
    } else if (dir) {
      const catSlug = slugify(dir.replace(/\//g, "-"));
      if (catSlug) {
        const info = folderInfo.get(dir);
        categorySlug = categoryFor(
          catSlug,
          `folder:${dir}`,
          info?.label ?? humanize(folderName),
          info?.description ?? null,
        );
      }
    }

    const tags = [...new Set([...stringList(data.tags), ...stringList(data.categories)])];
    const fileDir = path.posix.dirname(rel);
    const resolveImage = (ref: string) => localImage(absRoot, fileDir, ref);
    const image = text(data.image) ?? text(data.featuredImage) ?? text(data.feature_image);
    let featuredImage: ContentCandidate["featuredImage"] = null;
    if (image) {
      if (/^https:\/\//.test(image)) featuredImage = { url: image };
      else featuredImage = resolveImage(image);
    }

    contents.push({
      sourceKey: rel,
      label: rel,
      title,
      slug,
      type,
      section,
      categorySlug,
      tier,
      rolesRequired: stringList(data.rolesRequired),
      status,
      publishedAt: publishedAt ?? null,
      excerpt: text(data.summary) ?? text(data.description) ?? text(data.excerpt),
      tags,
      featured: data.featured === true,
      seoTitle: text(data.seoTitle),
      metaDescription: text(data.metaDescription),
      featuredImageAlt: text(data.featuredImageAlt) ?? text(data.image_alt),
      body,
      featuredImage,
      resolveImage,
      author: text(data.author) ?? options.author ?? null,
      problems,
      warnings,
    });
  }

  return {
    source: "markdown",
    path: absRoot,
    users: [],
    categories: [...categories.values()],
    contents,
    unreadable,
  };
}
