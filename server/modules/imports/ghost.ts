/**
 * A Ghost JSON export (`{ db: [{ meta, data: { posts, tags, users, members, products, … } }] }`)
 * read into an import plan (decision 036).
 *
 * - Posts and pages: the `html` converted to Markdown (turndown), else `plaintext`; a post with
 *   only `mobiledoc`/`lexical` is refused (export it again from a Ghost that renders html).
 * - Visibility: public → Free; members → Free for signed-in readers (`rolesRequired: ["User"]`,
 *   the role every signed-in account has and a visitor lacks); paid → Basic, the lowest paid tier;
 *   tiers → the lowest of the post's Ghost tiers (products) mapped here. A Ghost tier is mapped by
 *   `--tier-map slug=tier`, else by its name or slug (Free, Basic, Pro, Enterprise, Business),
 *   else by its monthly price equal to one of this hub's plans; an unmapped one is an error of
 *   each item that needs it.
 * - Authors become users in the content writer group; members become users without a password
 *   (they sign in by a reset or magic link) with the plan of their Ghost tier when paid or comped.
 * - Images under `__GHOST_URL__/content/images/` (or `/content/images/`) are files of the
 *   `--images` folder (Ghost's content/images).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import TurndownService from "turndown";
import {
  CONTENT_CREATOR_GROUP,
  maxTier,
  parseTier,
  TIERS,
  type Tier,
  tierLevel,
} from "../../../core/index.ts";
import { isSectionSlug } from "../content/sections.ts";
import { isoDate, SLUG_PATTERN, slugify, text } from "./front-matter.ts";
import type { ContentCandidate, ImageRef, ImportPlan, ReportEntry, UserCandidate } from "./import.types.ts";

export class GhostExportError extends Error {
  override name = "GhostExportError";
}

export interface PlanPrice {
  tier: Tier;
  monthlyPriceCents: number;
  currency: string;
}

export interface GhostOptions {
  /** Ghost's content/images folder. */
  images?: string | null;
  /** Ghost tier (product) slug or name → our tier. */
  tierMap?: Record<string, Tier>;
  /** The section posts and pages are filed in. */
  section?: string | null;
  /** This hub's plans (for mapping Ghost tiers by price). */
  plans?: PlanPrice[];
}

type Row = Record<string, unknown>;

const rows = (data: Row, name: string): Row[] =>
  Array.isArray(data[name])
    ? (data[name] as unknown[]).filter((r): r is Row => typeof r === "object" && r !== null)
    : [];
const id = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const truthy = (value: unknown) => value === true || value === 1 || value === "1" || value === "true";

function groupBy(list: Row[], key: string): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const row of list) {
    const k = id(row[key]);
    const group = out.get(k);
    if (group) group.push(row);
    else out.set(k, [row]);
  }
  for (const group of out.values())
    group.sort((a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0));
  return out;
}

/** `a=pro,b=business` → { a: "Pro", b: "Enterprise" }; throws on a pair that names no tier. */
export function parseTierMap(value: string | null | undefined): Record<string, Tier> {
  const out: Record<string, Tier> = {};
  if (!value) return out;
  for (const pair of value.split(",")) {
    const trimmed = pair.trim();
    if (!trimmed) continue;
    const eq = trimmed.indexOf("=");
    const from = eq > 0 ? trimmed.slice(0, eq).trim().toLowerCase() : "";
    const to = eq > 0 ? parseTier(trimmed.slice(eq + 1)) : null;
    if (!from || !to) {
      throw new GhostExportError(
        `--tier-map: “${trimmed}” is not ghost-tier=tier with a tier of ${TIERS.join(", ")}`,
      );
    }
    out[from] = to;
  }
  return out;
}

/** The export's data object (the usual `db[0].data`, or older shapes). */
function exportData(json: unknown): Row {
  const root = json as { db?: unknown; data?: unknown } | null;
  const db = Array.isArray(root?.db) ? root.db[0] : root?.db;
  const data = (db as { data?: unknown } | undefined)?.data ?? root?.data;
  if (typeof data !== "object" || data === null || !Array.isArray((data as Row).posts)) {
    throw new GhostExportError("not a Ghost export: expected { db: [{ data: { posts: [...] } }] }");
  }
  return data as Row;
}

function turndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "*",
  });
  // Ghost's card wrappers carry nothing a Markdown body keeps; captions stay as text.
  service.remove(["script", "style"]);
  return service;
}

/** Ghost's image URL → a file of the images folder (inside it only); null when it is not a Ghost image. */
export function ghostImage(imagesDir: string | null, ref: string): ImageRef | null {
  const m = /^(?:__GHOST_URL__|https?:\/\/[^/]+)?\/content\/images\/(.+)$/.exec(ref.trim());
  if (!m || (!ref.startsWith("__GHOST_URL__") && !ref.startsWith("/"))) return null;
  if (!imagesDir) return { ref, file: null };
  let rest: string;
  try {
    rest = decodeURIComponent(m[1]!.split(/[?#]/)[0]!);
  } catch {
    rest = m[1]!;
  }
  const root = path.resolve(imagesDir);
  const file = path.resolve(root, rest);
  const relative = path.relative(root, file);
  if (!relative || relative.startsWith("..") || path.isAbsolute(relative)) return { ref, file: null };
  return { ref, file };
}

export async function readGhostExport(file: string, options: GhostOptions = {}): Promise<ImportPlan> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new GhostExportError(
      `${file}: ${error instanceof SyntaxError ? `not valid JSON (${error.message})` : String(error)}`,
    );
  }
  return ghostPlan(json, path.resolve(file), options);
}

/** The plan of an already parsed export. */
export function ghostPlan(json: unknown, source: string, options: GhostOptions = {}): ImportPlan {
  const data = exportData(json);
  const section = options.section ?? null;
  if (section && !isSectionSlug(section))
    throw new GhostExportError(`--section: unknown section “${section}”`);
  const tierMap = options.tierMap ?? {};
  const imagesDir = options.images ? path.resolve(options.images) : null;
  const unreadable: ReportEntry[] = [];

  // Ghost tiers (products) → ours.
  const products = new Map(rows(data, "products").map((p) => [id(p.id), p]));
  const productTier = (product: Row): Tier | null => {
    const slug = (text(product.slug) ?? "").toLowerCase();
    const name = (text(product.name) ?? "").toLowerCase();
    const mapped = tierMap[slug] ?? tierMap[name];
    if (mapped) return mapped;
    if (product.type === "free") return "Free";
    const byName = parseTier(name) ?? parseTier(slug);
    if (byName) return byName;
    const price = Number(product.monthly_price);
    const currency = (text(product.currency) ?? "").toLowerCase();
    if (Number.isFinite(price) && price > 0) {
      const plan = (options.plans ?? []).find(
        (p) => p.monthlyPriceCents === price && p.currency.toLowerCase() === currency,
      );
      if (plan) return plan.tier;
    }
    return null;
  };
  const unknownTier = (product: Row | undefined, productId: string) => {
    const slug = text(product?.slug) ?? productId;
    return `unknown tier: Ghost tier “${text(product?.name) ?? productId}” has no tier here; map it with --tier-map ${slug}=<${TIERS.join("|")}>`;
  };

  // Authors.
  const users: UserCandidate[] = [];
  const authorEmail = new Map<string, string>();
  for (const user of rows(data, "users")) {
    const email = text(user.email)?.toLowerCase();
    if (!email) {
      unreadable.push({
        kind: "user",
        source: `author ${id(user.id)}`,
        action: "skipped",
        reason: "no e-mail address",
      });
      continue;
    }
    authorEmail.set(id(user.id), email);
    users.push({
      sourceKey: `author:${id(user.id)}`,
      email,
      name: text(user.name) ?? email,
      groups: [CONTENT_CREATOR_GROUP],
      tier: null,
      bio: text(user.bio),
      problems: [],
    });
  }

  // Members and their plans.
  const memberProducts = groupBy(rows(data, "members_products"), "member_id");
  for (const member of rows(data, "members")) {
    const email = text(member.email)?.toLowerCase();
    if (!email) {
      unreadable.push({
        kind: "user",
        source: `member ${id(member.id)}`,
        action: "skipped",
        reason: "no e-mail address",
      });
      continue;
    }
    const status = text(member.status) ?? "free";
    const problems: string[] = [];
    let tier: Tier | null = null;
    if (status === "paid" || status === "comped") {
      const links = memberProducts.get(id(member.id)) ?? [];
      for (const link of links) {
        const product = products.get(id(link.product_id));
        const mapped = product ? productTier(product) : null;
        if (!mapped) problems.push(unknownTier(product, id(link.product_id)));
        else tier = maxTier(tier, mapped);
      }
      if (links.length === 0) tier = "Basic";
    }
    users.push({
      sourceKey: `member:${id(member.id)}`,
      email,
      name: text(member.name) ?? email,
      groups: [],
      tier,
      bio: null,
      problems,
    });
  }

  // Posts and pages.
  const tags = new Map(rows(data, "tags").map((t) => [id(t.id), t]));
  const postTags = groupBy(rows(data, "posts_tags"), "post_id");
  const postAuthors = groupBy(rows(data, "posts_authors"), "post_id");
  const postProducts = groupBy(rows(data, "posts_products"), "post_id");
  const postMeta = new Map(rows(data, "posts_meta").map((m) => [id(m.post_id), m]));
  const toMarkdown = turndown();
  const contents: ContentCandidate[] = [];
  for (const post of rows(data, "posts")) {
    const postId = id(post.id);
    const problems: string[] = [];
    const warnings: string[] = [];
    const kind = post.type === "page" || truthy(post.page) ? "page" : "post";
    const given = text(post.slug) ?? "";
    const slug = slugify(given);
    if (!slug) problems.push(`slug: “${given}” gives no usable slug`);
    else if (!SLUG_PATTERN.test(given)) warnings.push(`slug “${given}” imported as “${slug}”`);

    let body = "";
    const html = text(post.html);
    if (html) body = toMarkdown.turndown(html);
    else if (text(post.plaintext)) body = String(post.plaintext);
    else if (text(post.mobiledoc) || text(post.lexical)) {
      problems.push("the post has only mobiledoc/lexical and no html: export it from Ghost with html");
    }

    let tier: Tier = "Free";
    let rolesRequired: string[] = [];
    const visibility = text(post.visibility) ?? "public";
    if (visibility === "members") rolesRequired = ["User"];
    else if (visibility === "paid") tier = "Basic";
    else if (visibility === "tiers") {
      const links = postProducts.get(postId) ?? [];
      let lowest: Tier | null = null;
      for (const link of links) {
        const product = products.get(id(link.product_id));
        const mapped = product ? productTier(product) : null;
        if (!mapped) problems.push(unknownTier(product, id(link.product_id)));
        else if (lowest === null || tierLevel(mapped) < tierLevel(lowest)) lowest = mapped;
      }
      if (links.length === 0) problems.push("visibility “tiers” names no Ghost tier (posts_products)");
      if (lowest) {
        tier = lowest;
        // A post for free members only is a members-only post here.
        if (lowest === "Free") rolesRequired = ["User"];
      }
    } else if (visibility !== "public") {
      problems.push(`unknown visibility “${visibility}” (expected public, members, paid or tiers)`);
    }

    const ghostStatus = text(post.status) ?? "draft";
    const status: ContentCandidate["status"] =
      ghostStatus === "published" || ghostStatus === "sent" || ghostStatus === "scheduled"
        ? "published"
        : "draft";
    const publishedAt = isoDate(post.published_at) ?? null;

    const featureRef = text(post.feature_image);
    let featuredImage: ContentCandidate["featuredImage"] = null;
    if (featureRef) {
      featuredImage = ghostImage(imagesDir, featureRef);
      if (!featuredImage) {
        if (/^https:\/\//.test(featureRef)) featuredImage = { url: featureRef };
        else warnings.push(`feature image ${featureRef} is not https and not a Ghost image: left out`);
      }
    }
    const meta = postMeta.get(postId);
    const firstAuthor = (postAuthors.get(postId) ?? [])[0];
    const author = firstAuthor ? (authorEmail.get(id(firstAuthor.author_id)) ?? null) : null;
    const postTagNames = (postTags.get(postId) ?? []).flatMap((link) => {
      const tag = tags.get(id(link.tag_id));
      const name = text(tag?.name);
      // Internal tags (#name) organise Ghost itself; they are not readers' tags.
      if (!name || name.startsWith("#") || tag?.visibility === "internal") return [];
      return [name];
    });

    contents.push({
      sourceKey: `${kind}:${postId}`,
      label: `${kind} ${given || postId}`,
      title: text(post.title) ?? (slug || postId),
      slug,
      type: "article",
      section,
      categorySlug: null,
      tier,
      rolesRequired,
      status,
      publishedAt,
      excerpt: text(post.custom_excerpt) ?? text(meta?.meta_description) ?? text(post.meta_description),
      tags: postTagNames,
      featured: truthy(post.featured),
      seoTitle: text(meta?.meta_title) ?? text(post.meta_title),
      metaDescription: text(meta?.meta_description) ?? text(post.meta_description),
      featuredImageAlt: text(meta?.feature_image_alt) ?? text(post.feature_image_alt),
      body,
      featuredImage,
      resolveImage: (ref) => ghostImage(imagesDir, ref),
      author,
      problems,
      warnings,
    });
  }

  return { source: "ghost", path: source, users, categories: [], contents, unreadable };
}
