/**
 * Identity groups (spec §6 "Groups (precedence)" and "Pricing tier").
 *
 * Group names are case-sensitive identifiers, as in the original user pool; the product creates them
 * from the constants exported here.
 */
import { type AuthTier, authTierLevel } from "./tiers.ts";

/** Spec §6 precedence values (as listed in the spec; a lower value sorts first). */
export const GROUP_PRECEDENCE: Readonly<Record<string, number>> = Object.freeze({
  "individual-free": 0,
  "individual-basic": 1,
  "individual-pro": 2,
  "individual-legend": 3,
  "app-owner": 4,
  "app-admin": 5,
});

export const INDIVIDUAL_FREE_GROUP = "individual-free";
export const INDIVIDUAL_BASIC_GROUP = "individual-basic";
export const INDIVIDUAL_PRO_GROUP = "individual-pro";
export const INDIVIDUAL_LEGEND_GROUP = "individual-legend";
export const APP_OWNER_GROUP = "app-owner";
export const APP_ADMIN_GROUP = "app-admin";
/** Members get the ContentManager role and the ContentManager routing role. */
export const CONTENT_MANAGER_GROUP = "ContentManager";
/** Members get the ContentCreator role. */
export const CONTENT_CREATOR_GROUP = "ContentCreator";
/** Members get the Editor role. */
export const EDITOR_GROUP = "Editor";
/** Business accounts in this group see the sidebar's Business Hub section. */
export const BUSINESS_GROUP = "Business";
export const ORG_GROUP_PREFIX = "org-";

const ORG_ADMIN_PATTERN = /^org-(.+)-admin$/;

/** Organisation groups start with "org-" and name an organisation (at least one character after it). */
export function isOrgGroup(group: string): boolean {
  return (
    typeof group === "string" && group.startsWith(ORG_GROUP_PREFIX) && group.length > ORG_GROUP_PREFIX.length
  );
}

/** Organisation admin groups are "org-<slug>-admin" with a non-empty slug. */
export function isOrgAdminGroup(group: string): boolean {
  return typeof group === "string" && ORG_ADMIN_PATTERN.test(group);
}

/**
 * The organisation slug of an org group: "org-acme" → "acme", "org-acme-admin" → "acme",
 * a non-org group → null.
 */
export function orgSlugFromGroup(group: string): string | null {
  if (!isOrgGroup(group)) return null;
  const admin = ORG_ADMIN_PATTERN.exec(group);
  if (admin?.[1]) return admin[1];
  return group.slice(ORG_GROUP_PREFIX.length);
}

/** Distinct organisation slugs of a user's groups, in first-seen order. */
export function orgSlugsFromGroups(groups: readonly string[]): string[] {
  const slugs: string[] = [];
  for (const g of groups) {
    const slug = orgSlugFromGroup(g);
    if (slug !== null && !slugs.includes(slug)) slugs.push(slug);
  }
  return slugs;
}

/**
 * Returns a new array ordered by `GROUP_PRECEDENCE` (ascending value). Groups without a precedence
 * (org groups, special groups) follow, in their original relative order. The input is not changed.
 */
export function sortGroupsByPrecedence(groups: readonly string[]): string[] {
  const rank = (g: string) =>
    Object.hasOwn(GROUP_PRECEDENCE, g) ? (GROUP_PRECEDENCE[g] ?? Infinity) : Infinity;
  return groups
    .map((g, i) => ({ g, i, r: rank(g) }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r < b.r ? -1 : 1))
    .map((x) => x.g);
}

/**
 * Reads the `cognito:groups` claim: an array of strings, or one string separated by spaces and/or
 * commas. Entries are trimmed; empty entries, non-strings and duplicates are dropped.
 */
export function parseGroups(value: unknown): string[] {
  let raw: unknown[];
  if (Array.isArray(value)) raw = value;
  else if (typeof value === "string") raw = value.split(/[\s,]+/);
  else return [];
  const out: string[] = [];
  for (const v of raw) {
    if (typeof v !== "string") continue;
    const g = v.trim();
    if (g !== "" && !out.includes(g)) out.push(g);
  }
  return out;
}

/** Lower-cased segments of a group name split on "-", "_", ".", ":" and white space. */
function segments(group: string): string[] {
  return group.toLowerCase().split(/[-_.:\s]+/);
}

/**
 * Pricing tier derived from groups (spec §6), used only when the tier claims are absent.
 * The highest match wins:
 * - Enterprise: the group "individual-legend", or any organisation group ("org-…", see `isOrgGroup`);
 * - Pro: a group with a name segment "pro" (segments split on - _ . : and spaces, case-insensitive),
 *   e.g. "individual-pro", "Pro", "team_pro";
 * - Basic: a group with a segment "basic", e.g. "individual-basic";
 * - Free: a group with a segment "free", e.g. "individual-free";
 * - otherwise Visitor.
 * "Contains pro" is read as a whole name segment so that unrelated groups such as "approvers",
 * "products" or "freelancers" grant nothing.
 */
export function tierFromGroups(groups: readonly string[]): AuthTier {
  let best: AuthTier = "Visitor";
  const raise = (t: AuthTier) => {
    if (authTierLevel(t) > authTierLevel(best)) best = t;
  };
  for (const g of groups) {
    if (typeof g !== "string") continue;
    if (g === INDIVIDUAL_LEGEND_GROUP || isOrgGroup(g)) {
      raise("Enterprise");
      continue;
    }
    const segs = segments(g);
    if (segs.includes("pro")) raise("Pro");
    else if (segs.includes("basic")) raise("Basic");
    else if (segs.includes("free")) raise("Free");
  }
  return best;
}

/** Platform administrators: app-admin and app-owner act on every tenant. */
export function isPlatformAdmin(groups: readonly string[]): boolean {
  return groups.includes("app-admin") || groups.includes("app-owner");
}

/**
 * The organisations whose members an administrator may manage: null means every organisation
 * (platform administrators); otherwise the slugs of the `org-<slug>-admin` groups held. Spec §6
 * gives organisation admins the Admin role, so every admin operation on users must scope by this.
 */
export function adminScopeOrgs(groups: readonly string[]): string[] | null {
  if (isPlatformAdmin(groups)) return null;
  return groups
    .filter(isOrgAdminGroup)
    .map((g) => orgSlugFromGroup(g)!)
    .filter(Boolean);
}
