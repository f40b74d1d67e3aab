import { ChildCards, FeatureScreen, Panel } from "../../features/account/feature-screen.tsx";
import { servicesContext } from "../../lib/context.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin");

export async function loader({ context }: Route.LoaderArgs) {
  const d = await context.get(servicesContext).diagnostics.diagnostics();
  return { counts: d.counts, status: d.status };
}

export default function AdminIndex({ loaderData }: Route.ComponentProps) {
  const { counts } = loaderData;
  return (
    <FeatureScreen
      path="/admin"
      purpose="Run the hub: users and their groups, the content library, subscriptions, analytics and the audit log."
      coming="the management tools on each admin page; each page below says what it will do and shows what is already real."
    >
      <Panel title="At a glance">
        <dl className="grid grid-cols-3 gap-4">
          {[
            ["Content items", counts.content],
            ["Categories", counts.categories],
            ["Users", counts.users],
          ].map(([label, value]) => (
            <div key={label} className="rounded-lg bg-sunken p-4">
              <dt className="text-xs text-ink-subtle">{label}</dt>
              <dd className="mt-1 text-2xl font-semibold tabular-nums text-ink">{value}</dd>
            </div>
          ))}
        </dl>
      </Panel>
      <ChildCards path="/admin" />
    </FeatureScreen>
  );
}
