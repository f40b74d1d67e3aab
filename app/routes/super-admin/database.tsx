import { FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/database";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin/database");

export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/super-admin/database");
  const { context } = args;
  const d = await context.get(servicesContext).diagnostics.adminDiagnostics(context.get(actorContext));
  return { db: d.db, counts: d.counts };
}

export default function Database({ loaderData }: Route.ComponentProps) {
  const { db, counts } = loaderData;
  return (
    <FeatureScreen
      path="/super-admin/database"
      purpose="The database engine, its health and the size of the main tables."
      coming="applied migrations, table sizes and a backup / export action."
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Engine">
          <KeyValueList
            rows={[
              ["Kind", db.kind],
              ["Reachable", db.ok ? "yes" : "no"],
              ["Round trip", `${db.latencyMs.toFixed(1)} ms`],
              ["Error", db.error ?? "—"],
            ]}
          />
        </Panel>
        <Panel title="Records">
          <KeyValueList
            rows={[
              ["Content items", String(counts.content)],
              ["Categories", String(counts.categories)],
              ["Users", String(counts.users)],
            ]}
          />
        </Panel>
      </div>
    </FeatureScreen>
  );
}
