/**
 * Checks the page handler makes before React Router sees a request, so that React Router's own
 * answers never tell a client more than the app means to:
 *
 * - a method a page does not accept (a POST to a route without an `action`, any other verb) is a
 *   plain 405 with `Allow`, never React Router's internal error text naming route ids;
 * - lazy route discovery (`/__manifest?paths=…`) answers only for paths the caller may reach
 *   (core's route guard), so visitors do not learn the admin screens' modules;
 * - responses for a signed-in request are `Cache-Control: private, no-store`.
 */
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { checkPageAccess, matchRoute, toAccessContext, type UserContext } from "../../core/index.ts";

/** React Router's lazy route discovery endpoint (the default `routeDiscovery.manifestPath`). */
export const MANIFEST_PATH = "/__manifest";

/** Methods React Router hands to a route's action. */
const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteNode[];
}

const trees = new WeakMap<ServerBuild, RouteNode[]>();

/** The build's route manifest as a tree React Router's `matchRoutes` reads. */
function routeTree(build: ServerBuild): RouteNode[] {
  const cached = trees.get(build);
  if (cached) return cached;
  const entries = Object.values(build.routes).filter((r): r is NonNullable<typeof r> => !!r);
  const childrenOf = (parentId: string | undefined): RouteNode[] =>
    entries
      .filter((r) => r.parentId === parentId)
      .map((r) => {
        const children = childrenOf(r.id);
        return {
          id: r.id,
          path: r.path,
          index: r.index,
          caseSensitive: r.caseSensitive,
          ...(children.length > 0 && !r.index ? { children } : {}),
        };
      });
  const tree = childrenOf(undefined);
  trees.set(build, tree);
  return tree;
}

/** The page path a request addresses, as React Router reads it: `/x.data` → `/x`, `/_.data` → `/`. */
export function pagePathOf(pathname: string): string {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) || "/" : pathname;
}

/** The methods the page at `pathname` accepts (GET and HEAD always; POST … when it has an action). */
export function allowedPageMethods(build: ServerBuild, pathname: string): string[] {
  const matches = matchRoutes(routeTree(build) as RouteObject[], pagePathOf(pathname));
  const leaf = matches?.at(-1)?.route as RouteNode | undefined;
  const module = leaf ? build.routes[leaf.id]?.module : undefined;
  return module && typeof module.action === "function" ? ["GET", "HEAD", ...MUTATIONS] : ["GET", "HEAD"];
}

/**
 * A 405 for a method the page does not accept, or null to let React Router answer. The
 * route id stays in the server log (`detail`), never in the answer.
 */
export function refuseMethod(
  build: ServerBuild,
  method: string,
  pathname: string,
): { response: Response; detail: { method: string; path: string } } | null {
  const upper = method.toUpperCase();
  if (upper === "GET" || upper === "HEAD") return null;
  const allowed = allowedPageMethods(build, pathname);
  if (allowed.includes(upper)) return null;
  return {
    response: new Response(`Method not allowed: this page does not accept ${upper} requests.`, {
      status: 405,
      headers: {
        Allow: allowed.join(", "),
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
      },
    }),
    detail: { method: upper, path: pathname },
  };
}

/**
 * A path outside core's registry: React Router matches it to the catch-all not-found route. Asked
 * for in place of refused paths, so the client still learns a route for them (the catch-all) and
 * a click there makes a data request that the server's route guard answers (sign-in redirect or
 * 403) instead of a client-side dead end.
 */
const UNLISTED_PATH = "/__unlisted";

/**
 * The manifest request with only the paths the caller may reach (per core's route guard); the
 * others are replaced by an unlisted path, so React Router returns no route modules for them. A
 * path outside the registry stays (it resolves to the not-found route). Returns the URL to hand
 * to React Router.
 */
export function filterManifestPaths(url: URL, user: UserContext): { url: URL; dropped: string[] } {
  const raw = url.searchParams.get("paths");
  if (raw === null) return { url, dropped: [] };
  const access = toAccessContext(user);
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const path of raw.split(",").filter(Boolean)) {
    const pathname = path.startsWith("/") ? path : `/${path}`;
    const match = matchRoute(pathname);
    if (!match || checkPageAccess(match.route, access, pathname).kind === "allowed") kept.push(path);
    else dropped.push(path);
  }
  if (dropped.length > 0) kept.push(UNLISTED_PATH);
  const out = new URL(url);
  out.searchParams.set("paths", kept.join(","));
  return { url: out, dropped };
}

/** A response that differs per caller: kept by no shared cache and not stored by the browser. */
export function markPrivate(response: Response): Response {
  try {
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", "private, no-store");
    return copy;
  }
}
