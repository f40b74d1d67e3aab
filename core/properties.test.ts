import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canAccessContent, checkRouteAccess, routeGuard, safeRedirectTarget, signInUrl } from "./access.ts";
import { type AccessContext, buildUserContext, toAccessContext, tokenUsable } from "./claims.ts";
import { tierFromGroups } from "./groups.ts";
import { PERMISSIONS, ROLES, ROUTING_ROLES, rolesFromGroups } from "./roles.ts";
import { buildPath, flattenRoutes, matchRoute, type RouteDefinition } from "./routes.ts";
import { lockedRoutes, MAX_LOCKED_ROUTES, sidebarSections } from "./sidebar.ts";
import { authTierLevel, parseTier, TIERS, type Tier, tierLevel } from "./tiers.ts";

const ALL_ROUTES = flattenRoutes();
const ROLE_NAMES = [...ROUTING_ROLES, ...ROLES, "Owner", "Guest"];
const PERMISSION_NAMES = [...PERMISSIONS, "*", "system:reboot"];
const GROUP_NAMES = [
  "individual-free",
  "individual-basic",
  "individual-pro",
  "individual-legend",
  "app-owner",
  "app-admin",
  "org-acme",
  "org-acme-admin",
  "ContentManager",
  "ContentCreator",
  "Editor",
  "Business",
  "approvers",
  "pro",
];

const tierArb = fc.constantFrom(...TIERS);
const optTierArb = fc.option(tierArb, { nil: null });
const tierPair = fc
  .tuple(tierArb, tierArb)
  .map(([a, b]) => (tierLevel(a) <= tierLevel(b) ? ([a, b] as const) : ([b, a] as const)));

const ctxArb: fc.Arbitrary<AccessContext> = fc.record({
  isAuthenticated: fc.boolean(),
  tier: optTierArb,
  roles: fc.subarray(ROLE_NAMES),
  userId: fc.option(fc.string({ minLength: 1 }), { nil: null }),
  permissions: fc.subarray(PERMISSION_NAMES),
  groups: fc.subarray(GROUP_NAMES),
  accountType: fc.constantFrom("individual" as const, "business" as const, null),
});

const contentTierValue = fc.oneof(
  tierArb,
  tierArb.map((t) => t.toLowerCase()),
  fc.constant("business"),
  fc.constant(null),
  fc.constant(undefined),
  fc.string(),
);
const contentArb = fc.record({
  minTier: contentTierValue,
  tier: contentTierValue,
  rolesRequired: fc.option(fc.subarray(ROLE_NAMES), { nil: null }),
});

const routeArb: fc.Arbitrary<RouteDefinition> = fc.oneof(
  fc.constantFrom(...ALL_ROUTES),
  fc.record(
    {
      path: fc.constant("/x"),
      label: fc.constant("X"),
      description: fc.constant("X."),
      auth: fc.boolean(),
      minTier: tierArb,
      rolesAllowed: fc.subarray([...ROUTING_ROLES]),
      accountTypes: fc.subarray(["individual", "business"] as const),
      category: fc.constant("public" as const),
      allowPublicDebug: fc.boolean(),
    },
    { requiredKeys: ["path", "label", "description", "auth", "category"] },
  ) as fc.Arbitrary<RouteDefinition>,
);

const allowed = (route: RouteDefinition, ctx: AccessContext) =>
  checkRouteAccess(route, ctx, "/o").kind === "allowed";
const withRole = (ctx: AccessContext, role: string): AccessContext => ({
  ...ctx,
  roles: [...ctx.roles, role],
});

describe("monotonicity", () => {
  it("raising a user's tier never removes content access", () => {
    fc.assert(
      fc.property(contentArb, tierPair, fc.subarray(ROLE_NAMES), (content, [lo, hi], roles) => {
        if (canAccessContent(content, { tier: lo, roles })) {
          expect(canAccessContent(content, { tier: hi, roles })).toBe(true);
        }
        // No tier at all is never better than any plan.
        if (canAccessContent(content, { tier: null, roles })) {
          expect(canAccessContent(content, { tier: lo, roles })).toBe(true);
        }
      }),
    );
  });

  it("raising a user's tier never removes route access", () => {
    fc.assert(
      fc.property(routeArb, ctxArb, tierPair, (route, ctx, [lo, hi]) => {
        if (allowed(route, { ...ctx, tier: lo })) expect(allowed(route, { ...ctx, tier: hi })).toBe(true);
      }),
    );
  });

  it("adding a role never removes content, route or guard access", () => {
    fc.assert(
      fc.property(
        contentArb,
        routeArb,
        ctxArb,
        fc.constantFrom(...ROLE_NAMES),
        fc.record({
          minTier: fc.option(tierArb, { nil: undefined }),
          roles: fc.option(fc.subarray(ROLE_NAMES), { nil: undefined }),
          permissions: fc.option(fc.subarray(PERMISSION_NAMES), { nil: undefined }),
          public: fc.option(fc.boolean(), { nil: undefined }),
        }),
        (content, route, ctx, role, req) => {
          const more = withRole(ctx, role);
          if (canAccessContent(content, ctx)) expect(canAccessContent(content, more)).toBe(true);
          if (allowed(route, ctx)) expect(allowed(route, more)).toBe(true);
          if (routeGuard(req, ctx)) expect(routeGuard(req, more)).toBe(true);
        },
      ),
    );
  });

  it("adding a permission never removes routeGuard access", () => {
    fc.assert(
      fc.property(
        ctxArb,
        fc.constantFrom(...PERMISSION_NAMES),
        fc.record({
          minTier: fc.option(tierArb, { nil: undefined }),
          roles: fc.option(fc.subarray(ROLE_NAMES), { nil: undefined }),
          permissions: fc.option(fc.subarray(PERMISSION_NAMES), { nil: undefined }),
          public: fc.option(fc.boolean(), { nil: undefined }),
        }),
        (ctx, perm, req) => {
          if (routeGuard(req, ctx)) {
            expect(routeGuard(req, { ...ctx, permissions: [...ctx.permissions, perm] })).toBe(true);
          }
        },
      ),
    );
  });

  it("a route open while signed out stays open once signed in", () => {
    fc.assert(
      fc.property(routeArb, ctxArb, (route, ctx) => {
        const out = checkRouteAccess(route, { ...ctx, isAuthenticated: false }, "/o");
        const inn = checkRouteAccess(route, { ...ctx, isAuthenticated: true }, "/o");
        if (out.kind === "allowed") expect(inn.kind).toBe("allowed");
      }),
    );
  });

  it("adding a group never lowers the derived tier nor removes a role", () => {
    fc.assert(
      fc.property(
        fc.subarray(GROUP_NAMES),
        fc.oneof(fc.constantFrom(...GROUP_NAMES), fc.string()),
        (groups, g) => {
          const more = [...groups, g];
          expect(authTierLevel(tierFromGroups(more))).toBeGreaterThanOrEqual(
            authTierLevel(tierFromGroups(groups)),
          );
          const before = rolesFromGroups(groups);
          const after = rolesFromGroups(more);
          for (const r of before) expect(after).toContain(r);
        },
      ),
    );
  });

  it("a later token expiry is never less usable", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e9 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 4e12 }),
        (exp, d, now) => {
          if (tokenUsable(exp, now)) expect(tokenUsable(exp + d, now)).toBe(true);
        },
      ),
    );
  });
});

describe("redirect safety", () => {
  const hostile = fc.oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.webUrl(),
    fc.webPath(),
    fc.constantFrom("/", "//", "/\\", "\\/", "/\t/", "/\n/", "///a", "/%2F/a"),
    fc
      .tuple(fc.constantFrom("/", "//", "/\\", "\\", "/\t", " /"), fc.string({ unit: "binary" }))
      .map(([a, b]) => a + b),
  );

  it("safeRedirectTarget only ever returns a single-slash, same-origin path", () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const out = safeRedirectTarget(value);
        expect(out.startsWith("/")).toBe(true);
        expect(out.startsWith("//")).toBe(false);
        expect(out.startsWith("/\\")).toBe(false);
        // The browser's own URL parser keeps it on our origin.
        const url = new URL(out, "https://hub.example");
        expect(url.origin).toBe("https://hub.example");
        // Idempotent.
        expect(safeRedirectTarget(out)).toBe(out);
      }),
      { numRuns: 2000 },
    );
  });

  it("signInUrl always round-trips the sanitised origin", () => {
    fc.assert(
      fc.property(hostile, (origin) => {
        const url = new URL(signInUrl(origin), "https://hub.example");
        expect(url.pathname).toBe("/auth/signin");
        expect(url.searchParams.get("redirect")).toBe(safeRedirectTarget(origin));
      }),
    );
  });
});

describe("matching and sidebar invariants", () => {
  it("buildPath and matchRoute round-trip any content slug", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (slug) => {
        const m = matchRoute(buildPath("/content/:slug", { slug }));
        expect(m?.route.path).toBe("/content/:slug");
        expect(m?.params.slug).toBe(slug);
      }),
    );
  });

  it("matchRoute never throws and only returns registry routes", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webPath(), fc.string({ unit: "binary" })), (p) => {
        const m = matchRoute(p);
        if (m) expect(ALL_ROUTES).toContain(m.route);
      }),
    );
  });

  it("locked routes: at most three, signed-in only, never openable now", () => {
    fc.assert(
      fc.property(ctxArb, (ctx) => {
        const locked = lockedRoutes(ctx);
        expect(locked.length).toBeLessThanOrEqual(MAX_LOCKED_ROUTES);
        if (!ctx.isAuthenticated) expect(locked).toEqual([]);
        for (const l of locked) expect(allowed(l.route, ctx)).toBe(false);
      }),
    );
  });

  it("every unlocked sidebar link is a route the user may open", () => {
    fc.assert(
      fc.property(ctxArb, (ctx) => {
        for (const item of sidebarSections(ctx).flatMap((s) => s.items)) {
          if (item.locked || item.action) continue;
          const m = matchRoute(item.path);
          expect(m).not.toBeNull();
          expect(allowed(m!.route, ctx)).toBe(true);
        }
      }),
    );
  });
});

describe("claims invariants", () => {
  it("parseTier ignores case", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(parseTier(s.toUpperCase())).toBe(parseTier(s.toLowerCase()));
      }),
    );
  });

  it("any claims with a sub give a signed-in context with a plan and User role", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ""),
        fc.subarray(GROUP_NAMES),
        fc.option(fc.oneof(fc.string(), tierArb), { nil: undefined }),
        (sub, groups, tier) => {
          const ctx = toAccessContext(
            buildUserContext({ sub, "cognito:groups": groups, "custom:tier": tier }),
          );
          expect(ctx.isAuthenticated).toBe(true);
          expect(TIERS).toContain(ctx.tier as Tier);
          expect(ctx.roles).toContain("User");
        },
      ),
    );
  });
});
