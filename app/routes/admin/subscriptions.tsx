import { FeatureScreen } from "../../components/feature-screen.tsx";
import { loadPendingCheckouts } from "../../features/billing/billing.server.ts";
import { PendingCheckouts } from "../../features/billing/pending-checkouts.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/subscriptions";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/subscriptions");

/** Platform scope: organisation admins get 403 (the route guard answers the same). */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/subscriptions");
  return { pending: await loadPendingCheckouts(args) };
}

export default function AdminSubscriptions({ loaderData }: Route.ComponentProps) {
  return (
    <FeatureScreen
      path="/admin/subscriptions"
      purpose="Plans held by users and organisations: who is on which plan, since when, and where it came from."
      coming="the subscription list, manual plan changes and organisation seat counts."
    >
      <PendingCheckouts checkouts={loaderData.pending} />
    </FeatureScreen>
  );
}
