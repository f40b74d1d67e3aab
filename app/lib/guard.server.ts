import { data, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import {
  checkPageAccess,
  type ForbiddenReason,
  getRoute,
  hasAnyRole,
  matchRoute,
  type RouteDefinition,
  toAccessContext,
} from "../../core/index.ts";
import { userContext } from "./context.ts";
import { type ShellData, shellData } from "./shell-data.server.ts";

export interface ForbiddenPayload {
  kind: "forbidden";
  /** "mfa": the account holds an allowed staff role that unlocks once it enrols a second factor. */
  reason: ForbiddenReason | "mfa";
  path: string;
  requiredTier: string | null;
  /** The shell's data (no loader ran), so the 403 screen renders inside the sidebar layout. */
  shell?: ShellData;
}

/**
 * The route guard, run on the server for every document and data request before any loader.
 * It applies core's route rules to the server-built user context:
 * - a visitor on a route that needs sign-in → redirect to /auth/signin?redirect=<origin>;
 * - a signed-in user lacking the role or tier → the 403 screen with HTTP 403 (a route marked
 *   `teaserBelowTier` renders its teaser instead for a reader below its tier); a staff account whose
 *   role waits for a second factor (core/staff-mfa.ts) gets the 403 with reason "mfa", whose
 *   screen leads to enrolment.
 * Unknown paths fall through to the not-found route.
 */
export const guardMiddleware: MiddlewareFunction<Response> = async ({ request, context, url }) => {
  const location = url ?? new URL(request.url);
  const match = matchRoute(location.pathname);
  if (!match) return;
  enforceRoute(match.route, context, location);
};

/** Throws the sign-in redirect or the 403 answer when the user may not open `route`. */
function enforceRoute(route: RouteDefinition, context: Readonly<RouterContextProvider>, location: URL): void {
  const user = context.get(userContext);
  const origin = `${location.pathname}${location.search}`;
  // A signed-in reader below a teaser route's tier opens it (core `checkPageAccess`).
  const result = checkPageAccess(route, toAccessContext(user), origin);
  if (result.kind === "signin") throw redirect(result.redirectTo);
  if (result.kind === "forbidden") {
    const pending = user.mfaPendingRoles ?? [];
    const waitsForMfa = result.reason === "role" && hasAnyRole(pending, route.rolesAllowed ?? []);
    const payload: ForbiddenPayload = {
      kind: "forbidden",
      reason: waitsForMfa ? "mfa" : result.reason,
      path: location.pathname,
      requiredTier: route.minTier ?? null,
      shell: shellData(context, location),
    };
    throw data(payload, { status: 403 });
  }
}

/**
 * The admin screens' own check, run by their loaders (the guard runs it too): the route's roles
 * and admin scope (core `adminScope`) for the signed-in user, or the sign-in redirect / 403.
 */
export function requireScreenAccess(
  args: { context: Readonly<RouterContextProvider>; request: Request },
  path: string,
): void {
  enforceRoute(getRoute(path), args.context, new URL(args.request.url));
}
