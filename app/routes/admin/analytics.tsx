import { FeatureScreen } from "../../components/feature-screen.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/analytics";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/analytics");

/** Platform scope: organisation admins get 403 (the route guard answers the same). */
export function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/analytics");
  return null;
}

export default function AdminAnalytics() {
  return (
    <FeatureScreen
      path="/admin/analytics"
      purpose="Views, likes and shares of each item over time, and which sections and plans people use."
      coming="view, like and share counts per item and charts over time. Views are not recorded yet, so there are no numbers to show."
    />
  );
}
