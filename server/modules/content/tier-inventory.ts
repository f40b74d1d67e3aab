/**
 * What each plan opens in the live library (the pricing page, the paywall, `GET /api/plans/unlocks`):
 * per tier, the published items whose minimum tier is exactly that tier and that need no role (a
 * plan never opens a role-gated item), counted by type, with a few to name ("including the
 * Responsible AI course"): featured first (by their order), then courses, then the newest.
 *
 * Metadata only (never a body). The tier is read like `parseTier` everywhere else; a value that
 * cannot be read counts as Enterprise (fail closed, as the summaries show it). One query over the
 * published items, reused while the content revision (bumped by every content write on any
 * process, `content-revision.ts`) stays the same.
 */
import type { Kysely } from "kysely";
import { parseTier, TIERS, type Tier } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { toBool } from "../../db/values.ts";
import type { ContentType } from "./content.types.ts";
import { asTemplate } from "./content-projection.ts";
import { readContentRevision } from "./content-revision.ts";

export interface TierHighlight {
  title: string;
  slug: string;
  type: ContentType;
}

export interface TierInventoryEntry {
  tier: Tier;
  /** Published items whose own tier is exactly this one (role-gated items excluded). */
  items: number;
  byType: Partial<Record<ContentType, number>>;
  /** Up to HIGHLIGHTS items: featured first, then courses, then newest. */
  highlights: TierHighlight[];
}

export const HIGHLIGHTS = 3;

interface Row {
  title: string;
  slug: string;
  type: string;
  tier: string;
  featured: boolean | number;
  featuredOrder: number | null;
  publishedAt: string | null;
  rolesRequired: string;
}

/** Featured (by order) before the rest, then courses, then newest published. */
function highlightOrder(a: Row, b: Row): number {
  const fa = toBool(a.featured);
  const fb = toBool(b.featured);
  if (fa !== fb) return fa ? -1 : 1;
  if (fa && fb && (a.featuredOrder ?? 999) !== (b.featuredOrder ?? 999)) {
    return (a.featuredOrder ?? 999) - (b.featuredOrder ?? 999);
  }
  const ca = a.type === "course";
  const cb = b.type === "course";
  if (ca !== cb) return ca ? -1 : 1;
  return (b.publishedAt ?? "").localeCompare(a.publishedAt ?? "") || a.slug.localeCompare(b.slug);
}

/** Computes the inventory now (one read of the published items' metadata). */
export async function computeTierInventory(db: Kysely<DB>): Promise<TierInventoryEntry[]> {
  const rows = (await db
    .selectFrom("content")
    .select(["title", "slug", "type", "tier", "featured", "featuredOrder", "publishedAt", "rolesRequired"])
    .where("status", "=", "published")
    .where("publishedAt", "is not", null)
    .execute()) as Row[];
  const byTier = new Map<Tier, Row[]>(TIERS.map((t) => [t, []]));
  for (const row of rows) {
    const roles = (row.rolesRequired ?? "[]").trim();
    if (roles !== "[]" && roles !== "") continue;
    byTier.get(parseTier(row.tier) ?? "Enterprise")!.push(row);
  }
  return TIERS.map((tier) => {
    const list = byTier.get(tier)!;
    const byType: Partial<Record<ContentType, number>> = {};
    for (const row of list) {
      const type = asTemplate(row.type) ?? "markdown";
      byType[type] = (byType[type] ?? 0) + 1;
    }
    const highlights = [...list]
      .sort(highlightOrder)
      .slice(0, HIGHLIGHTS)
      .map((r) => ({ title: r.title, slug: r.slug, type: asTemplate(r.type) ?? "markdown" }));
    return { tier, items: list.length, byType, highlights };
  });
}

const cache = new WeakMap<Kysely<DB>, { revision: number; value: Promise<TierInventoryEntry[]> }>();

/** The inventory, reused per database while the content revision has not moved. */
export async function tierInventory(db: Kysely<DB>): Promise<TierInventoryEntry[]> {
  const revision = await readContentRevision(db);
  const hit = cache.get(db);
  if (hit && hit.revision === revision) return hit.value;
  const value = computeTierInventory(db);
  cache.set(db, { revision, value });
  value.catch(() => {
    if (cache.get(db)?.value === value) cache.delete(db);
  });
  return value;
}
