/**
 * Plan tiers and their orderings (spec §6 "Tier orderings (two readings)").
 *
 * The spec reads the same four plans in two ways:
 * - the authentication context counts a signed-out visitor as a tier below Free
 *   (`AUTH_TIER_LEVEL`: Visitor 0 … Enterprise 4);
 * - content and route checks only know the four plans (`CONTENT_TIER_LEVEL`: Free 0 … Enterprise 3),
 *   and treat a missing tier as Free.
 * Both orderings agree on the relative order of the four plans, so either reading gives the same
 * answer for two real plans; they differ only in how "no plan" is treated.
 */

export const TIERS = ["Free", "Basic", "Pro", "Enterprise"] as const;
export type Tier = (typeof TIERS)[number];

export const AUTH_TIERS = ["Visitor", ...TIERS] as const;
export type AuthTier = "Visitor" | Tier;

/** Authentication-context reading: Visitor 0, Free 1, Basic 2, Pro 3, Enterprise 4. */
export const AUTH_TIER_LEVEL: Readonly<Record<AuthTier, number>> = Object.freeze({
  Visitor: 0,
  Free: 1,
  Basic: 2,
  Pro: 3,
  Enterprise: 4,
});

/** Content and route reading: Free 0, Basic 1, Pro 2, Enterprise 3. */
export const CONTENT_TIER_LEVEL: Readonly<Record<Tier, number>> = Object.freeze({
  Free: 0,
  Basic: 1,
  Pro: 2,
  Enterprise: 3,
});

/** Content API reading of the `custom:tier` claim (lower-case names, default free). */
export const API_TIER_LEVEL: Readonly<Record<"free" | "basic" | "pro" | "enterprise", number>> =
  Object.freeze({
    free: 0,
    basic: 1,
    pro: 2,
    enterprise: 3,
  });

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
  const have = isAuthTier(user) ? AUTH_TIER_LEVEL[user] : undefined;
  const need = isAuthTier(required) ? AUTH_TIER_LEVEL[required] : undefined;
  if (have === undefined || need === undefined) return false;
  return have >= need;
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
  const have = isTier(userTier) ? CONTENT_TIER_LEVEL[userTier] : CONTENT_TIER_LEVEL.Free;
  if (required === null || required === undefined) return true;
  if (!isTier(required)) return false;
  return have >= CONTENT_TIER_LEVEL[required];
}

/**
 * Content API reading of the `custom:tier` claim: free 0, basic 1, pro 2, business/enterprise 3.
 * Anything unreadable (missing, unknown spelling, not a string) counts as free (0).
 */
export function apiTierLevel(claimValue: unknown): number {
  const tier = parseTier(claimValue);
  return tier === null ? API_TIER_LEVEL.free : CONTENT_TIER_LEVEL[tier];
}

/**
 * Content API check (spec §6): may a caller whose `custom:tier` claim is `claimValue` read content
 * of tier `contentTier`? A missing content tier is free; an unreadable one fails closed (no access).
 */
export function apiAllowsTier(claimValue: unknown, contentTier: unknown): boolean {
  if (contentTier === null || contentTier === undefined || contentTier === "") return true;
  const required = parseTier(contentTier);
  if (required === null) return false;
  return apiTierLevel(claimValue) >= CONTENT_TIER_LEVEL[required];
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
  return CONTENT_TIER_LEVEL[a] - CONTENT_TIER_LEVEL[b];
}

/** The higher of two tiers (content reading); null/undefined are ignored. */
export function maxTier(a: Tier | null | undefined, b: Tier | null | undefined): Tier | null {
  if (!isTier(a)) return isTier(b) ? b : null;
  if (!isTier(b)) return a;
  return compareTiers(a, b) >= 0 ? a : b;
}
