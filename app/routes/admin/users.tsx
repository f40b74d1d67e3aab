import { FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { adminFigures } from "../../features/admin/admin-figures.server.ts";
import { OrganisationFiguresList } from "../../features/admin/organisation-figures.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/users";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/users");

/** Organisation scope: an organisation administrator sees its own members' count only. */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/users");
  return { figures: await adminFigures(args.context) };
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { figures } = loaderData;
  return (
    <FeatureScreen
      path="/admin/users"
      purpose="Find users, change their groups and plan, confirm or suspend accounts."
      coming="the user list with search, group and plan changes, suspension and account deletion."
    >
      {figures.scope === "platform" ? (
        <Panel title="Accounts">
          <p className="text-3xl font-semibold tabular-nums text-ink">{figures.counts.users}</p>
          <p className="mt-1 text-sm text-ink-muted">registered accounts</p>
        </Panel>
      ) : (
        <OrganisationFiguresList organisations={figures.organisations} />
      )}
    </FeatureScreen>
  );
}
