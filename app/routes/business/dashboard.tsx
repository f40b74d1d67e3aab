import { Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { loadBusinessDashboard } from "../../features/business/business.server.ts";
import { formatDate } from "../../features/business/format.ts";
import { InviteForm } from "../../features/business/invite-form.tsx";
import { MembersTable } from "../../features/business/members-table.tsx";
import { SeatsMeter } from "../../features/business/seats-meter.tsx";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/business/dashboard");

export async function loader(args: Route.LoaderArgs) {
  return loadBusinessDashboard(args);
}

const PLAN_NAMES: Record<string, string> = {
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  business: "Business",
  enterprise: "Enterprise",
};

export default function BusinessDashboard({ loaderData }: Route.ComponentProps) {
  const { user } = useAuth();
  const { organization: org, members, invitations } = loaderData;
  if (!org) {
    return (
      <Screen path="/business/dashboard" purpose="Your organisation's plan, seats and members.">
        <Notice tone="warn" title="No organisation">
          Your account is not part of an organisation. Ask your organisation's administrator for an
          invitation.
        </Notice>
      </Screen>
    );
  }
  const noSeats = org.seats.total !== null && org.seats.used + org.seats.pending >= org.seats.total;
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
          <KeyValueList
            className="mb-4"
            rows={[
              ["Plan", org.plan ? (PLAN_NAMES[org.plan.tier] ?? org.plan.tier) : "No active plan"],
              ["Status", org.plan?.status ?? "—"],
              ["Renews / ends", org.plan?.expiresAt ? formatDate(org.plan.expiresAt) : "No end date"],
            ]}
          />
          <SeatsMeter used={org.seats.used} total={org.seats.total} pending={org.seats.pending} />
        </Panel>
      </div>
      {org.viewer.canManage ? (
        <>
          <Panel title={`Members (${members.length})`}>
            <MembersTable slug={org.slug} members={members} canManage currentUserId={user.userId ?? null} />
          </Panel>
          <Panel title="Invite a colleague">
            <InviteForm slug={org.slug} noSeats={noSeats} />
            {invitations.length > 0 ? (
              <div className="mt-5">
                <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-ink-subtle">
                  Pending invitations
                </h3>
                <ul className="divide-y divide-line text-sm">
                  {invitations.map((i) => (
                    <li key={i.id} className="flex flex-wrap justify-between gap-2 py-2">
                      <span className="break-all text-ink">{i.email}</span>
                      <span className="text-ink-muted">
                        {i.role === "admin" ? "Admin" : "Member"} · expires {formatDate(i.expiresAt)}
                      </span>
                    </li>
                  ))}
                </ul>
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
