import { describe, expect, it } from "vitest";
import {
  accessHttpStatus,
  canAccessContent,
  checkRouteAccess,
  contentGate,
  isFreeTier,
  type RouteAccess,
  requiredTierForContent,
  routeAccessForApi,
  routeGuard,
  routeRequiresAuth,
  safeRedirectTarget,
  signInUrl,
} from "./access.ts";
import type { AccessContext } from "./claims.ts";
import { flattenRoutes, getRoute, type RouteDefinition } from "./routes.ts";
import { PERSONA_NAMES, PERSONAS, type PersonaName } from "./test-personas.ts";
import { TIERS, type Tier } from "./tiers.ts";

/**
 * Expected route access per persona, written by hand from the spec's route role table (§6) and
 * route rules (§5) — not computed with the code under test.
 * Columns: visitor, free, basic, pro, enterprise, business (org admin → AdminUser, Enterprise),
 * manager (ContentManager, Free), admin (app-admin, Free), owner (app-owner, Free),
 * writer (ContentCreator, Free: the studio's screens, decision 018).
 * A = allowed, S = sign in, R = forbidden (role / account type), T = forbidden (tier),
 * P = forbidden (admin scope: the screen needs a platform administrator, or for /moderate a
 *   content manager or platform administrator; decision 009).
 */
const EXPECTED: Record<string, string> = {
  "/": "A A A A A A A A A A",
  "/pricing": "A A A A A A A A A A",
  "/unsubscribe": "A A A A A A A A A A",
  "/auth/signin": "A A A A A A A A A A",
  "/auth/signup": "A A A A A A A A A A",
  "/auth/confirm": "A A A A A A A A A A",
  "/ai-education": "A A A A A A A A A A",
  "/workforce-tools": "A A A A A A A A A A",
  "/resources": "A A A A A A A A A A",
  "/resources/:slug": "A A A A A A A A A A",
  "/ai-news": "A A A A A A A A A A",
  "/documentation": "A A A A A A A A A A",
  "/section/:section": "A A A A A A A A A A",
  "/category/:category": "A A A A A A A A A A",
  "/content/:slug": "A A A A A A A A A A",
  "/collection/:collection": "A A A A A A A A A A",
  "/certificates/:id": "A A A A A A A A A A",
  "/content/*": "A A A A A A A A A A",
  "/section/*": "A A A A A A A A A A",
  "/category/*": "A A A A A A A A A A",
  "/admin-debug": "A A A A A A A A A A",
  "/health-check": "A A A A A A A A A A",
  "/subscription": "S A A A A A A A A A",
  "/checkout": "S A A A A A A A A A",
  "/checkout/:id": "S A A A A A A A A A",
  "/dashboard": "S A A A A A A A A A",
  "/dashboard/reports": "S T A A A A T T T T",
  "/profile": "S A A A A A A A A A",
  "/settings": "S A A A A A A A A A",
  "/individual/dashboard": "S A A A A A A A A A",
  "/business/dashboard": "S R R R R A R R R R",
  "/business/profile": "S R R R R A R R R R",
  "/business/start": "S A A A A A A A A A",
  "/content": "S R R R R A A A A A",
  "/create": "S R R R R A A A A A",
  "/content/:id/edit": "S R R R R A A A A A",
  "/review": "S R R R R A A A A A",
  "/moderate": "S R R R R P A A A R",
  "/admin": "S R R R R A R A A R",
  "/admin/overview": "S R R R R P R A A R",
  "/admin/users": "S R R R R A R A A R",
  "/admin/users/:userId": "S R R R R A R A A R",
  "/admin/content": "S R R R R P R A A R",
  "/admin/subscriptions": "S R R R R P R A A R",
  "/admin/analytics": "S R R R R P R A A R",
  "/admin/logs": "S R R R R P R A A R",
  "/admin/webhooks": "S R R R R P R A A R",
  "/super-admin": "S R R R R R R R A R",
  "/super-admin/system-config": "S R R R R R R R A R",
  "/super-admin/security": "S R R R R R R R A R",
  "/super-admin/infrastructure": "S R R R R R R R A R",
  "/super-admin/database": "S R R R R R R R A R",
  "/403": "A A A A A A A A A A",
  "/404": "A A A A A A A A A A",
};

function code(r: RouteAccess): string {
  if (r.kind === "allowed") return "A";
  if (r.kind === "signin") return "S";
  return r.reason === "role" ? "R" : r.reason === "tier" ? "T" : r.reason === "scope" ? "P" : "X";
}

describe("checkRouteAccess: every route × every persona", () => {
  it("the table covers the whole registry", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(
      flattenRoutes()
        .map((r) => r.path)
        .sort(),
    );
  });

  for (const route of flattenRoutes()) {
    const row = EXPECTED[route.path]?.split(" ") ?? [];
    PERSONA_NAMES.forEach((persona, i) => {
      it(`${route.path} for ${persona} → ${row[i]}`, () => {
        expect(code(checkRouteAccess(route, PERSONAS[persona], "/somewhere"))).toBe(row[i]);
      });
    });
  }
});

describe("checkRouteAccess details", () => {
  const visitor = PERSONAS.visitor;

  it("the sign-in result carries the sign-in URL and the origin", () => {
    expect(checkRouteAccess(getRoute("/dashboard"), visitor, "/dashboard?tab=2")).toEqual({
      kind: "signin",
      redirectTo: "/auth/signin?redirect=%2Fdashboard%3Ftab%3D2",
      returnTo: "/dashboard?tab=2",
    });
  });

  it("an unsafe origin is replaced by /", () => {
    expect(checkRouteAccess(getRoute("/admin"), visitor, "https://evil.example/")).toEqual({
      kind: "signin",
      redirectTo: "/auth/signin?redirect=%2F",
      returnTo: "/",
    });
  });

  const route = (extra: Partial<RouteDefinition>): RouteDefinition => ({
    path: "/x",
    label: "X",
    description: "X.",
    auth: false,
    category: "public",
    ...extra,
  });

  it("rolesAllowed, minTier or accountTypes imply sign-in even when auth is false", () => {
    for (const r of [
      route({ rolesAllowed: ["AdminUser"] }),
      route({ minTier: "Free" }),
      route({ accountTypes: ["business"] }),
    ]) {
      expect(routeRequiresAuth(r)).toBe(true);
      expect(checkRouteAccess(r, visitor, "/x").kind).toBe("signin");
    }
    expect(routeRequiresAuth(route({ rolesAllowed: [] }))).toBe(false);
    expect(checkRouteAccess(route({ rolesAllowed: [] }), visitor, "/x").kind).toBe("allowed");
  });

  it("public-debug wins over every other field", () => {
    const r = route({
      allowPublicDebug: true,
      auth: true,
      rolesAllowed: ["SuperUser"],
      minTier: "Enterprise",
    });
    expect(checkRouteAccess(r, visitor, "/x")).toEqual({ kind: "allowed" });
  });

  it("checks the role before the tier", () => {
    const r = route({ auth: true, rolesAllowed: ["SuperUser"], minTier: "Enterprise" });
    expect(checkRouteAccess(r, PERSONAS.free, "/x")).toEqual({ kind: "forbidden", reason: "role" });
    expect(checkRouteAccess(r, PERSONAS.owner, "/x")).toEqual({ kind: "forbidden", reason: "tier" });
    expect(checkRouteAccess(r, { ...PERSONAS.owner, tier: "Enterprise" }, "/x")).toEqual({ kind: "allowed" });
  });

  it("raw roles do not satisfy routing-role rules", () => {
    const ctx: AccessContext = { ...PERSONAS.free, roles: ["User", "Admin", "SuperAdmin"] };
    expect(checkRouteAccess(getRoute("/admin"), ctx, "/admin")).toEqual({
      kind: "forbidden",
      reason: "role",
    });
  });

  it("routeAccessForApi turns sign-in into forbidden auth; accessHttpStatus maps results", () => {
    expect(routeAccessForApi(getRoute("/dashboard"), visitor)).toEqual({ kind: "forbidden", reason: "auth" });
    expect(routeAccessForApi(getRoute("/admin"), PERSONAS.free)).toEqual({
      kind: "forbidden",
      reason: "role",
    });
    expect(routeAccessForApi(getRoute("/"), visitor)).toEqual({ kind: "allowed" });
    expect(accessHttpStatus({ kind: "allowed" })).toBe(200);
    expect(accessHttpStatus({ kind: "signin", redirectTo: "/auth/signin", returnTo: "/" })).toBe(401);
    expect(accessHttpStatus({ kind: "forbidden", reason: "auth" })).toBe(401);
    expect(accessHttpStatus({ kind: "forbidden", reason: "role" })).toBe(403);
    expect(accessHttpStatus({ kind: "forbidden", reason: "tier" })).toBe(403);
  });
});

describe("safeRedirectTarget and signInUrl", () => {
  it.each([
    ["/", "/"],
    ["/dashboard", "/dashboard"],
    ["/content/a?x=1#h", "/content/a?x=1#h"],
    ["/a:b", "/a:b"],
    ["/%2F%2Fevil.com", "/%2F%2Fevil.com"],
  ])("keeps %j", (input, out) => {
    expect(safeRedirectTarget(input)).toBe(out);
  });

  it.each([
    "//evil.com",
    "///evil.com",
    "/\\evil.com",
    "/a\\b",
    "\\\\evil.com",
    "https://evil.com",
    "javascript:alert(1)",
    "evil.com",
    "",
    " /dashboard",
    "/\t/evil.com",
    "/\n/evil.com",
    "/\r\nSet-Cookie: x",
    "/\u0000",
    "/\u007f",
  ])("rejects %j", (input) => {
    expect(safeRedirectTarget(input)).toBe("/");
  });

  it("rejects non-strings", () => {
    for (const v of [undefined, null, 1, {}, ["/x"]]) expect(safeRedirectTarget(v)).toBe("/");
  });

  it("signInUrl encodes the origin", () => {
    expect(signInUrl("/content/a b?x=1&y=2")).toBe(
      "/auth/signin?redirect=%2Fcontent%2Fa%20b%3Fx%3D1%26y%3D2",
    );
    expect(signInUrl("/")).toBe("/auth/signin?redirect=%2F");
    expect(signInUrl("//evil.com")).toBe("/auth/signin?redirect=%2F");
    expect(new URLSearchParams(signInUrl("/a?b=c&d=e").split("?")[1]).get("redirect")).toBe("/a?b=c&d=e");
  });
});

describe("routeGuard", () => {
  const { visitor, free, basic, pro, manager, admin, owner } = PERSONAS;

  it("public passes for everyone", () => {
    expect(routeGuard({ public: true }, visitor)).toBe(true);
    expect(routeGuard({ public: true, minTier: "Enterprise", roles: ["SuperUser"] }, visitor)).toBe(true);
  });

  it("non-public needs a signed-in user", () => {
    expect(routeGuard({}, visitor)).toBe(false);
    expect(routeGuard({}, free)).toBe(true);
    expect(routeGuard({ public: false }, free)).toBe(true);
  });

  it("minimum tier", () => {
    expect(routeGuard({ minTier: "Basic" }, free)).toBe(false);
    expect(routeGuard({ minTier: "Basic" }, basic)).toBe(true);
    expect(routeGuard({ minTier: "Pro" }, basic)).toBe(false);
    expect(routeGuard({ minTier: "Pro" }, pro)).toBe(true);
    expect(routeGuard({ minTier: "Free" }, visitor)).toBe(false);
  });

  it("any of the roles, routing or raw", () => {
    expect(routeGuard({ roles: ["AdminUser", "ContentManager"] }, manager)).toBe(true);
    expect(routeGuard({ roles: ["AdminUser"] }, manager)).toBe(false);
    expect(routeGuard({ roles: ["Admin"] }, admin)).toBe(true);
    expect(routeGuard({ roles: ["SuperUser"] }, admin)).toBe(false);
    expect(routeGuard({ roles: [] }, free)).toBe(true);
  });

  it("any of the permissions, '*' matching all", () => {
    expect(routeGuard({ permissions: ["user:manage"] }, admin)).toBe(true);
    expect(routeGuard({ permissions: ["user:manage"] }, manager)).toBe(false);
    expect(routeGuard({ permissions: ["user:manage", "content:publish"] }, manager)).toBe(true);
    expect(routeGuard({ permissions: ["system:reboot"] }, owner)).toBe(true);
    expect(routeGuard({ permissions: ["system:reboot"] }, admin)).toBe(false);
    expect(routeGuard({ permissions: [] }, free)).toBe(true);
  });

  it("all stated conditions must hold together", () => {
    const req = { minTier: "Pro" as Tier, roles: ["AdminUser"], permissions: ["user:manage"] };
    expect(routeGuard(req, admin)).toBe(false); // Free plan
    expect(routeGuard(req, { ...admin, tier: "Pro" })).toBe(true);
    expect(routeGuard(req, { ...admin, tier: "Pro", permissions: [] })).toBe(false);
    expect(routeGuard(req, { ...admin, tier: "Pro", roles: ["User"] })).toBe(false);
  });
});

describe("canAccessContent", () => {
  // Row = user tier (null = visitor/no plan), column = content tier.
  const table: Array<[Tier | null, Record<Tier, boolean>]> = [
    [null, { Free: true, Basic: false, Pro: false, Enterprise: false }],
    ["Free", { Free: true, Basic: false, Pro: false, Enterprise: false }],
    ["Basic", { Free: true, Basic: true, Pro: false, Enterprise: false }],
    ["Pro", { Free: true, Basic: true, Pro: true, Enterprise: false }],
    ["Enterprise", { Free: true, Basic: true, Pro: true, Enterprise: true }],
  ];
  for (const [user, row] of table) {
    for (const content of TIERS) {
      it(`user ${user ?? "none"} × content ${content} → ${row[content]}`, () => {
        expect(canAccessContent({ minTier: content }, { tier: user })).toBe(row[content]);
        expect(canAccessContent({ tier: content }, { tier: user })).toBe(row[content]);
        expect(canAccessContent({ minTier: content.toLowerCase() }, { tier: user })).toBe(row[content]);
      });
    }
  }

  it("content without a tier is free; a user without a tier is Free", () => {
    expect(canAccessContent({}, {})).toBe(true);
    expect(canAccessContent({ minTier: null, tier: null }, { tier: null })).toBe(true);
    expect(canAccessContent({ minTier: "" }, {})).toBe(true);
    expect(canAccessContent({ minTier: "Basic" }, {})).toBe(false);
  });

  it("'business' content is Enterprise content", () => {
    expect(canAccessContent({ tier: "business" }, { tier: "Pro" })).toBe(false);
    expect(canAccessContent({ tier: "business" }, { tier: "Enterprise" })).toBe(true);
  });

  it("an unreadable tier fails closed (Enterprise only)", () => {
    expect(canAccessContent({ minTier: "platinum" }, { tier: "Pro" })).toBe(false);
    expect(canAccessContent({ minTier: "platinum" }, { tier: "Enterprise" })).toBe(true);
  });

  it("rolesRequired needs any one of the roles", () => {
    const c = { minTier: "Free", rolesRequired: ["Editor", "AdminUser"] };
    expect(canAccessContent(c, { tier: "Enterprise", roles: [] })).toBe(false);
    expect(canAccessContent(c, { tier: "Enterprise" })).toBe(false);
    expect(canAccessContent(c, { tier: "Free", roles: ["User", "Editor"] })).toBe(true);
    expect(canAccessContent(c, { tier: "Free", roles: ["AdminUser"] })).toBe(true);
    expect(canAccessContent(c, { tier: "Free", roles: ["User"] })).toBe(false);
    expect(canAccessContent({ rolesRequired: [] }, { roles: [] })).toBe(true);
    expect(canAccessContent({ rolesRequired: null }, {})).toBe(true);
    expect(canAccessContent({ rolesRequired: [""] }, {})).toBe(true);
  });

  it("tier and roles must both hold", () => {
    const c = { minTier: "Pro", rolesRequired: ["Editor"] };
    expect(canAccessContent(c, { tier: "Basic", roles: ["Editor"] })).toBe(false);
    expect(canAccessContent(c, { tier: "Pro", roles: ["Editor"] })).toBe(true);
  });

  it("accepts an AccessContext as the user", () => {
    const c = { minTier: "Basic", rolesRequired: ["AdminUser"] };
    expect(canAccessContent(c, PERSONAS.business)).toBe(true);
    expect(canAccessContent(c, PERSONAS.admin)).toBe(false); // Free plan
    expect(canAccessContent(c, PERSONAS.pro)).toBe(false); // no role
  });
});

describe("requiredTierForContent, contentGate, isFreeTier", () => {
  it("takes the stricter of minTier and tier", () => {
    expect(requiredTierForContent({})).toBe("Free");
    expect(requiredTierForContent({ minTier: "Pro" })).toBe("Pro");
    expect(requiredTierForContent({ tier: "basic" })).toBe("Basic");
    expect(requiredTierForContent({ minTier: "Basic", tier: "Pro" })).toBe("Pro");
    expect(requiredTierForContent({ minTier: "Enterprise", tier: "Free" })).toBe("Enterprise");
    expect(requiredTierForContent({ minTier: "business" })).toBe("Enterprise");
    expect(requiredTierForContent({ minTier: "gold", tier: "Free" })).toBe("Enterprise");
    expect(requiredTierForContent({ minTier: "  " })).toBe("Free");
  });

  it("contentGate explains what the page shows", () => {
    const p = (n: PersonaName) => PERSONAS[n];
    expect(contentGate({ minTier: "Free" }, p("visitor"))).toEqual({ kind: "content" });
    expect(contentGate({ minTier: "Pro" }, p("visitor"))).toEqual({
      kind: "paywall",
      requiredTier: "Pro",
      signInRequired: true,
    });
    expect(contentGate({ minTier: "Pro" }, p("basic"))).toEqual({
      kind: "paywall",
      requiredTier: "Pro",
      signInRequired: false,
    });
    expect(contentGate({ minTier: "Pro" }, p("pro"))).toEqual({ kind: "content" });
    expect(contentGate({ rolesRequired: ["Editor"] }, p("pro"))).toEqual({
      kind: "role-gate",
      rolesRequired: ["Editor"],
      signInRequired: false,
    });
    expect(contentGate({ rolesRequired: ["ContentManager"] }, p("manager"))).toEqual({ kind: "content" });
  });

  it("isFreeTier is true only for Free (level 0)", () => {
    expect(TIERS.filter(isFreeTier)).toEqual(["Free"]);
  });
});
