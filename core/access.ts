/**
 * Route and content access (spec §4 "Route access result", §5 "Content access", "Route access",
 * "Route guard").
 *
 * These are the rules the server enforces and the UI explains. Staff roles do not bypass tier
 * requirements: an admin on the Free plan is refused Basic content like any Free user (the admin
 * screens themselves need no tier). Everything fails closed on unreadable input.
 */
import { hasAdminScope } from "./admin-scope.ts";
import type { AccessContext } from "./claims.ts";
import { hasAnyPermission, hasAnyRole } from "./roles.ts";
import { type RouteDefinition, SIGN_IN_PATH } from "./routes.ts";
import { maxTier, meetsContentTier, parseTier, type Tier, tierLevel } from "./tiers.ts";

export type ForbiddenReason = "role" | "tier" | "auth" | "scope";

/**
 * - allowed: show the route;
 * - signin: the route needs a signed-in user and nobody is signed in. `redirectTo` is the full
 *   sign-in URL to navigate to (it carries the origin as ?redirect=…); `returnTo` is the (sanitised)
 *   origin itself;
 * - forbidden: redirect to /403. Reasons: "role" (a routing role or the account type is missing),
 *   "tier" (the plan is too low), "scope" (an admin screen needs a platform administrator and
 *   the user administers only an organisation). "auth" is not produced by `checkRouteAccess` (it redirects to sign-in
 *   instead); it is for callers that cannot redirect, see `routeAccessForApi`.
 */
export type RouteAccess =
  | { kind: "allowed" }
  | { kind: "signin"; redirectTo: string; returnTo: string }
  | { kind: "forbidden"; reason: ForbiddenReason };

/**
 * Returns `value` when it is a same-site absolute path, else "/". Accepted: a string starting with a
 * single "/" that is not followed by another "/" or "\", and that contains no backslash and no
 * control character (browsers drop tabs and new lines inside URLs, which would turn "/\t/evil" into
 * "//evil"). Query and hash are kept.
 */
export function safeRedirectTarget(value: unknown): string {
  if (typeof value !== "string") return "/";
  if (!value.startsWith("/")) return "/";
  if (value.startsWith("//")) return "/";
  if (value.includes("\\")) return "/";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) return "/";
  return value;
}

/**
 * The sign-in URL remembering where the user was going:
 * `/auth/signin?redirect=<encodeURIComponent(origin)>`. An origin that is not a safe same-site path
 * is replaced by "/" (see `safeRedirectTarget`), so this never builds an open redirect.
 */
export function signInUrl(origin: string): string {
  return `${SIGN_IN_PATH}?redirect=${encodeURIComponent(safeRedirectTarget(origin))}`;
}

/** True when the route needs a signed-in user: `auth`, or any role, tier or account-type rule. */
export function routeRequiresAuth(route: RouteDefinition): boolean {
  return (
    route.auth === true ||
    (route.rolesAllowed?.length ?? 0) > 0 ||
    route.minTier !== undefined ||
    (route.accountTypes?.length ?? 0) > 0
  );
}

/**
 * Route access (spec §5), checked in this order:
 * 1. a public-debug route always passes;
 * 2. a route needing sign-in (see `routeRequiresAuth`) with nobody signed in → signin;
 * 3. `rolesAllowed` (non-empty) needs one of those routing roles → else forbidden "role";
 * 4. `minTier` needs the user's tier at or above it (content reading; missing tier = Free) → else
 *    forbidden "tier";
 * 5. `accountTypes` (non-empty) needs the user's account type among them → else forbidden "role";
 * 6. `adminScope` needs the user to hold that admin scope (`hasAdminScope`) → else forbidden "scope";
 * otherwise allowed.
 */
export function checkRouteAccess(route: RouteDefinition, ctx: AccessContext, origin: string): RouteAccess {
  if (route.allowPublicDebug === true) return { kind: "allowed" };
  if (routeRequiresAuth(route) && !ctx.isAuthenticated) {
    const returnTo = safeRedirectTarget(origin);
    return { kind: "signin", redirectTo: signInUrl(returnTo), returnTo };
  }
  if (route.rolesAllowed && route.rolesAllowed.length > 0 && !hasAnyRole(ctx.roles, route.rolesAllowed)) {
    return { kind: "forbidden", reason: "role" };
  }
  if (route.minTier !== undefined && !meetsContentTier(ctx.tier, route.minTier)) {
    return { kind: "forbidden", reason: "tier" };
  }
  if (route.accountTypes && route.accountTypes.length > 0) {
    if (ctx.accountType === null || !route.accountTypes.includes(ctx.accountType)) {
      return { kind: "forbidden", reason: "role" };
    }
  }
  if (route.adminScope !== undefined && !hasAdminScope(ctx.groups ?? [], route.adminScope)) {
    return { kind: "forbidden", reason: "scope" };
  }
  return { kind: "allowed" };
}

/**
 * What a page answers: `checkRouteAccess`, except that a route with a teaser for lower tiers
 * (`teaserBelowTier`) opens for a signed-in reader below its tier (its loader shows the teaser and
 * no data). The sidebar keeps such a route locked; its APIs stay forbidden.
 */
export function checkPageAccess(route: RouteDefinition, ctx: AccessContext, origin: string): RouteAccess {
  const result = checkRouteAccess(route, ctx, origin);
  if (result.kind === "forbidden" && result.reason === "tier" && route.teaserBelowTier)
    return { kind: "allowed" };
  return result;
}

/** For APIs: like `checkRouteAccess`, but "needs sign-in" becomes forbidden "auth" (HTTP 401). */
export function routeAccessForApi(
  route: RouteDefinition,
  ctx: AccessContext,
): { kind: "allowed" } | { kind: "forbidden"; reason: ForbiddenReason } {
  const r = checkRouteAccess(route, ctx, "/");
  return r.kind === "signin" ? { kind: "forbidden", reason: "auth" } : r;
}

/** HTTP status for an access result: 200 allowed, 401 sign-in needed, 403 otherwise. */
export function accessHttpStatus(result: RouteAccess): 200 | 401 | 403 {
  if (result.kind === "allowed") return 200;
  if (result.kind === "signin") return 401;
  return result.reason === "auth" ? 401 : 403;
}

export interface RouteGuardRequirement {
  minTier?: Tier;
  roles?: string[];
  permissions?: string[];
  public?: boolean;
}

/**
 * The general route guard (spec §5): public requirements pass. Otherwise the user must be signed in,
 * reach `minTier` (if set), hold ANY of `roles` (if non-empty; routing or raw roles) and ANY of
 * `permissions` (if non-empty; "*" matches everything). All stated conditions must hold.
 */
export function routeGuard(req: RouteGuardRequirement, ctx: AccessContext): boolean {
  if (req.public === true) return true;
  if (!ctx.isAuthenticated) return false;
  if (req.minTier !== undefined && !meetsContentTier(ctx.tier, req.minTier)) return false;
  if (req.roles && req.roles.length > 0 && !hasAnyRole(ctx.roles, req.roles)) return false;
  if (req.permissions && req.permissions.length > 0 && !hasAnyPermission(ctx.permissions, req.permissions)) {
    return false;
  }
  return true;
}

export interface ContentAccessFields {
  minTier?: Tier | string | null;
  tier?: Tier | string | null;
  rolesRequired?: readonly string[] | null;
}

export interface ContentAccessUser {
  tier?: Tier | null;
  roles?: readonly string[];
}

function readContentTier(value: unknown): Tier | null | "unreadable" {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" && value.trim() === "") return null;
  return parseTier(value) ?? "unreadable";
}

/**
 * The tier a piece of content requires (shown on the paywall): the higher of `minTier` (page
 * metadata) and `tier` (the content record) when both are set, read case-insensitively
 * ("business" = Enterprise). Neither set → Free. A value that is set but unreadable fails closed:
 * Enterprise.
 */
export function requiredTierForContent(content: ContentAccessFields): Tier {
  const a = readContentTier(content.minTier);
  const b = readContentTier(content.tier);
  if (a === "unreadable" || b === "unreadable") return "Enterprise";
  return maxTier(a, b) ?? "Free";
}

/**
 * Content access (spec §5): the content's required tier at or below the user's tier (a missing user
 * tier counts as Free), and, when `rolesRequired` is non-empty, at least one of those roles.
 * Pass the `AccessContext` as `user`: its roles hold routing and raw roles alike.
 */
export function canAccessContent(content: ContentAccessFields, user: ContentAccessUser): boolean {
  if (!meetsContentTier(user.tier ?? null, requiredTierForContent(content))) return false;
  const required = (content.rolesRequired ?? []).filter((r) => typeof r === "string" && r !== "");
  if (required.length > 0 && !hasAnyRole(user.roles ?? [], required)) return false;
  return true;
}

/**
 * What the dynamic content page shows (spec §2 "Dynamic content page", "Paywall panel"):
 * - content: the user may read it;
 * - paywall: the tier is too low. `requiredTier` names the plan; `signInRequired` is true when nobody
 *   is signed in (the panel then offers 'Sign In');
 * - role-gate: the tier is fine but none of `rolesRequired` is held.
 */
export type ContentGate =
  | { kind: "content" }
  | { kind: "paywall"; requiredTier: Tier; signInRequired: boolean }
  | { kind: "role-gate"; rolesRequired: string[]; signInRequired: boolean };

export function contentGate(content: ContentAccessFields, ctx: AccessContext): ContentGate {
  const requiredTier = requiredTierForContent(content);
  if (!meetsContentTier(ctx.tier, requiredTier)) {
    return { kind: "paywall", requiredTier, signInRequired: !ctx.isAuthenticated };
  }
  if (!canAccessContent(content, ctx)) {
    return {
      kind: "role-gate",
      rolesRequired: [...(content.rolesRequired ?? [])],
      signInRequired: !ctx.isAuthenticated,
    };
  }
  return { kind: "content" };
}

/** Spec §2: "When the required tier level is 0 the content is shown directly." */
export function isFreeTier(tier: Tier): boolean {
  return tierLevel(tier) === 0;
}
