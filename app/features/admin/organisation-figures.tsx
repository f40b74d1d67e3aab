import { Link } from "react-router";
import { Panel } from "../../components/feature-screen.tsx";
import type { OrganisationFigures } from "./admin-figures.server.ts";

/** An organisation administrator's own organisations: members, seats and pending invitations. */
export function OrganisationFiguresList({ organisations }: { organisations: OrganisationFigures[] }) {
  if (organisations.length === 0) {
    return (
      <Panel title="Your organisation">
        <p className="text-sm text-ink-muted">You do not administer an organisation.</p>
      </Panel>
    );
  }
  return (
    <>
      {organisations.map((org) => (
        <Panel
          key={org.slug}
          title={org.name}
          action={
            <Link to="/business/dashboard" className="text-sm font-medium text-accent-text hover:underline">
              Manage members
            </Link>
          }
        >
          <dl className="grid grid-cols-3 gap-4">
            {(
              [
                ["Members", org.members],
                ["Seats", org.seats ?? "—"],
                ["Pending invitations", org.pendingInvitations],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-lg bg-sunken p-4">
                <dt className="text-xs text-ink-subtle">{label}</dt>
                <dd className="mt-1 text-2xl font-semibold tabular-nums text-ink">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-xs text-ink-subtle">
            Figures for your organisation only; installation-wide figures are for platform administrators.
          </p>
        </Panel>
      ))}
    </>
  );
}
