import { ChildCards, Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { adminFigures, openChildPaths } from "../../features/admin/admin-figures.server.ts";
import { OrganisationFiguresList } from "../../features/admin/organisation-figures.tsx";
import { loadGlance } from "../../features/admin-analytics/analytics.server.ts";
import { Figure, FigureGrid } from "../../features/admin-analytics/figures.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin");

/**
 * Organisation scope: platform administrators see the installation's figures (the analytics
 * service checks the platform scope again), an organisation administrator only its own
 * organisations' figures and the admin pages it may open.
 */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin");
  const figures = await adminFigures(args.context);
  return {
    figures,
    glance: figures.scope === "platform" ? await loadGlance(args.context) : null,
    links: openChildPaths(args.context, "/admin"),
  };
}

export default function AdminIndex({ loaderData }: Route.ComponentProps) {
  const { figures, glance, links } = loaderData;
  return (
    <Screen
      path="/admin"
      purpose="Run the hub: users and their groups, the content library, subscriptions, analytics and the audit log."
    >
      {figures.scope === "platform" && glance ? (
        <Panel title="At a glance: the last 30 days">
          <FigureGrid>
            <Figure
              label="Readers"
              value={glance.readers.total}
              to="/admin/users"
              linkLabel="open every user"
            />
            <Figure
              label="Paying readers"
              value={glance.readers.paying}
              to="/admin/subscriptions?status=active"
              linkLabel="open the active subscriptions"
            />
            <Figure
              label="Sign-ups"
              value={glance.totals.signUps}
              previous={glance.previousTotals.signUps}
              periodWords="the 30 days before"
              to="/admin/overview?period=30d"
              linkLabel="open the overview"
            />
            <Figure
              label="Views"
              value={glance.totals.views}
              previous={glance.previousTotals.views}
              periodWords="the 30 days before"
              to="/admin/analytics?days=30"
              linkLabel="open analytics"
            />
            <Figure
              label="Content items"
              value={figures.counts.content}
              to="/admin/content"
              linkLabel="open the content"
            />
            <Figure
              label="Failed repository syncs"
              value={glance.failedSyncCount}
              to="/admin/content?tab=repositories"
              linkLabel="open the repositories"
            />
            <Figure
              label="Lockouts"
              value={glance.securityCounts.lockout}
              to="/admin/logs?action=lockout"
              linkLabel="see the lockouts in the audit log"
            />
            <Figure
              label="Failed sign-ins"
              value={glance.securityCounts.sign_in_failure}
              to="/admin/logs?action=sign_in_failure"
              linkLabel="see the failed sign-ins in the audit log"
            />
          </FigureGrid>
        </Panel>
      ) : figures.scope === "organisation" ? (
        <OrganisationFiguresList organisations={figures.organisations} />
      ) : null}
      <ChildCards path="/admin" only={links} />
    </Screen>
  );
}
