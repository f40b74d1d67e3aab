import { Link } from "react-router";
import { Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { loadBusinessDashboard } from "../../features/business/business.server.ts";
import { formatDate } from "../../features/business/format.ts";
import { InviteForm } from "../../features/business/invite-form.tsx";
import { MembersTable } from "../../features/business/members-table.tsx";
import { PendingInvitations } from "../../features/business/pending-invitations.tsx";
import { SeatsCard } from "../../features/business/seats-card.tsx";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/business/dashboard");

export async function loader(args: Route.LoaderArgs) {
  return loadBusinessDashboard(args);
}

export default function BusinessDashboard({ loaderData }: Route.ComponentProps) {
  const { user } = useAuth();
  const { organization: org, members, invitations, seatPlans } = loaderData;
  if (!org) {
    return (
      <Screen path="/business/dashboard" purpose="Your organisation's plan, seats and members.">
        <Notice tone="warn" title="No organisation">
          Your account is not part of an organisation. Ask your organisation's administrator for an
          invitation, or create one to buy seats for your team.
        </Notice>
        <Link to="/business/start" className={buttonClass("primary", "md", "mt-4")}>
          Create an organisation
        </Link>
      </Screen>
    );
  }
  const noSeats = org.seats.total === null || org.seats.used + org.seats.pending >= org.seats.total;
  return (
    <Screen path="/business/dashboard" purpose="Your organisation's plan, seats and members.">
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Organisation">
          <KeyValueList
            rows={[
              ["Name", org.name],
              ["Domain", org.domain ?? "—"],
              ["Created", formatDate(org.createdAt)],
              [
                "Your role",
                org.viewer.role === "admin"
                  ? "Administrator"
                  : org.viewer.role === "app-admin"
                    ? "App administrator"
                    : "Member",
              ],
            ]}
          />
        </Panel>
        <Panel title="Plan and seats">
          <SeatsCard org={org} seatPlans={seatPlans} />
        </Panel>
      </div>
      {org.viewer.canManage ? (
        <>
          <Panel title={`Members (${members.length})`}>
            <MembersTable slug={org.slug} members={members} canManage currentUserId={user.userId ?? null} />
          </Panel>
          <Panel title="Invite a colleague">
            <InviteForm slug={org.slug} noSeats={noSeats} noPlan={!org.plan} />
            {invitations.length > 0 ? (
              <div className="mt-5">
                <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-subtle">
                  Pending invitations
                </h3>
                <PendingInvitations slug={org.slug} invitations={invitations} />
              </div>
            ) : null}
          </Panel>
        </>
      ) : (
        <Notice tone="info" title="Members">
          Your organisation's administrators manage members and invitations.
        </Notice>
      )}
    </Screen>
  );
}
