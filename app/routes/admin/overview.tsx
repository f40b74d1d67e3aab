import { Screen } from "../../components/screen.tsx";
import { loadOverview } from "../../features/admin-analytics/analytics.server.ts";
import { OverviewView } from "../../features/admin-analytics/overview-view.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/overview";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/overview");

/** Platform scope: organisation admins get 403 (the route guard answers the same; the service checks again). */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/overview");
  return loadOverview(args.context, new URL(args.request.url));
}

export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  return (
    <Screen
      path="/admin/overview"
      purpose="The platform at a glance: readers by plan, sign-ups, conversions and churn, what was published and read, failed repository syncs and recent security events."
    >
      <OverviewView data={loaderData} />
    </Screen>
  );
}
