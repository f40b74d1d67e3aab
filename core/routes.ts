/**
 * The route registry (spec §2) and path matching.
 *
 * Access fields: `auth`, `minTier`, `rolesAllowed` (routing roles), `accountTypes`, `adminScope`
 * and `allowPublicDebug`; `checkRouteAccess` in access.ts reads them. Matching (`matchRoute`) follows the
 * React Router rules the app uses, so the server and the router agree on which route a URL is:
 * static segments are compared case-insensitively after percent-decoding, ":param" takes one
 * non-empty segment, "*" takes the rest (at least one segment), and static beats dynamic beats
 * catch-all.
 */
import type { AdminScope } from "./admin-scope.ts";
import type { AccountType } from "./claims.ts";
import type { Role, RoutingRole } from "./roles.ts";
import type { Tier } from "./tiers.ts";

/** A role a route may name: a routing role or a raw role (decision 018). */
export type RouteRole = RoutingRole | Role;

export type RouteCategory =
  | "public"
  | "account"
  | "content-management"
  | "admin"
  | "super-admin"
  | "business"
  | "system"
  | "error";

export interface RouteDefinition {
  path: string;
  label: string;
  description: string;
  /** Needs a signed-in user. A route with rolesAllowed, minTier or accountTypes needs one too. */
  auth: boolean;
  minTier?: Tier;
  /**
   * Any one of these roles opens the route: routing roles, or raw roles (an AccessContext's
   * `roles` holds both), such as the content writers' ContentCreator and Editor.
   */
  rolesAllowed?: RouteRole[];
  /** Only these account types may open the route (the business hub). */
  accountTypes?: AccountType[];
  /**
   * Admin screens: the admin scope they need (core/admin-scope.ts). "platform" refuses
   * organisation admins; "organisation" screens show an organisation admin its own figures only.
   */
  adminScope?: AdminScope;
  category: RouteCategory;
  isDynamic?: boolean;
  paramNames?: string[];
  /** Children carry absolute paths, e.g. "/admin/users". */
  children?: RouteDefinition[];
  /** Public diagnostics: always passes, whoever asks. */
  allowPublicDebug?: boolean;
  /** Listed in the sidebar (and so eligible for the 'Upgrade to unlock' list). */
  showInSidebar?: boolean;
  /** A lucide-react icon name. */
  icon?: string;
  /**
   * A signed-in user below `minTier` still opens the page, in teaser mode (its loader returns no
   * data, only what the feature would show and an upgrade call to action); its APIs stay forbidden.
   */
  teaserBelowTier?: boolean;
}

export const HOME_PATH = "/";
export const PRICING_PATH = "/pricing";
export const SIGN_IN_PATH = "/auth/signin";
export const SIGN_UP_PATH = "/auth/signup";
export const CONFIRM_PATH = "/auth/confirm";
export const FORBIDDEN_PATH = "/403";
export const NOT_FOUND_PATH = "/404";
export const CONTENT_MANAGEMENT_PATH = "/content";

const MANAGERS: RoutingRole[] = ["ContentManager", "AdminUser", "SuperUser"];
/** Everyone who writes content (core `canWriteContent`): the studio's screens (decision 018). */
const WRITERS: RouteRole[] = ["ContentCreator", "Editor", ...MANAGERS];
const ADMINS: RoutingRole[] = ["AdminUser", "SuperUser"];
const SUPER: RoutingRole[] = ["SuperUser"];

function adminChild(
  slug: string,
  label: string,
  description: string,
  icon: string,
  adminScope: AdminScope,
): RouteDefinition {
  return {
    path: `/admin/${slug}`,
    label,
    description,
    auth: true,
    rolesAllowed: [...ADMINS],
    adminScope,
    category: "admin",
    showInSidebar: true,
    icon,
  };
}

function superChild(slug: string, label: string, description: string, icon: string): RouteDefinition {
  return {
    path: `/super-admin/${slug}`,
    label,
    description,
    auth: true,
    rolesAllowed: [...SUPER],
    adminScope: "platform",
    category: "super-admin",
    showInSidebar: true,
    icon,
  };
}

const REGISTRY: RouteDefinition[] = [
  // Public
  {
    path: "/",
    label: "Home",
    description: "Featured AI education, tools and resources.",
    auth: false,
    category: "public",
    showInSidebar: true,
    icon: "House",
  },
  {
    path: "/unsubscribe",
    label: "Unsubscribe",
    description: "Turn off a kind of notification e-mail from a signed link, without signing in.",
    auth: false,
    category: "public",
    icon: "MailX",
  },
  {
    path: "/pricing",
    label: "Pricing",
    description: "Compare the Free, Basic, Pro and Enterprise plans.",
    auth: false,
    category: "public",
    showInSidebar: true,
    icon: "CreditCard",
  },
  {
    path: "/auth/signin",
    label: "Sign In",
    description: "Sign in to your account.",
    auth: false,
    category: "public",
    icon: "LogIn",
  },
  {
    path: "/auth/signup",
    label: "Sign Up",
    description: "Create a free account.",
    auth: false,
    category: "public",
    icon: "UserPlus",
  },
  {
    path: "/auth/confirm",
    label: "Confirm Email",
    description: "Enter the code we e-mailed you to confirm your account.",
    auth: false,
    category: "public",
    icon: "MailCheck",
  },
  {
    path: "/ai-education",
    label: "AI Education",
    description: "Articles, courses and videos on working with AI.",
    auth: false,
    category: "public",
    showInSidebar: true,
    icon: "GraduationCap",
  },
  {
    path: "/workforce-tools",
    label: "Workforce Tools",
    description: "Practical AI tools and templates for everyday work.",
    auth: false,
    category: "public",
    showInSidebar: true,
    icon: "Wrench",
  },
  {
    path: "/resources",
    label: "Resources",
    description: "Curated source repositories with a built-in code browser.",
    auth: false,
    category: "public",
    showInSidebar: true,
    icon: "FolderGit2",
  },
  {
    path: "/resources/:slug",
    label: "Repository",
    description: "Browse a repository's files, branches and README.",
    auth: false,
    category: "public",
    isDynamic: true,
    paramNames: ["slug"],
    icon: "FolderGit2",
  },
  {
    path: "/ai-news",
    label: "AI News",
    description: "The latest developments in AI, explained.",
    auth: false,
    category: "public",
    showInSidebar: true,
    icon: "Newspaper",
  },
  {
    path: "/documentation",
    label: "Documentation",
    description: "Guides and reference for using the hub.",
    auth: false,
    category: "public",
    showInSidebar: true,
    icon: "BookOpen",
  },
  {
    path: "/section/:section",
    label: "Section",
    description: "All content in one section.",
    auth: false,
    category: "public",
    isDynamic: true,
    paramNames: ["section"],
    icon: "Layers",
  },
  {
    path: "/category/:category",
    label: "Category",
    description: "All content in one category.",
    auth: false,
    category: "public",
    isDynamic: true,
    paramNames: ["category"],
    icon: "Tag",
  },
  {
    path: "/content/:slug",
    label: "Content",
    description: "An article, course, video or page.",
    auth: false,
    category: "public",
    isDynamic: true,
    paramNames: ["slug"],
    icon: "FileText",
  },
  {
    path: "/certificates/:id",
    label: "Certificate",
    description: "A course certificate and its verification.",
    auth: false,
    category: "public",
    isDynamic: true,
    paramNames: ["id"],
    icon: "BadgeCheck",
  },
  {
    path: "/collection/:collection",
    label: "Collection",
    description: "A curated collection of content.",
    auth: false,
    category: "public",
    isDynamic: true,
    paramNames: ["collection"],
    icon: "Library",
  },
  {
    path: "/content/*",
    label: "Content",
    description: "A content page at a nested path.",
    auth: false,
    category: "public",
    isDynamic: true,
    paramNames: ["*"],
    icon: "FileText",
  },
  {
    path: "/section/*",
    label: "Section",
    description: "A content page at a nested section path.",
    auth: false,
    category: "public",
    isDynamic: true,
    paramNames: ["*"],
    icon: "Layers",
  },
  {
    path: "/category/*",
    label: "Category",
    description: "A content page at a nested category path.",
    auth: false,
    category: "public",
    isDynamic: true,
    paramNames: ["*"],
    icon: "Tag",
  },
  // Public diagnostics (no secrets)
  {
    path: "/admin-debug",
    label: "Diagnostics",
    description: "Configuration shape and service health, without secrets.",
    auth: false,
    category: "system",
    allowPublicDebug: true,
    icon: "Bug",
  },
  {
    path: "/health-check",
    label: "Health Check",
    description: "Whether the database and storage are reachable.",
    auth: false,
    category: "system",
    allowPublicDebug: true,
    icon: "HeartPulse",
  },
  // Signed-in
  {
    path: "/subscription",
    label: "Subscription",
    description: "Your plan, billing and renewal.",
    auth: true,
    category: "account",
    showInSidebar: true,
    icon: "Wallet",
  },
  {
    path: "/checkout",
    label: "Checkout",
    description: "Review a plan and continue to payment.",
    auth: true,
    category: "account",
    icon: "CreditCard",
  },
  {
    path: "/checkout/:id",
    label: "Checkout",
    description: "Confirm a plan you chose, or see how its payment went.",
    auth: true,
    category: "account",
    isDynamic: true,
    paramNames: ["id"],
    icon: "CreditCard",
  },
  {
    path: "/dashboard",
    label: "Dashboard",
    description: "Your activity and saved content at a glance.",
    auth: true,
    category: "account",
    showInSidebar: true,
    icon: "LayoutDashboard",
  },
  {
    path: "/dashboard/reports",
    label: "Reports",
    description: "Reports on your learning and usage.",
    auth: true,
    minTier: "Basic",
    teaserBelowTier: true,
    category: "account",
    showInSidebar: true,
    icon: "ChartColumn",
  },
  {
    path: "/profile",
    label: "Profile",
    description: "Your name, e-mail and phone number.",
    auth: true,
    category: "account",
    showInSidebar: true,
    icon: "User",
  },
  {
    path: "/settings",
    label: "Settings",
    description: "Security, two-factor authentication and preferences.",
    auth: true,
    category: "account",
    showInSidebar: true,
    icon: "Settings",
  },
  {
    path: "/individual/dashboard",
    label: "My Dashboard",
    description: "Your personal plan and progress.",
    auth: true,
    category: "account",
    icon: "UserRound",
  },
  {
    path: "/business/start",
    label: "Start an Organisation",
    description: "Create your organisation to buy seats for your team.",
    auth: true,
    category: "account",
    icon: "Building2",
  },
  // Business accounts
  {
    path: "/business/dashboard",
    label: "Business Dashboard",
    description: "Your organisation's seats, usage and plan.",
    auth: true,
    accountTypes: ["business"],
    category: "business",
    showInSidebar: true,
    icon: "BriefcaseBusiness",
  },
  {
    path: "/business/profile",
    label: "Business Profile",
    description: "Your organisation's name, domain and details.",
    auth: true,
    accountTypes: ["business"],
    category: "business",
    showInSidebar: true,
    icon: "Building",
  },
  // Content management
  {
    path: "/content",
    label: "Content",
    description: "Find, edit and publish content.",
    auth: true,
    rolesAllowed: [...WRITERS],
    category: "content-management",
    showInSidebar: true,
    icon: "Files",
  },
  {
    path: "/create",
    label: "Create",
    description: "Write a new article, course, video or page.",
    auth: true,
    rolesAllowed: [...WRITERS],
    category: "content-management",
    showInSidebar: true,
    icon: "FilePlus",
  },
  {
    path: "/content/:id/edit",
    label: "Edit",
    description: "Edit an item: its text, metadata and workflow.",
    auth: true,
    rolesAllowed: [...WRITERS],
    category: "content-management",
    isDynamic: true,
    paramNames: ["id"],
    icon: "FilePen",
  },
  {
    path: "/review",
    label: "Review",
    description: "Published items due for review: check them and mark them reviewed.",
    auth: true,
    rolesAllowed: [...WRITERS],
    category: "content-management",
    showInSidebar: true,
    icon: "CalendarClock",
  },
  {
    path: "/moderate",
    label: "Moderate",
    description: "Review comments and content waiting for approval.",
    auth: true,
    rolesAllowed: [...MANAGERS],
    // Organisation admins hold AdminUser for their organisation only: moderation is platform-wide.
    adminScope: "moderation",
    category: "content-management",
    showInSidebar: true,
    icon: "ShieldCheck",
  },
  // Admin
  {
    path: "/admin",
    label: "Admin",
    description: "Run the hub: users, content, subscriptions and logs.",
    auth: true,
    rolesAllowed: [...ADMINS],
    adminScope: "organisation",
    category: "admin",
    icon: "Shield",
    // Organisation admins hold Admin (spec §6) but see only their organisation's screens.
    children: [
      adminChild("overview", "Overview", "Key numbers for the whole hub.", "Gauge", "platform"),
      adminChild(
        "users",
        "Users",
        "Find users, change groups and suspend accounts.",
        "Users",
        "organisation",
      ),
      {
        path: "/admin/users/:userId",
        label: "User",
        description: "One user's account: groups, plan, sessions, lockout, MFA, API keys and events.",
        auth: true,
        rolesAllowed: [...ADMINS],
        adminScope: "organisation",
        category: "admin",
        isDynamic: true,
        paramNames: ["userId"],
        icon: "User",
      },
      adminChild("content", "Content Library", "Categories, items and their tiers.", "Library", "platform"),
      adminChild(
        "subscriptions",
        "Subscriptions",
        "Plans held by users and organisations.",
        "CreditCard",
        "platform",
      ),
      adminChild(
        "analytics",
        "Analytics",
        "Views, readers, sign-ups, upgrades and searches over time.",
        "ChartLine",
        "platform",
      ),
      adminChild("logs", "Audit Logs", "Security and admin events.", "ScrollText", "platform"),
      adminChild(
        "webhooks",
        "Webhooks",
        "Endpoints that receive signed events, and their deliveries.",
        "Webhook",
        "platform",
      ),
    ],
  },
  // Super admin
  {
    path: "/super-admin",
    label: "System Administration",
    description: "Configuration, security and infrastructure of the installation.",
    auth: true,
    rolesAllowed: [...SUPER],
    adminScope: "platform",
    category: "super-admin",
    icon: "ShieldUser",
    children: [
      superChild(
        "system-config",
        "System Config",
        "Feature flags and installation settings.",
        "SlidersHorizontal",
      ),
      superChild("security", "Security", "Sessions, lockouts and security events.", "LockKeyhole"),
      superChild(
        "infrastructure",
        "Infrastructure",
        "App processes, database and storage latency, background jobs.",
        "Server",
      ),
      superChild("database", "Database", "Migrations, tables, integrity check and backup.", "Database"),
    ],
  },
  // Errors
  {
    path: "/403",
    label: "Access Denied",
    description: "You don't have access to this page.",
    auth: false,
    category: "error",
    icon: "Ban",
  },
  {
    path: "/404",
    label: "Page Not Found",
    description: "We couldn't find that page.",
    auth: false,
    category: "error",
    icon: "SearchX",
  },
];

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Every route of spec §2, deeply frozen. */
export const ROUTES: readonly RouteDefinition[] = deepFreeze(REGISTRY);

/** Depth-first, parents before their children, in registry order. */
export function flattenRoutes(routes: readonly RouteDefinition[] = ROUTES): RouteDefinition[] {
  const out: RouteDefinition[] = [];
  const walk = (list: readonly RouteDefinition[]) => {
    for (const r of list) {
      out.push(r);
      if (r.children) walk(r.children);
    }
  };
  walk(routes);
  return out;
}

/** The registry entry whose path pattern is exactly `path` (e.g. "/content/:slug"), else undefined. */
export function findRoute(
  path: string,
  routes: readonly RouteDefinition[] = ROUTES,
): RouteDefinition | undefined {
  return flattenRoutes(routes).find((r) => r.path === path);
}

/** Same as findRoute but throws for an unknown pattern (for code that names registry paths). */
export function getRoute(path: string, routes: readonly RouteDefinition[] = ROUTES): RouteDefinition {
  const r = findRoute(path, routes);
  if (!r) throw new Error(`Unknown route: ${path}`);
  return r;
}

type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "splat" };

interface Compiled {
  route: RouteDefinition;
  segments: Segment[];
  /** 0 static, 1 dynamic, 2 catch-all */
  rank: number;
  order: number;
}

function compile(route: RouteDefinition, order: number): Compiled {
  const segments: Segment[] = route.path
    .split("/")
    .filter((s) => s !== "")
    .map((s): Segment => {
      if (s === "*") return { kind: "splat" };
      if (s.startsWith(":")) return { kind: "param", name: s.slice(1) };
      return { kind: "static", value: s.toLowerCase() };
    });
  const rank = segments.some((s) => s.kind === "splat")
    ? 2
    : segments.some((s) => s.kind === "param")
      ? 1
      : 0;
  return { route, segments, rank, order };
}

const compiledCache = new WeakMap<readonly RouteDefinition[], Compiled[]>();

function compiledFor(routes: readonly RouteDefinition[]): Compiled[] {
  let c = compiledCache.get(routes);
  if (!c) {
    c = flattenRoutes(routes)
      .map((r, i) => compile(r, i))
      .sort((a, b) => a.rank - b.rank || b.segments.length - a.segments.length || a.order - b.order);
    compiledCache.set(routes, c);
  }
  return c;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Splits a pathname into raw segments; drops query, hash and trailing slashes. null if not absolute. */
function splitPath(pathname: string): string[] | null {
  if (typeof pathname !== "string") return null;
  const path = pathname.replace(/[?#].*$/s, "");
  if (!path.startsWith("/")) return null;
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed === "") return [];
  return trimmed.slice(1).split("/");
}

function matchCompiled(c: Compiled, raw: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < c.segments.length; i++) {
    const seg = c.segments[i]!;
    if (seg.kind === "splat") {
      const rest = raw.slice(i);
      if (rest.length === 0 || rest.some((s) => s === "")) return null;
      params["*"] = rest.map(decode).join("/");
      return params;
    }
    const part = raw[i];
    if (part === undefined || part === "") return null;
    if (seg.kind === "static") {
      if (decode(part).toLowerCase() !== seg.value) return null;
    } else {
      params[seg.name] = decode(part);
    }
  }
  return raw.length === c.segments.length ? params : null;
}

/**
 * The route a pathname shows, with its parameters, or null for an unknown path (the not-found page).
 * A query string or hash on the input is ignored; trailing slashes are tolerated; empty segments
 * ("//") match nothing. "/content" is content management; "/content/x" is a content page;
 * "/content/a/b" is the content catch-all with params["*"] = "a/b".
 */
export function matchRoute(
  pathname: string,
  routes: readonly RouteDefinition[] = ROUTES,
): { route: RouteDefinition; params: Record<string, string> } | null {
  const raw = splitPath(pathname);
  if (raw === null) return null;
  for (const c of compiledFor(routes)) {
    const params = matchCompiled(c, raw);
    if (params) return { route: c.route, params };
  }
  return null;
}

/**
 * Builds a concrete path from a pattern: buildPath("/content/:slug", { slug: "a b" }) → "/content/a%20b".
 * A "*" parameter keeps its slashes and encodes each segment. Throws when a parameter is missing.
 */
export function buildPath(pattern: string, params: Record<string, string> = {}): string {
  const parts = pattern.split("/").map((s) => {
    if (s === "*") {
      const v = params["*"];
      if (v === undefined || v === "") throw new Error(`Missing parameter "*" for ${pattern}`);
      return v.split("/").map(encodeURIComponent).join("/");
    }
    if (s.startsWith(":")) {
      const v = params[s.slice(1)];
      if (v === undefined || v === "") throw new Error(`Missing parameter "${s.slice(1)}" for ${pattern}`);
      return encodeURIComponent(v);
    }
    return s;
  });
  return parts.join("/") || "/";
}
