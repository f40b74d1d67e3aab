import { describe, expect, it } from "vitest";
import {
  buildPath,
  findRoute,
  flattenRoutes,
  getRoute,
  matchRoute,
  ROUTES,
  type RouteDefinition,
} from "./routes.ts";

/** Every path of spec §2, written out independently of the registry. */
const SPEC_PATHS = [
  "/",
  "/pricing",
  "/unsubscribe",
  "/auth/signin",
  "/auth/signup",
  "/auth/confirm",
  "/ai-education",
  "/workforce-tools",
  "/resources",
  "/resources/:slug",
  "/ai-news",
  "/documentation",
  "/section/:section",
  "/category/:category",
  "/content/:slug",
  "/certificates/:id",
  "/collection/:collection",
  "/content/*",
  "/section/*",
  "/category/*",
  "/admin-debug",
  "/health-check",
  "/subscription",
  // Billing (issue 13): the plan review and one checkout's confirmation.
  "/checkout",
  "/checkout/:id",
  "/dashboard",
  "/dashboard/reports",
  "/profile",
  "/settings",
  "/content",
  "/create",
  // The editor of one item (the "equivalent real URL" of /create for existing items).
  "/content/:id/edit",
  // Freshness (decision 038): published items due for review.
  "/review",
  "/moderate",
  "/admin",
  "/admin/overview",
  "/admin/users",
  "/admin/users/:userId",
  "/admin/content",
  "/admin/subscriptions",
  "/admin/analytics",
  "/admin/logs",
  "/admin/webhooks",
  "/super-admin",
  "/super-admin/system-config",
  "/super-admin/security",
  "/super-admin/infrastructure",
  "/super-admin/database",
  "/business/dashboard",
  "/business/profile",
  // Not in spec §2: where a signed-in individual creates an organisation to buy seats (issue 13).
  "/business/start",
  "/individual/dashboard",
  "/403",
  "/404",
];

const all = flattenRoutes();

describe("the registry", () => {
  it("holds every route of spec §2 and nothing else", () => {
    expect([...all.map((r) => r.path)].sort()).toEqual([...SPEC_PATHS].sort());
  });

  it("has unique paths", () => {
    expect(new Set(all.map((r) => r.path)).size).toBe(all.length);
  });

  it("nests the admin and super-admin children with absolute paths", () => {
    expect(getRoute("/admin").children?.map((r) => r.path)).toEqual([
      "/admin/overview",
      "/admin/users",
      "/admin/users/:userId",
      "/admin/content",
      "/admin/subscriptions",
      "/admin/analytics",
      "/admin/logs",
      "/admin/webhooks",
    ]);
    expect(getRoute("/super-admin").children?.map((r) => r.path)).toEqual([
      "/super-admin/system-config",
      "/super-admin/security",
      "/super-admin/infrastructure",
      "/super-admin/database",
    ]);
  });

  it("gives every route a short label and a sentence of description", () => {
    for (const r of all) {
      expect(r.label.length, r.path).toBeGreaterThan(1);
      expect(r.label.length, r.path).toBeLessThanOrEqual(24);
      expect(r.description, r.path).toMatch(/^[A-Z].{8,}\.$/);
    }
  });

  it("marks dynamic routes and their parameters", () => {
    const dynamic = Object.fromEntries(all.filter((r) => r.isDynamic).map((r) => [r.path, r.paramNames]));
    expect(dynamic).toEqual({
      "/resources/:slug": ["slug"],
      "/section/:section": ["section"],
      "/category/:category": ["category"],
      "/content/:slug": ["slug"],
      "/content/:id/edit": ["id"],
      "/admin/users/:userId": ["userId"],
      "/collection/:collection": ["collection"],
      "/certificates/:id": ["id"],
      "/content/*": ["*"],
      "/section/*": ["*"],
      "/category/*": ["*"],
      "/checkout/:id": ["id"],
    });
    // Every pattern with a ":" or "*" is marked dynamic, and its paramNames match the pattern.
    for (const r of all) {
      const names = r.path
        .split("/")
        .filter((s) => s.startsWith(":") || s === "*")
        .map((s) => (s === "*" ? "*" : s.slice(1)));
      expect(r.isDynamic === true, r.path).toBe(names.length > 0);
      if (names.length > 0) expect(r.paramNames, r.path).toEqual(names);
    }
  });

  it("only the two diagnostics routes are public-debug", () => {
    expect(all.filter((r) => r.allowPublicDebug).map((r) => r.path)).toEqual([
      "/admin-debug",
      "/health-check",
    ]);
  });

  it("access fields follow the spec's role table", () => {
    const summary = (r: RouteDefinition) =>
      [
        r.auth ? "auth" : "open",
        r.minTier ?? "-",
        (r.rolesAllowed ?? []).join("|") || "-",
        (r.accountTypes ?? []).join("|") || "-",
      ].join(" ");
    const got = Object.fromEntries(all.map((r) => [r.path, summary(r)]));
    const open = "open - - -";
    const signedIn = "auth - - -";
    const managers = "auth - ContentManager|AdminUser|SuperUser -";
    const writers = "auth - ContentCreator|Editor|ContentManager|AdminUser|SuperUser -";
    const admins = "auth - AdminUser|SuperUser -";
    const superOnly = "auth - SuperUser -";
    expect(got).toEqual({
      "/": open,
      "/pricing": open,
      "/unsubscribe": open,
      "/auth/signin": open,
      "/auth/signup": open,
      "/auth/confirm": open,
      "/ai-education": open,
      "/workforce-tools": open,
      "/resources": open,
      "/resources/:slug": open,
      "/ai-news": open,
      "/documentation": open,
      "/section/:section": open,
      "/category/:category": open,
      "/content/:slug": open,
      "/collection/:collection": open,
      "/certificates/:id": open,
      "/content/*": open,
      "/section/*": open,
      "/category/*": open,
      "/admin-debug": open,
      "/health-check": open,
      "/subscription": signedIn,
      "/checkout": signedIn,
      "/checkout/:id": signedIn,
      "/dashboard": signedIn,
      "/dashboard/reports": "auth Basic - -",
      "/profile": signedIn,
      "/settings": signedIn,
      "/individual/dashboard": signedIn,
      "/business/dashboard": "auth - - business",
      "/business/profile": "auth - - business",
      "/business/start": signedIn,
      "/content": writers,
      "/create": writers,
      "/content/:id/edit": writers,
      "/review": writers,
      "/moderate": managers,
      "/admin": admins,
      "/admin/overview": admins,
      "/admin/users": admins,
      "/admin/users/:userId": admins,
      "/admin/content": admins,
      "/admin/subscriptions": admins,
      "/admin/analytics": admins,
      "/admin/logs": admins,
      "/admin/webhooks": admins,
      "/super-admin": superOnly,
      "/super-admin/system-config": superOnly,
      "/super-admin/security": superOnly,
      "/super-admin/infrastructure": superOnly,
      "/super-admin/database": superOnly,
      "/403": open,
      "/404": open,
    });
  });

  it("categorises routes", () => {
    const byCategory = (c: RouteDefinition["category"]) =>
      all.filter((r) => r.category === c).map((r) => r.path);
    expect(byCategory("content-management")).toEqual([
      "/content",
      "/create",
      "/content/:id/edit",
      "/review",
      "/moderate",
    ]);
    expect(byCategory("business")).toEqual(["/business/dashboard", "/business/profile"]);
    expect(byCategory("error")).toEqual(["/403", "/404"]);
    expect(byCategory("system")).toEqual(["/admin-debug", "/health-check"]);
    expect(byCategory("super-admin")).toHaveLength(5);
    expect(byCategory("admin")).toHaveLength(9);
  });

  it("is frozen", () => {
    expect(Object.isFrozen(ROUTES)).toBe(true);
    expect(Object.isFrozen(getRoute("/admin").children)).toBe(true);
    expect(Object.isFrozen(getRoute("/content").rolesAllowed)).toBe(true);
    expect(() => {
      (getRoute("/") as { auth: boolean }).auth = true;
    }).toThrow();
  });

  it("names only icons that lucide-react exports", async () => {
    const lucide = (await import("lucide-react")) as unknown as Record<string, unknown>;
    for (const r of all) {
      expect(r.icon, r.path).toBeDefined();
      expect(lucide[r.icon!], `${r.path}: ${r.icon}`).toBeDefined();
    }
  });
});

describe("flattenRoutes / findRoute / getRoute", () => {
  it("lists parents before children in registry order", () => {
    const paths = all.map((r) => r.path);
    expect(paths.indexOf("/admin") + 1).toBe(paths.indexOf("/admin/overview"));
    expect(paths.indexOf("/super-admin") + 1).toBe(paths.indexOf("/super-admin/system-config"));
    expect(paths[0]).toBe("/");
  });

  it("flattens a custom tree", () => {
    const leaf = (path: string): RouteDefinition => ({
      path,
      label: path,
      description: "",
      auth: false,
      category: "public",
    });
    const tree = [
      { ...leaf("/a"), children: [{ ...leaf("/a/b"), children: [leaf("/a/b/c")] }, leaf("/a/d")] },
      leaf("/e"),
    ];
    expect(flattenRoutes(tree).map((r) => r.path)).toEqual(["/a", "/a/b", "/a/b/c", "/a/d", "/e"]);
  });

  it("finds by exact pattern", () => {
    expect(findRoute("/content/:slug")?.isDynamic).toBe(true);
    expect(findRoute("/admin/users")?.label).toBe("Users");
    expect(findRoute("/content/intro")).toBeUndefined();
    expect(findRoute("/nope")).toBeUndefined();
    expect(() => getRoute("/nope")).toThrow("Unknown route: /nope");
  });
});

describe("matchRoute", () => {
  const cases: Array<[string, string, Record<string, string>]> = [
    ["/", "/", {}],
    ["/pricing", "/pricing", {}],
    ["/unsubscribe", "/unsubscribe", {}],
    ["/auth/signin", "/auth/signin", {}],
    ["/auth/signup", "/auth/signup", {}],
    ["/auth/confirm", "/auth/confirm", {}],
    ["/ai-education", "/ai-education", {}],
    ["/workforce-tools", "/workforce-tools", {}],
    ["/resources", "/resources", {}],
    ["/resources/lumen-kit", "/resources/:slug", { slug: "lumen-kit" }],
    ["/ai-news", "/ai-news", {}],
    ["/documentation", "/documentation", {}],
    ["/section/guides", "/section/:section", { section: "guides" }],
    ["/category/prompting", "/category/:category", { category: "prompting" }],
    ["/content/intro-to-llms", "/content/:slug", { slug: "intro-to-llms" }],
    ["/collection/starter-pack", "/collection/:collection", { collection: "starter-pack" }],
    ["/certificates/Abc_123-xyz", "/certificates/:id", { id: "Abc_123-xyz" }],
    ["/content/a/b", "/content/*", { "*": "a/b" }],
    ["/section/a/b/c", "/section/*", { "*": "a/b/c" }],
    ["/category/x/y", "/category/*", { "*": "x/y" }],
    ["/admin-debug", "/admin-debug", {}],
    ["/health-check", "/health-check", {}],
    ["/subscription", "/subscription", {}],
    ["/checkout", "/checkout", {}],
    [
      "/checkout/0190f0f0-0000-7000-8000-000000000000",
      "/checkout/:id",
      { id: "0190f0f0-0000-7000-8000-000000000000" },
    ],
    ["/dashboard", "/dashboard", {}],
    ["/dashboard/reports", "/dashboard/reports", {}],
    ["/profile", "/profile", {}],
    ["/settings", "/settings", {}],
    ["/content", "/content", {}],
    ["/create", "/create", {}],
    ["/content/abc-123/edit", "/content/:id/edit", { id: "abc-123" }],
    ["/admin/users/u-123", "/admin/users/:userId", { userId: "u-123" }],
    ["/review", "/review", {}],
    ["/moderate", "/moderate", {}],
    ["/admin", "/admin", {}],
    ["/admin/overview", "/admin/overview", {}],
    ["/admin/users", "/admin/users", {}],
    ["/admin/content", "/admin/content", {}],
    ["/admin/subscriptions", "/admin/subscriptions", {}],
    ["/admin/analytics", "/admin/analytics", {}],
    ["/admin/logs", "/admin/logs", {}],
    ["/admin/webhooks", "/admin/webhooks", {}],
    ["/super-admin", "/super-admin", {}],
    ["/super-admin/system-config", "/super-admin/system-config", {}],
    ["/super-admin/security", "/super-admin/security", {}],
    ["/super-admin/infrastructure", "/super-admin/infrastructure", {}],
    ["/super-admin/database", "/super-admin/database", {}],
    ["/business/dashboard", "/business/dashboard", {}],
    ["/business/profile", "/business/profile", {}],
    ["/business/start", "/business/start", {}],
    ["/individual/dashboard", "/individual/dashboard", {}],
    ["/403", "/403", {}],
    ["/404", "/404", {}],
    // Trailing slashes, query strings and hashes.
    ["/content/", "/content", {}],
    ["/admin/users/", "/admin/users", {}],
    ["/content/hello/", "/content/:slug", { slug: "hello" }],
    ["/content/a/b/", "/content/*", { "*": "a/b" }],
    ["/pricing?plan=pro", "/pricing", {}],
    ["/content/hello?x=1#top", "/content/:slug", { slug: "hello" }],
    ["/#top", "/", {}],
    // Case-insensitive static segments (as React Router), parameters keep their case.
    ["/ADMIN", "/admin", {}],
    ["/Content/Hello-World", "/content/:slug", { slug: "Hello-World" }],
    // Percent-decoding.
    ["/%61dmin", "/admin", {}],
    ["/content/caf%C3%A9", "/content/:slug", { slug: "café" }],
    ["/content/a%20b/c", "/content/*", { "*": "a b/c" }],
    ["/content/100%", "/content/:slug", { slug: "100%" }],
    // A static path that looks like a parameter value.
    ["/content/create", "/content/:slug", { slug: "create" }],
  ];
  it.each(cases)("%s → %s %j", (pathname, pattern, params) => {
    const m = matchRoute(pathname);
    expect(m?.route.path).toBe(pattern);
    expect(m?.params).toEqual(params);
  });

  it("covers every registry route", () => {
    const matched = new Set(cases.map(([, pattern]) => pattern));
    expect(all.filter((r) => !matched.has(r.path)).map((r) => r.path)).toEqual([]);
  });

  it.each([
    "/unknown",
    "/resources/a/b",
    "/collection/a/b",
    "/admin/unknown",
    "/super-admin/users",
    "/dashboard/reports/2024",
    "/profile/x",
    "/auth",
    "/business",
    "/individual",
    "//evil.com",
    "/content//x",
    "/content/a//b",
    "relative/path",
    "",
    "https://example.com/",
  ])("%j → null", (pathname) => {
    expect(matchRoute(pathname)).toBeNull();
  });

  it("returns null for non-string input", () => {
    expect(matchRoute(undefined as unknown as string)).toBeNull();
  });

  it("lets static beat dynamic and dynamic beat catch-all regardless of registry order", () => {
    const r = (path: string, extra: Partial<RouteDefinition> = {}): RouteDefinition => ({
      path,
      label: path,
      description: "",
      auth: false,
      category: "public",
      ...extra,
    });
    const routes = [r("/x/*", { isDynamic: true }), r("/x/:id", { isDynamic: true }), r("/x/new"), r("/x")];
    expect(matchRoute("/x/new", routes)?.route.path).toBe("/x/new");
    expect(matchRoute("/x/7", routes)?.route.path).toBe("/x/:id");
    expect(matchRoute("/x/7/8", routes)?.route.path).toBe("/x/*");
    expect(matchRoute("/x", routes)?.route.path).toBe("/x");
  });
});

describe("buildPath", () => {
  it("fills parameters, encoding them", () => {
    expect(buildPath("/content/:slug", { slug: "a b" })).toBe("/content/a%20b");
    expect(buildPath("/content/*", { "*": "a/b c" })).toBe("/content/a/b%20c");
    expect(buildPath("/resources/:slug", { slug: "x/y" })).toBe("/resources/x%2Fy");
    expect(buildPath("/")).toBe("/");
    expect(buildPath("/admin/users")).toBe("/admin/users");
  });

  it("round-trips through matchRoute", () => {
    for (const slug of ["intro", "café au lait", "50%", "a?b#c"]) {
      const m = matchRoute(buildPath("/content/:slug", { slug }));
      expect(m?.route.path).toBe("/content/:slug");
      expect(m?.params.slug).toBe(slug);
    }
  });

  it("throws on a missing parameter", () => {
    expect(() => buildPath("/content/:slug")).toThrow('Missing parameter "slug"');
    expect(() => buildPath("/content/*", { "*": "" })).toThrow('Missing parameter "*"');
  });
});
