/**
 * robots.txt from core's route registry. Routes that need a signed-in user (auth, roles, tier or
 * account type), diagnostics and error screens are disallowed, as are /api/ and /auth/; public
 * screens stay crawlable. Rules are matched as RFC 9309 says: by path prefix, the longest matching
 * rule wins and Allow wins a tie, so "Disallow: /content" (the editors' list) and
 * "Allow: /content/" (the public content pages) work together.
 */
import { flattenRoutes, ROUTES, type RouteDefinition } from "../routes.ts";

/** Always disallowed, whatever the registry says: the APIs and the sign-in screens. */
export const ALWAYS_DISALLOWED = ["/api/", "/auth/"] as const;

export interface RobotsRules {
  allow: string[];
  disallow: string[];
}

function requiresSignIn(route: RouteDefinition): boolean {
  return (
    route.auth ||
    Boolean(route.minTier) ||
    (route.rolesAllowed?.length ?? 0) > 0 ||
    (route.accountTypes?.length ?? 0) > 0
  );
}

/** The literal start of a route's path: "/content/:slug" → "/content/", "/pricing" → "/pricing". */
export function staticPrefix(path: string): string {
  const segments = path.split("/").slice(1);
  const firstDynamic = segments.findIndex((s) => s.startsWith(":") || s === "*");
  if (firstDynamic === -1) return path;
  return `/${segments.slice(0, firstDynamic).join("/")}${firstDynamic > 0 ? "/" : ""}`;
}

/**
 * The rule that closes a private route: its static prefix, or, when static segments follow a
 * parameter, the path with "*" for each parameter (the editor at /content/:id/edit becomes
 * "/content/" + "*" + "/edit"), so a private screen below a public prefix (the "/content/" pages)
 * is closed without closing the pages.
 */
export function privateRule(path: string): string {
  const prefix = staticPrefix(path);
  const rest = path.slice(prefix.length).split("/");
  if (!rest.some((s) => s !== "" && !s.startsWith(":") && s !== "*")) return prefix;
  return path
    .split("/")
    .map((s) => (s.startsWith(":") ? "*" : s))
    .join("/");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** RFC 9309 matching: a prefix, where "*" stands for any run of characters. */
const matches = (path: string, rule: string) =>
  rule.includes("*")
    ? new RegExp(`^${rule.split("*").map(escapeRegExp).join(".*")}`).test(path)
    : path.startsWith(rule);

/** RFC 9309 evaluation: the longest matching rule decides, Allow on a tie; no match → allowed. */
export function isAllowedByRobots(path: string, rules: RobotsRules): boolean {
  const longest = (list: readonly string[]) =>
    list.filter((r) => matches(path, r)).reduce((n, r) => Math.max(n, r.length), -1);
  return longest(rules.allow) >= longest(rules.disallow);
}

/** The rules for a route registry (core's by default). */
export function robotsRules(routes: readonly RouteDefinition[] = ROUTES): RobotsRules {
  const all = flattenRoutes(routes);
  const isCrawlable = (route: RouteDefinition) =>
    route.category === "public" &&
    !requiresSignIn(route) &&
    !ALWAYS_DISALLOWED.some((d) => matches(staticPrefix(route.path), d));
  const disallowed = new Set<string>(ALWAYS_DISALLOWED);
  for (const route of all) if (!isCrawlable(route)) disallowed.add(privateRule(route.path));
  // A public route caught by a shorter private prefix ("/content" for "/content/:slug") is re-opened.
  const allow = new Set<string>(["/"]);
  for (const route of all) {
    if (!isCrawlable(route)) continue;
    const prefix = staticPrefix(route.path);
    if ([...disallowed].some((d) => d !== prefix && matches(prefix, d))) allow.add(prefix);
  }
  // A private prefix below another one ("/admin/users" below "/admin", on a segment boundary) adds
  // nothing, unless an Allow rule between the two re-opened its part of the tree.
  const allowList = [...allow];
  const disallow = [...disallowed].filter(
    (d) =>
      ![...disallowed].some(
        (shorter) =>
          shorter !== d &&
          matches(d, shorter) &&
          (shorter.endsWith("/") || d[shorter.length] === "/") &&
          !allowList.some((a) => matches(d, a) && a.length > shorter.length),
      ),
  );
  return { allow: allowList.sort(), disallow: disallow.sort() };
}

export function renderRobots(rules: RobotsRules, sitemapUrl: string): string {
  return [
    "User-agent: *",
    ...rules.allow.map((a) => `Allow: ${a}`),
    ...rules.disallow.map((d) => `Disallow: ${d}`),
    "",
    `Sitemap: ${sitemapUrl}`,
    "",
  ].join("\n");
}
