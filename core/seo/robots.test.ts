import { describe, expect, it } from "vitest";
import { flattenRoutes, matchRoute, type RouteDefinition } from "../routes.ts";
import { isAllowedByRobots, renderRobots, robotsRules, staticPrefix } from "./robots.ts";

/** A concrete URL for a registry pattern ("/content/:slug" → "/content/sample"). */
const samplePath = (pattern: string) =>
  pattern
    .split("/")
    .map((s) => (s.startsWith(":") ? "sample" : s === "*" ? "a/b" : s))
    .join("/");

const needsSignIn = (r: RouteDefinition) =>
  r.auth || Boolean(r.minTier) || Boolean(r.rolesAllowed?.length) || Boolean(r.accountTypes?.length);

describe("robots.txt rules from the route registry", () => {
  const rules = robotsRules();

  it("disallows every route that needs a signed-in user, and its sub-paths unless they are public pages", () => {
    const privateRoutes = flattenRoutes().filter(needsSignIn);
    expect(privateRoutes.length).toBeGreaterThan(10);
    for (const route of privateRoutes) {
      expect(isAllowedByRobots(samplePath(route.path), rules), route.path).toBe(false);
      const deeper = `${samplePath(route.path)}/deeper`;
      const owner = matchRoute(deeper)?.route;
      if (!owner || needsSignIn(owner)) expect(isAllowedByRobots(deeper, rules), deeper).toBe(false);
    }
  });

  it("keeps public screens crawlable, including content pages below the editors' /content list", () => {
    for (const path of [
      "/",
      "/pricing",
      "/ai-education",
      "/ai-news",
      "/documentation",
      "/content/some-article",
      "/content/a/b",
      "/collection/starter-kit",
      "/category/prompt-engineering",
      "/section/ai-news",
      "/ai-news/rss.xml",
      "/sitemap.xml",
    ]) {
      expect(isAllowedByRobots(path, rules), path).toBe(true);
    }
  });

  it("disallows the APIs, sign-in screens, diagnostics and error screens", () => {
    for (const path of [
      "/api/content",
      "/auth/signin",
      "/auth/signup",
      "/admin-debug",
      "/health-check",
      "/403",
    ]) {
      expect(isAllowedByRobots(path, rules), path).toBe(false);
    }
    expect(rules.disallow).toEqual(
      expect.arrayContaining(["/admin", "/super-admin", "/api/", "/auth/", "/dashboard"]),
    );
    expect(rules.allow).toContain("/content/");
  });

  it("does not repeat sub-paths a shorter rule already covers", () => {
    expect(rules.disallow).not.toContain("/admin/users");
    expect(rules.disallow).not.toContain("/dashboard/reports");
    // "/admin-debug" is not below "/admin" on a segment boundary, so it is listed on its own.
    expect(rules.disallow).toContain("/admin-debug");
  });

  it("re-opens only what a public route needs", () => {
    const routes: RouteDefinition[] = [
      { path: "/", label: "Home", description: "", auth: false, category: "public" },
      { path: "/docs", label: "Docs", description: "", auth: true, category: "account" },
      { path: "/docs/:page", label: "Doc", description: "", auth: false, category: "public" },
      { path: "/docs/private/:x", label: "P", description: "", auth: true, category: "account" },
    ];
    const r = robotsRules(routes);
    expect(isAllowedByRobots("/docs", r)).toBe(false);
    expect(isAllowedByRobots("/docs/intro", r)).toBe(true);
    expect(isAllowedByRobots("/docs/private/x", r)).toBe(false);
  });

  it("names the static start of each pattern", () => {
    expect(staticPrefix("/content/:slug")).toBe("/content/");
    expect(staticPrefix("/content/*")).toBe("/content/");
    expect(staticPrefix("/pricing")).toBe("/pricing");
    expect(staticPrefix("/admin/users")).toBe("/admin/users");
    expect(staticPrefix("/:any")).toBe("/");
  });

  it("renders the rules and the sitemap line", () => {
    const text = renderRobots(rules, "https://hub.example/sitemap.xml");
    expect(text.startsWith("User-agent: *\n")).toBe(true);
    expect(text).toContain("\nDisallow: /admin\n");
    expect(text).toContain("\nAllow: /content/\n");
    expect(text.trimEnd().endsWith("Sitemap: https://hub.example/sitemap.xml")).toBe(true);
  });
});
