import { isOrgAdminGroup, isPlatformAdmin, orgSlugFromGroup } from "../../core/groups.ts";
import { meetsContentTier, type Tier } from "../../core/tiers.ts";
import { assertValidKey } from "./object-store.ts";

export type StorageAction = "read" | "write" | "delete";

export interface StorageActor {
  groups: string[];
  /** null for a visitor (guest). */
  userId: string | null;
  /** The pricing tier; null for a visitor. */
  tier: Tier | null;
  /** The organisation (tenant) the actor acts for, when known. */
  tenantId?: string | null;
}

/** Content areas and the lowest tier reading each; null: admins only. */
const CONTENT_AREAS: Record<string, Tier | null> = {
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  enterprise: null,
};

function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/** A member of tenant `tenantId`: it is the actor's tenant, or the actor holds org-<tenantId>[-admin]. */
function isTenantMember(actor: StorageActor, tenantId: string): boolean {
  if (actor.userId === null) return false;
  if (actor.tenantId === tenantId) return true;
  return actor.groups.some((g) => orgSlugFromGroup(g) === tenantId);
}

function isTenantAdmin(actor: StorageActor, tenantId: string): boolean {
  if (actor.userId === null) return false;
  return actor.groups.some((g) => isOrgAdminGroup(g) && orgSlugFromGroup(g) === tenantId);
}

/**
 * Path-based storage access (spec §6 "Storage access by path"), pure. Raw storage only: content
 * bodies normally reach readers through the content service, which applies the item's own rules.
 *
 * - app-admin and app-owner: read, write and delete every valid key.
 * - `media/…`: read by everyone (guests too); write by signed-in users; delete by admins only.
 * - `private/<userId>/…`, `individual/<userId>/…`: the owning user only (read, write, delete).
 * - `content/free/…`: read by any signed-in user (every tier group; a signed-in user without a
 *   tier counts as Free); `content/basic/…`: Basic, Pro, Enterprise; `content/pro/…`: Pro,
 *   Enterprise; `content/enterprise/…`: admins only. Writing content: admins only.
 * - `tenant/<tenantId>/shared/…`: read by the tenant's members, write and delete by its
 *   organisation admins (org-<tenantId>-admin); `tenant/<tenantId>/uploads/…`: read and write by
 *   members, delete by its organisation admins.
 * - Everything else (unknown prefixes, invalid keys, bare folders): denied.
 */
export function canAccessStoragePath(actor: StorageActor, key: string, action: StorageAction): boolean {
  if (!isValidKey(key)) return false;
  if (action !== "read" && action !== "write" && action !== "delete") return false;
  if (isPlatformAdmin(actor.groups ?? [])) return true;
  const signedIn = actor.userId !== null && actor.userId !== "";
  const segments = key.split("/");
  const [area, second, third] = segments;

  switch (area) {
    case "media":
      if (segments.length < 2) return false;
      if (action === "read") return true;
      if (action === "write") return signedIn;
      return false;
    case "private":
    case "individual":
      return signedIn && segments.length >= 3 && second === actor.userId;
    case "content": {
      if (segments.length < 3 || action !== "read" || !signedIn || second === undefined) return false;
      if (!Object.hasOwn(CONTENT_AREAS, second)) return false;
      const required = CONTENT_AREAS[second];
      if (required === null || required === undefined) return false;
      return meetsContentTier(actor.tier, required);
    }
    case "tenant": {
      if (segments.length < 4 || second === undefined) return false;
      if (third === "shared") {
        if (action === "read") return isTenantMember(actor, second);
        return isTenantAdmin(actor, second);
      }
      if (third === "uploads") {
        if (action === "delete") return isTenantAdmin(actor, second);
        return isTenantMember(actor, second);
      }
      return false;
    }
    default:
      return false;
  }
}
