import { describe, expect, it } from "vitest";
import type { AccessContext } from "./claims.ts";
import { getRoute, type RouteDefinition } from "./routes.ts";
import {
  lockedItemTarget,
  lockedRoutes,
  lockedTooltip,
  MAX_LOCKED_ROUTES,
  SEARCH_PLACEHOLDER,
  SIDEBAR_BREAKPOINT,
  SIDEBAR_WIDTH_COLLAPSED,
  SIDEBAR_WIDTH_EXPANDED,
  type SidebarSection,
  searchDestination,
  sidebarSections,
} from "./sidebar.ts";
import { PERSONAS, type PersonaName } from "./test-personas.ts";

describe("constants", () => {
  it("match spec §2 and §9", () => {
    expect(SEARCH_PLACEHOLDER).toBe("Search AI workforce content...");
    expect(MAX_LOCKED_ROUTES).toBe(3);
    expect(SIDEBAR_WIDTH_EXPANDED).toBe(320);
    expect(SIDEBAR_WIDTH_COLLAPSED).toBe(64);
    expect(SIDEBAR_BREAKPOINT).toBe(1024);
  });
});

describe("searchDestination", () => {
  it("ignores empty and blank terms", () => {
    for (const n of ["visitor", "free", "admin"] as PersonaName[]) {
      expect(searchDestination("", PERSONAS[n])).toBeNull();
      expect(searchDestination("   \t", PERSONAS[n])).toBeNull();
    }
  });

  it("sends content managers and above to content management", () => {
    expect(searchDestination("  prompt design ", PERSONAS.manager)).toBe("/content?search=prompt%20design");
    expect(searchDestination("x", PERSONAS.admin)).toBe("/content?search=x");
    expect(searchDestination("x", PERSONAS.owner)).toBe("/content?search=x");
    expect(searchDestination("x", PERSONAS.business)).toBe("/content?search=x");
  });

  it("sends other signed-in users home", () => {
    for (const n of ["free", "basic", "pro", "enterprise"] as PersonaName[]) {
      expect(searchDestination(" llm ", PERSONAS[n])).toBe("/?search=llm");
    }
  });

  it("sends visitors home (public), encoding the term", () => {
    expect(searchDestination("a&b=c?#", PERSONAS.visitor)).toBe("/?search=a%26b%3Dc%3F%23");
  });

  it("sends a signed-out context to sign-in for anything but home", () => {
    const odd: AccessContext = { ...PERSONAS.visitor, roles: ["ContentManager"] };
    expect(searchDestination("x", odd)).toBe("/auth/signin?redirect=%2Fcontent%3Fsearch%3Dx");
  });

  it("does not depend on the current path", () => {
    expect(searchDestination("x", PERSONAS.pro, "/content/abc")).toBe("/?search=x");
    expect(searchDestination("x", PERSONAS.manager, "/")).toBe("/content?search=x");
  });
});

describe("locked routes", () => {
  it("visitors see none", () => {
    expect(lockedRoutes(PERSONAS.visitor)).toEqual([]);
  });

  it("Free users see Reports, badged basic", () => {
    const locked = lockedRoutes(PERSONAS.free);
    expect(locked.map((l) => [l.route.path, l.badge, l.tooltip])).toEqual([
      ["/dashboard/reports", "basic", "Upgrade required"],
    ]);
  });

  it("paying users see none in the registry", () => {
    for (const n of ["basic", "pro", "enterprise", "business"] as PersonaName[]) {
      expect(lockedRoutes(PERSONAS[n])).toEqual([]);
    }
  });

  it("staff on the Free plan see the tier-locked route but never role-only routes", () => {
    for (const n of ["manager", "admin"] as PersonaName[]) {
      expect(lockedRoutes(PERSONAS[n]).map((l) => l.route.path)).toEqual(["/dashboard/reports"]);
    }
  });

  const r = (path: string, extra: Partial<RouteDefinition>): RouteDefinition => ({
    path,
    label: path,
    description: "",
    auth: true,
    category: "account",
    showInSidebar: true,
    ...extra,
  });
  const custom: RouteDefinition[] = [
    r("/a", { minTier: "Basic" }),
    r("/hidden", { minTier: "Basic", showInSidebar: false }),
    r("/dyn/:id", { minTier: "Basic", isDynamic: true, paramNames: ["id"] }),
    r("/admin-only", { minTier: "Pro", rolesAllowed: ["AdminUser"] }),
    r("/biz", { minTier: "Pro", accountTypes: ["business"] }),
    r("/b", { minTier: "Pro" }),
    r("/open", {}),
    r("/c", { minTier: "Enterprise" }),
    r("/d", { minTier: "Enterprise" }),
  ];

  it("lists at most three, in registry order, only those refused for the tier alone", () => {
    expect(lockedRoutes(PERSONAS.free, custom).map((l) => [l.route.path, l.badge])).toEqual([
      ["/a", "basic"],
      ["/b", "pro"],
      ["/c", "Business"],
    ]);
    // An admin on the Free plan can use /admin-only once upgraded, so it is tier-locked for them.
    expect(lockedRoutes(PERSONAS.admin, custom).map((l) => l.route.path)).toEqual([
      "/a",
      "/admin-only",
      "/b",
    ]);
    // A Pro business account: /biz is open, Enterprise routes remain.
    const proBiz: AccessContext = { ...PERSONAS.business, tier: "Pro" };
    expect(lockedRoutes(proBiz, custom).map((l) => [l.route.path, l.badge])).toEqual([
      ["/c", "Business"],
      ["/d", "Business"],
    ]);
    const basicBiz: AccessContext = { ...PERSONAS.business, tier: "Basic" };
    // The business persona is an org admin (AdminUser), so /admin-only is tier-locked for it too.
    expect(lockedRoutes(basicBiz, custom).map((l) => [l.route.path, l.badge])).toEqual([
      ["/admin-only", "MultiSeatPro"],
      ["/biz", "MultiSeatPro"],
      ["/b", "MultiSeatPro"],
    ]);
    expect(lockedRoutes(PERSONAS.enterprise, custom)).toEqual([]);
  });

  it("tooltip and target", () => {
    expect(lockedTooltip(PERSONAS.free)).toBe("Upgrade required");
    expect(lockedTooltip(PERSONAS.visitor)).toBe("Sign in required");
    const reports = getRoute("/dashboard/reports");
    // Reports has a teaser for lower tiers: the locked link opens it.
    expect(lockedItemTarget(PERSONAS.free, reports)).toBe("/dashboard/reports");
    expect(lockedItemTarget(PERSONAS.free, { ...reports, teaserBelowTier: false })).toBe("/pricing");
    expect(lockedItemTarget(PERSONAS.visitor, reports)).toBe("/auth/signin?redirect=%2Fdashboard%2Freports");
  });
});

/** Section ids and item ids, compact. */
function shape(sections: SidebarSection[]): string[] {
  return sections.map((s) => `${s.id}: ${s.items.map((i) => i.id).join(" ")}`);
}

const PUBLIC = "public: / /ai-education /workforce-tools /resources /ai-news /documentation /pricing";
const SIGNED_OUT = "auth: signin signup";
const SIGNED_IN = "auth: signout";
const MANAGE = "/content /create /review /moderate";
const ADMIN =
  "/admin/overview /admin/users /admin/content /admin/subscriptions /admin/analytics /admin/logs /admin/webhooks";
const SYSTEM =
  "system: /super-admin/system-config /super-admin/security /super-admin/infrastructure /super-admin/database";

describe("sidebarSections per persona", () => {
  const expected: Record<PersonaName, string[]> = {
    visitor: [PUBLIC, SIGNED_OUT],
    free: [
      PUBLIC,
      "upgrade: /dashboard/reports",
      "account: /dashboard /profile /subscription /settings",
      SIGNED_IN,
    ],
    basic: [
      PUBLIC,
      "account: /dashboard /dashboard/reports /profile plan /subscription /settings",
      SIGNED_IN,
    ],
    pro: [PUBLIC, "account: /dashboard /dashboard/reports /profile plan /subscription /settings", SIGNED_IN],
    enterprise: [
      PUBLIC,
      "account: /dashboard /dashboard/reports /profile plan /subscription /settings",
      SIGNED_IN,
    ],
    business: [
      PUBLIC,
      "account: /dashboard /dashboard/reports /profile plan /subscription /settings",
      "business: /business/dashboard /business/profile",
      // An organisation admin gets only the organisation-scoped admin screens (decision 009).
      // Moderation is platform-wide (admin scope "moderation"): not for an organisation admin.
      "management: /content /create /review /admin/users",
      SIGNED_IN,
    ],
    manager: [
      PUBLIC,
      "upgrade: /dashboard/reports",
      "account: /dashboard /profile /subscription /settings",
      `management: ${MANAGE}`,
      SIGNED_IN,
    ],
    admin: [
      PUBLIC,
      "upgrade: /dashboard/reports",
      "account: /dashboard /profile /subscription /settings",
      `management: ${MANAGE} ${ADMIN}`,
      SIGNED_IN,
    ],
    owner: [
      PUBLIC,
      "upgrade: /dashboard/reports",
      "account: /dashboard /profile /subscription /settings",
      `management: ${MANAGE} ${ADMIN}`,
      SYSTEM,
      SIGNED_IN,
    ],
    // A content writer opens the studio (decision 018), not moderation.
    writer: [
      PUBLIC,
      "upgrade: /dashboard/reports",
      "account: /dashboard /profile /subscription /settings",
      "management: /content /create /review",
      SIGNED_IN,
    ],
  };
  for (const [name, sections] of Object.entries(expected)) {
    it(name, () => {
      expect(shape(sidebarSections(PERSONAS[name as PersonaName]))).toEqual(sections);
    });
  }

  it("titles the sections", () => {
    const titles = Object.fromEntries(sidebarSections(PERSONAS.owner).map((s) => [s.id, s.title]));
    expect(titles).toEqual({
      public: null,
      upgrade: "Upgrade to unlock",
      account: "Account",
      management: "Management",
      system: "System Administration",
      auth: null,
    });
    expect(sidebarSections(PERSONAS.business).find((s) => s.id === "business")?.title).toBe("Business Hub");
  });

  it("labels public items as the spec names them", () => {
    expect(sidebarSections(PERSONAS.visitor)[0]?.items.map((i) => i.label)).toEqual([
      "Home",
      "AI Education",
      "Workforce Tools",
      "Resources",
      "AI News",
      "Documentation",
      "Pricing",
    ]);
  });

  it("marks locked items with badge and tooltip", () => {
    const upgrade = sidebarSections(PERSONAS.free).find((s) => s.id === "upgrade");
    expect(upgrade?.items).toEqual([
      {
        id: "/dashboard/reports",
        path: "/dashboard/reports",
        label: "Reports",
        icon: "ChartColumn",
        locked: true,
        badge: "basic",
        tooltip: "Upgrade required",
      },
    ]);
  });

  it("shows the plan label with its badge before Subscription", () => {
    const plan = (n: PersonaName) =>
      sidebarSections(PERSONAS[n])
        .find((s) => s.id === "account")
        ?.items.find((i) => i.id === "plan");
    expect(plan("basic")).toMatchObject({ label: "Basic plan", badge: "basic", path: "/subscription" });
    expect(plan("pro")).toMatchObject({ label: "Pro plan", badge: "pro" });
    expect(plan("enterprise")).toMatchObject({ label: "Enterprise plan", badge: "Business" });
    expect(plan("free")).toBeUndefined();
    const proBusiness: AccessContext = { ...PERSONAS.business, tier: "Pro" };
    const items = sidebarSections(proBusiness).find((s) => s.id === "account")?.items ?? [];
    expect(items.find((i) => i.id === "plan")).toMatchObject({ label: "Pro plan", badge: "MultiSeatPro" });
  });

  it("shows the Business Hub only to business accounts in the Business group", () => {
    const ids = (ctx: AccessContext) => sidebarSections(ctx).map((s) => s.id);
    expect(ids(PERSONAS.business)).toContain("business");
    expect(ids({ ...PERSONAS.business, groups: ["org-acme", "org-acme-admin"] })).not.toContain("business");
    expect(ids({ ...PERSONAS.enterprise, groups: ["Business"] })).not.toContain("business");
    expect(ids({ ...PERSONAS.pro, accountType: "business", groups: ["Business"] })).toContain("business");
  });

  it("marks auth buttons with their actions", () => {
    const auth = (n: PersonaName) => sidebarSections(PERSONAS[n]).find((s) => s.id === "auth")?.items ?? [];
    expect(auth("visitor").map((i) => [i.label, i.action, i.path])).toEqual([
      ["Sign In", "signin", "/auth/signin"],
      ["Sign Up", "signup", "/auth/signup"],
    ]);
    expect(auth("pro").map((i) => [i.label, i.action])).toEqual([["Sign Out", "signout"]]);
  });

  it("has unique item ids and never links to a route the user is refused (except locked items)", async () => {
    const { checkRouteAccess } = await import("./access.ts");
    const { matchRoute } = await import("./routes.ts");
    for (const ctx of Object.values(PERSONAS)) {
      const items = sidebarSections(ctx).flatMap((s) => s.items);
      expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
      for (const item of items) {
        if (item.locked || item.action) continue;
        const m = matchRoute(item.path);
        expect(m, item.path).not.toBeNull();
        expect(checkRouteAccess(m!.route, ctx, item.path).kind, item.path).toBe("allowed");
      }
    }
  });
});

describe("pages switched off by a feature flag", () => {
  it("are left out of every persona's sidebar, and nothing else is", () => {
    for (const name of Object.keys(PERSONAS) as PersonaName[]) {
      const all = sidebarSections(PERSONAS[name]).flatMap((s) => s.items.map((i) => i.id));
      const left = sidebarSections(PERSONAS[name], undefined, ["/resources"]).flatMap((s) =>
        s.items.map((i) => i.id),
      );
      expect(all, name).toContain("/resources");
      expect(left, name).toEqual(all.filter((id) => id !== "/resources"));
    }
  });
});
