import { ChildCards, FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { adminFigures, openChildPaths } from "../../features/admin/admin-figures.server.ts";
import { OrganisationFiguresList } from "../../features/admin/organisation-figures.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin");

/**
 * Organisation scope: platform administrators see the installation's counts, an organisation
 * administrator only its own organisations' figures and the admin pages it may open.
 */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin");
  return { figures: await adminFigures(args.context), links: openChildPaths(args.context, "/admin") };
}

export default function AdminIndex({ loaderData }: Route.ComponentProps) {
  const { figures, links } = loaderData;
  return (
    <FeatureScreen
      path="/admin"
      purpose="Run the hub: users and their groups, the content library, subscriptions, analytics and the audit log."
      coming="the management tools on each admin page; each page below says what it will do and shows what is already real."
    >
      {figures.scope === "platform" ? (
        <Panel title="At a glance">
          <dl className="grid grid-cols-3 gap-4">
            {[
              ["Content items", figures.counts.content],
              ["Categories", figures.counts.categories],
              ["Users", figures.counts.users],
            ].map(([label, value]) => (
              <div key={label} className="rounded-lg bg-sunken p-4">
                <dt className="text-xs text-ink-subtle">{label}</dt>
                <dd className="mt-1 text-2xl font-semibold tabular-nums text-ink">{value}</dd>
              </div>
            ))}
          </dl>
        </Panel>
      ) : (
        <OrganisationFiguresList organisations={figures.organisations} />
      )}
      <ChildCards path="/admin" only={links} />
    </FeatureScreen>
  );
}
