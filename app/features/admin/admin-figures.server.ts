/**
 * The figures of the /admin landing page and /admin/users, by admin scope (decision 009):
 * platform administrators get the installation-wide counts (the diagnostics service checks the
 * "platform" scope itself); an organisation administrator gets only its own organisations'
 * figures, read through the organisations service as that user. The loaders never mix the two.
 */
import type { RouterContextProvider } from "react-router";
import {
  adminAccess,
  checkRouteAccess,
  flattenRoutes,
  getRoute,
  toAccessContext,
} from "../../../core/index.ts";
import { actorContext, servicesContext, userContext } from "../../lib/context.ts";

export interface OrganisationFigures {
  slug: string;
  name: string;
  members: number;
  seats: number | null;
  pendingInvitations: number;
}

export type AdminFigures =
  | { scope: "platform"; counts: { content: number; categories: number; users?: number } }
  | { scope: "organisation"; organisations: OrganisationFigures[] };

export async function adminFigures(context: Readonly<RouterContextProvider>): Promise<AdminFigures> {
  const actor = context.get(actorContext);
  const access = actor.access;
  const services = context.get(servicesContext);
  if (adminAccess("diagnostics.read", access).kind === "allowed") {
    const d = await services.diagnostics.adminDiagnostics(actor);
    return { scope: "platform", counts: d.counts };
  }
  const decision = adminAccess("organisation.figures", access);
  const slugs = decision.kind === "allowed" ? (decision.orgs ?? []) : [];
  const organisations: OrganisationFigures[] = [];
  for (const slug of slugs) {
    const org = await services.organizations.get(actor, slug).catch(() => null);
    if (!org) continue;
    organisations.push({
      slug: org.slug,
      name: org.name,
      members: org.seats.used,
      seats: org.seats.total,
      pendingInvitations: org.seats.pending,
    });
  }
  return { scope: "organisation", organisations };
}

/** The children of a registry route this user may open (the landing page's cards). */
export function openChildPaths(context: Readonly<RouterContextProvider>, path: string): string[] {
  const access = toAccessContext(context.get(userContext));
  const route = getRoute(path);
  return flattenRoutes(route.children ?? [])
    .filter(
      (child) => child.isDynamic !== true && checkRouteAccess(child, access, child.path).kind === "allowed",
    )
    .map((child) => child.path);
}
