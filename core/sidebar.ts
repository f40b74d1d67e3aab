/**
 * The sidebar's content and behaviour (spec §2 "Layout", "Sidebar"), as data.
 * Every item is built from the route registry (labels, icons) and filtered with `checkRouteAccess`,
 * so the sidebar never offers a link the server would refuse.
 */
import { checkRouteAccess, signInUrl } from "./access.ts";
import { type AccessContext, isBusinessMember } from "./claims.ts";
import { type PlanBadge, planBadge, planLabel } from "./plans.ts";
import { CONTENT_MANAGER_AND_ABOVE, hasAnyRole } from "./roles.ts";
import {
  CONTENT_MANAGEMENT_PATH,
  flattenRoutes,
  getRoute,
  HOME_PATH,
  PRICING_PATH,
  ROUTES,
  type RouteDefinition,
  SIGN_IN_PATH,
  SIGN_UP_PATH,
} from "./routes.ts";
import { meetsContentTier } from "./tiers.ts";

export const SEARCH_PLACEHOLDER = "Search AI workforce content...";
export const MAX_LOCKED_ROUTES = 3;
export const SIDEBAR_WIDTH_EXPANDED = 320;
export const SIDEBAR_WIDTH_COLLAPSED = 64;
export const SIDEBAR_BREAKPOINT = 1024;

export type LockedTooltip = "Upgrade required" | "Sign in required";

/**
 * Where a sidebar search goes (spec §2). The term is trimmed; empty → null (ignored).
 * Content managers and above (ContentManager, AdminUser, SuperUser routing roles) go to
 * `/content?search=<term>`; everyone else to `/?search=<term>`. Unauthenticated users are sent to
 * sign-in for any destination other than home, so a visitor searching lands on home (public), and a
 * context that claims a manager role without being signed in gets the sign-in URL for /content.
 * `currentPath` is accepted for callers' convenience; the destination does not depend on it.
 */
export function searchDestination(term: string, ctx: AccessContext, _currentPath?: string): string | null {
  const trimmed = typeof term === "string" ? term.trim() : "";
  if (trimmed === "") return null;
  const q = encodeURIComponent(trimmed);
  const manager = hasAnyRole(ctx.roles, CONTENT_MANAGER_AND_ABOVE);
  const path = manager ? CONTENT_MANAGEMENT_PATH : HOME_PATH;
  const destination = `${path}?search=${q}`;
  if (!ctx.isAuthenticated && path !== HOME_PATH) return signInUrl(destination);
  return destination;
}

/** 'Upgrade required' for a signed-in user, else 'Sign in required'. */
export function lockedTooltip(ctx: Pick<AccessContext, "isAuthenticated">): LockedTooltip {
  return ctx.isAuthenticated ? "Upgrade required" : "Sign in required";
}

/**
 * Where a locked item leads: for a signed-in user the route itself when it has a teaser for lower
 * tiers (`teaserBelowTier`), else /pricing; for a visitor sign-in remembering the route.
 */
export function lockedItemTarget(
  ctx: Pick<AccessContext, "isAuthenticated">,
  route: RouteDefinition,
): string {
  if (!ctx.isAuthenticated) return signInUrl(route.path);
  return route.teaserBelowTier ? route.path : PRICING_PATH;
}

export interface LockedRoute {
  route: RouteDefinition;
  badge: PlanBadge | null;
  tooltip: LockedTooltip;
}

/**
 * The 'Upgrade to unlock' list: for signed-in users only (visitors → []), the sidebar routes
 * (`showInSidebar`, not dynamic) that `checkRouteAccess` refuses only because of the plan tier, i.e.
 * that the same user would open on the route's `minTier`. Routes refused for a role or account type
 * are never listed. At most `MAX_LOCKED_ROUTES`, in registry order.
 * The badge names the plan the route needs, for this user's account type.
 */
export function lockedRoutes(ctx: AccessContext, routes: readonly RouteDefinition[] = ROUTES): LockedRoute[] {
  if (!ctx.isAuthenticated) return [];
  const out: LockedRoute[] = [];
  for (const route of flattenRoutes(routes)) {
    if (out.length >= MAX_LOCKED_ROUTES) break;
    if (route.showInSidebar !== true || route.isDynamic === true || route.minTier === undefined) continue;
    // Locked = refused now, and refused only for the plan: the same user on the route's plan gets in.
    if (meetsContentTier(ctx.tier, route.minTier)) continue;
    const upgraded = checkRouteAccess(route, { ...ctx, tier: route.minTier }, route.path);
    if (upgraded.kind === "allowed") {
      out.push({ route, badge: planBadge(route.minTier, ctx.accountType), tooltip: lockedTooltip(ctx) });
    }
  }
  return out;
}

export type SidebarSectionId =
  | "public"
  | "upgrade"
  | "account"
  | "business"
  | "management"
  | "system"
  | "auth";
export type SidebarAction = "signin" | "signup" | "signout";

export interface SidebarItem {
  /** Unique within the sidebar (paths can repeat, e.g. the plan label and Subscription). */
  id: string;
  path: string;
  label: string;
  icon?: string;
  locked?: boolean;
  badge?: PlanBadge | null;
  tooltip?: string;
  action?: SidebarAction;
}

export interface SidebarSection {
  id: SidebarSectionId;
  title: string | null;
  items: SidebarItem[];
}

export const PUBLIC_SIDEBAR_PATHS = Object.freeze([
  "/",
  "/ai-education",
  "/workforce-tools",
  "/resources",
  "/ai-news",
  "/documentation",
  "/pricing",
]);
const ACCOUNT_PATHS = ["/dashboard", "/dashboard/reports", "/profile", "/subscription", "/settings"];
const BUSINESS_PATHS = ["/business/dashboard", "/business/profile"];
const MANAGEMENT_PATHS = ["/content", "/create", "/review", "/moderate"];

function itemFor(route: RouteDefinition): SidebarItem {
  const item: SidebarItem = { id: route.path, path: route.path, label: route.label };
  if (route.icon) item.icon = route.icon;
  return item;
}

/** Items for the routes this user may open, in the order given. */
function allowedItems(routes: readonly RouteDefinition[], ctx: AccessContext): SidebarItem[] {
  // Dynamic children (e.g. /admin/users/:userId) are reached from their list, never the sidebar.
  return routes
    .filter((r) => r.isDynamic !== true && checkRouteAccess(r, ctx, r.path).kind === "allowed")
    .map(itemFor);
}

/**
 * The sidebar sections for a user, in display order; empty sections are left out.
 * - public (no title): Home, AI Education, Workforce Tools, Resources, AI News, Documentation, Pricing;
 * - upgrade 'Upgrade to unlock' (signed-in only): `lockedRoutes`, marked locked with badge and tooltip;
 * - account 'Account' (signed-in only): Dashboard, Reports (only when the plan allows it; otherwise it
 *   appears under 'Upgrade to unlock'), Profile, the plan label (e.g. 'Pro plan', linking to
 *   /subscription, only when the plan is not Free), Subscription, Settings;
 * - business 'Business Hub': signed-in business accounts in the "Business" group only;
 * - management 'Management': content managers, admins and super users: Content, Create, Moderate;
 *   admins and super users also get the /admin children;
 * - system 'System Administration': super users: the /super-admin children;
 * - auth (no title): Sign In and Sign Up for visitors, Sign Out for signed-in users (Sign Out is an
 *   action; its path "/" is where the user lands afterwards).
 */
export function sidebarSections(
  ctx: AccessContext,
  routes: readonly RouteDefinition[] = ROUTES,
  /** Paths a feature flag switched off (core/system-settings.ts `pathsSwitchedOff`): left out. */
  switchedOff: readonly string[] = [],
): SidebarSection[] {
  const get = (p: string) => getRoute(p, routes);
  const sections: SidebarSection[] = [];
  const push = (id: SidebarSectionId, title: string | null, items: SidebarItem[]) => {
    const shown = items.filter((i) => i.action !== undefined || !switchedOff.includes(i.path));
    if (shown.length > 0) sections.push({ id, title, items: shown });
  };

  push("public", null, allowedItems(PUBLIC_SIDEBAR_PATHS.map(get), ctx));

  if (ctx.isAuthenticated) {
    const tooltip = lockedTooltip(ctx);
    push(
      "upgrade",
      "Upgrade to unlock",
      lockedRoutes(ctx, routes).map(({ route, badge }) => ({
        ...itemFor(route),
        locked: true,
        badge,
        tooltip,
      })),
    );

    const account = allowedItems(ACCOUNT_PATHS.map(get), ctx);
    const label = planLabel(ctx.tier);
    if (label !== null) {
      const plan: SidebarItem = {
        id: "plan",
        path: "/subscription",
        label,
        icon: "BadgeCheck",
        badge: planBadge(ctx.tier, ctx.accountType),
      };
      const at = account.findIndex((i) => i.path === "/subscription");
      account.splice(at === -1 ? account.length : at, 0, plan);
    }
    push("account", "Account", account);

    if (isBusinessMember(ctx)) push("business", "Business Hub", allowedItems(BUSINESS_PATHS.map(get), ctx));
  }

  const management = allowedItems(MANAGEMENT_PATHS.map(get), ctx);
  const admin = get("/admin");
  if (checkRouteAccess(admin, ctx, admin.path).kind === "allowed") {
    management.push(...allowedItems(admin.children ?? [], ctx));
  }
  push("management", "Management", management);

  const superAdmin = get("/super-admin");
  if (checkRouteAccess(superAdmin, ctx, superAdmin.path).kind === "allowed") {
    push("system", "System Administration", allowedItems(superAdmin.children ?? [], ctx));
  }

  push(
    "auth",
    null,
    ctx.isAuthenticated
      ? [{ id: "signout", path: HOME_PATH, label: "Sign Out", icon: "LogOut", action: "signout" }]
      : [
          { id: "signin", path: SIGN_IN_PATH, label: "Sign In", icon: "LogIn", action: "signin" },
          { id: "signup", path: SIGN_UP_PATH, label: "Sign Up", icon: "UserPlus", action: "signup" },
        ],
  );
  return sections;
}
