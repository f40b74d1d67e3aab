import { FeatureScreen, Panel } from "../../features/account/feature-screen.tsx";
import { servicesContext } from "../../lib/context.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/users";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/users");

export async function loader({ context }: Route.LoaderArgs) {
  const d = await context.get(servicesContext).diagnostics.diagnostics();
  return { users: d.counts.users };
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  return (
    <FeatureScreen
      path="/admin/users"
      purpose="Find users, change their groups and plan, confirm or suspend accounts."
      coming="the user list with search, group and plan changes, suspension and account deletion."
    >
      <Panel title="Accounts">
        <p className="text-3xl font-semibold tabular-nums text-ink">{loaderData.users}</p>
        <p className="mt-1 text-sm text-ink-muted">registered accounts</p>
      </Panel>
    </FeatureScreen>
  );
}
