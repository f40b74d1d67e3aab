/**
 * Plan tiers and their orderings (spec §6 "Tier orderings (two readings)").
 *
 * The spec reads the same four plans in two ways:
 * - the authentication context counts a signed-out visitor as a tier below Free
 *   (`authTierLevel`: Visitor 0 … Enterprise 4);
 * - content and route checks only know the four plans (`tierLevel`: Free 0 … Enterprise 3),
 *   and treat a missing tier as Free.
 * Both readings are positions in the one ordered list `TIERS` (`AUTH_TIERS` puts Visitor in front).
 * Both orderings agree on the relative order of the four plans, so either reading gives the same
 * answer for two real plans; they differ only in how "no plan" is treated.
 */

/** The one tier ordering, lowest first. Every tier comparison in the product derives from it. */
export const TIERS = ["Free", "Basic", "Pro", "Enterprise"] as const;
export type Tier = (typeof TIERS)[number];

/** The authentication-context list: a signed-out visitor below the four plans. */
export const AUTH_TIERS = ["Visitor", ...TIERS] as const;
export type AuthTier = "Visitor" | Tier;

/** Content and route reading: Free 0, Basic 1, Pro 2, Enterprise 3 (the position in `TIERS`). */
export function tierLevel(t: Tier): number {
  return TIERS.indexOf(t);
}

/** Authentication-context reading: Visitor 0, Free 1, Basic 2, Pro 3, Enterprise 4 (the position in `AUTH_TIERS`). */
export function authTierLevel(t: AuthTier): number {
  return AUTH_TIERS.indexOf(t);
}

const TIER_SPELLINGS: Readonly<Record<string, Tier>> = Object.freeze({
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  business: "Enterprise",
  enterprise: "Enterprise",
});

/** True when `value` is exactly one of the four plan names (case-sensitive). */
export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/** True when `value` is exactly one of the five authentication-context tiers (case-sensitive). */
export function isAuthTier(value: unknown): value is AuthTier {
  return typeof value === "string" && (AUTH_TIERS as readonly string[]).includes(value);
}

/**
 * Reads a tier claim or stored value. Case-insensitive and tolerant of surrounding white space:
 * "free" → Free, "basic" → Basic, "pro" → Pro, "business" and "enterprise" → Enterprise.
 * Anything else (including "visitor", numbers, null) → null.
 */
export function parseTier(value: unknown): Tier | null {
  if (typeof value !== "string") return null;
  const key = value.trim().toLowerCase();
  return Object.hasOwn(TIER_SPELLINGS, key) ? (TIER_SPELLINGS[key] ?? null) : null;
}

/**
 * Authentication-context comparison: does `user` reach `required`?
 * Unknown values (possible only through untyped input) never pass.
 */
export function hasAuthTier(user: AuthTier, required: AuthTier): boolean {
  if (!isAuthTier(user) || !isAuthTier(required)) return false;
  return authTierLevel(user) >= authTierLevel(required);
}

/**
 * Content/route comparison (spec §5): a missing user tier counts as Free and a missing requirement
 * is Free. Fails closed on an unknown required value (only reachable through untyped input): such a
 * requirement is treated as unreachable. An unknown user value counts as Free.
 */
export function meetsContentTier(
  userTier: Tier | null | undefined,
  required: Tier | null | undefined,
): boolean {
  const have = isTier(userTier) ? tierLevel(userTier) : tierLevel("Free");
  if (required === null || required === undefined) return true;
  if (!isTier(required)) return false;
  return have >= tierLevel(required);
}

/**
 * The plans a reader of tier `userTier` reaches, lowest first (content reading: a missing or
 * unreadable user tier counts as Free). The list every SQL access rule and path rule is built from.
 */
export function tiersAtOrBelow(userTier: Tier | null | undefined): Tier[] {
  return TIERS.filter((t) => meetsContentTier(userTier, t));
}

/**
 * Sorting rank of a stored plan value (a subscription's tier): its content level read through
 * `parseTier` ("business" = Enterprise), or -1 when unreadable so that it sorts below Free.
 */
export function planRank(value: unknown): number {
  const tier = parseTier(value);
  return tier === null ? -1 : tierLevel(tier);
}

/** Every lower-case spelling `parseTier` reads as `t` ("enterprise" and "business" for Enterprise). */
export function tierSpellings(t: Tier): string[] {
  return Object.keys(TIER_SPELLINGS).filter((k) => TIER_SPELLINGS[k] === t);
}

/**
 * The plan named by a lower-case storage folder (`content/<folder>/…`): "free" → Free, "basic" →
 * Basic, "pro" → Pro, "enterprise" → Enterprise; anything else (including "business") → null.
 */
export function tierOfFolder(folder: string | undefined): Tier | null {
  return TIERS.find((t) => t.toLowerCase() === folder) ?? null;
}

/** Visitor → null; any plan → itself. */
export function tierFromAuthTier(t: AuthTier): Tier | null {
  return isTier(t) ? t : null;
}

/** null/undefined → Visitor; a plan → itself. */
export function authTierFromTier(t: Tier | null | undefined): AuthTier {
  return isTier(t) ? t : "Visitor";
}

/** Human label of a tier for the UI ("Free", "Basic", "Pro", "Enterprise", "Visitor"). */
export function tierLabel(t: AuthTier | null | undefined): string {
  return isAuthTier(t) ? t : "Visitor";
}

/** Sort comparator in the content reading: negative when a < b, 0 when equal, positive when a > b. */
export function compareTiers(a: Tier, b: Tier): number {
  return tierLevel(a) - tierLevel(b);
}

/** The higher of two tiers (content reading); null/undefined are ignored. */
export function maxTier(a: Tier | null | undefined, b: Tier | null | undefined): Tier | null {
  if (!isTier(a)) return isTier(b) ? b : null;
  if (!isTier(b)) return a;
  return compareTiers(a, b) >= 0 ? a : b;
}
