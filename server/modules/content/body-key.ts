/**
 * Where a content body lives. Clients never choose it: the key is derived from the item itself,
 * `content/<tier>/<categorySlug or "uncategorized">/<slug>.md` (the demo seed's layout, and the
 * storage path rules of spec §6: the tier folder says who may read the object by path). A stored
 * key that is not the item's own derived key is never read, linked or indexed (decision 011).
 */
import { meetsContentTier, type Tier, tierOfFolder } from "../../../core/tiers.ts";
import { assertValidKey } from "../../storage/object-store.ts";

export interface BodyKeyFields {
  tier: string;
  categorySlug: string | null | undefined;
  slug: string;
}

/** The item's own body key; null when the item's fields make no valid key. */
export function contentBodyKeyOf(item: BodyKeyFields): string | null {
  const key = `content/${String(item.tier).toLowerCase()}/${item.categorySlug || "uncategorized"}/${item.slug}.md`;
  try {
    return assertValidKey(key);
  } catch {
    return null;
  }
}

/** The stored body key when it is the item's own; null otherwise (no body, or a foreign key). */
export function ownBodyKey(item: BodyKeyFields & { bodyS3Key: string | null }): string | null {
  if (!item.bodyS3Key) return null;
  return item.bodyS3Key === contentBodyKeyOf(item) ? item.bodyS3Key : null;
}

/**
 * The storage path rule of spec §6 as it applies to body links: a body under `content/<area>/`
 * is linked only for a reader whose plan reaches that area (a visitor counts as Free, as in the
 * content rule; `content/enterprise/` opens to Enterprise readers through the item's own rule,
 * while raw paths there stay admin-only). Anything outside `content/<known area>/` is refused.
 */
export function bodyAreaAllows(key: string, readerTier: string | null): boolean {
  const match = /^content\/([a-z]+)\/./.exec(key);
  const required = tierOfFolder(match?.[1]);
  if (required === null) return false;
  return meetsContentTier(readerTier as Tier | null, required);
}
