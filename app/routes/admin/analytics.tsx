import { Screen } from "../../components/screen.tsx";
import { loadAnalytics } from "../../features/admin-analytics/analytics.server.ts";
import { AnalyticsView, ExportLink } from "../../features/admin-analytics/analytics-view.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/analytics";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/analytics");

/** Platform scope: organisation admins get 403 (the route guard answers the same; the service checks again). */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/analytics");
  return loadAnalytics(args.context, new URL(args.request.url));
}

export default function AdminAnalytics({ loaderData }: Route.ComponentProps) {
  return (
    <Screen
      path="/admin/analytics"
      purpose="How the hub is used over time: views and readers, sign-ups and plan changes, course completions, what people read by plan and what they search for without finding it."
      actions={<ExportLink data={loaderData} />}
    >
      <AnalyticsView data={loaderData} />
    </Screen>
  );
}
