/**
 * Loader helpers for the Business Hub and the invitation panel: calls the organisations service
 * with the request's actor (access checked in the service).
 */
import type { RouterContextProvider } from "react-router";
import { actorContext, servicesContext } from "../../lib/context.ts";

type Ctx = { context: Readonly<RouterContextProvider> };

export async function loadBusinessDashboard({ context }: Ctx) {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const organization = await services.organizations.mine(actor);
  // The seat plans on offer, for an administrator whose organisation has no plan yet.
  const seatPlans =
    organization?.viewer.role === "admin" && !organization.plan
      ? await services.organizations.seatPlans()
      : [];
  if (!organization?.viewer.canManage) {
    return { organization, members: [], invitations: [], seatPlans };
  }
  const [members, invitations] = await Promise.all([
    services.organizations.listMembers(actor, organization.slug),
    services.organizations.listPendingInvitations(actor, organization.slug),
  ]);
  return { organization, members, invitations, seatPlans };
}

export async function loadMyOrganization({ context }: Ctx) {
  const services = context.get(servicesContext);
  return services.organizations.mine(context.get(actorContext));
}

/** The invitation named by `?invite=` (its state, never the token back) and pending ones for the user. */
export async function loadInvitations({ context, url }: Ctx & { url: URL }) {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const token = url.searchParams.get("invite");
  let invite: { organizationName: string; role: string; expiresAt: string; state: string } | null = null;
  if (token) {
    try {
      invite = await services.organizations.previewInvitation(actor, token);
    } catch {
      invite = { organizationName: "", role: "member", expiresAt: "", state: "invalid" };
    }
  }
  const pending = await services.organizations.myInvitations(actor);
  return { invite, pending };
}
