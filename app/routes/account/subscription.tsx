import { Screen } from "../../components/screen.tsx";
import { loadSubscription } from "../../features/billing/billing.server.ts";
import { SubscriptionView } from "../../features/billing/subscription-view.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/subscription";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/subscription");

export async function loader(args: Route.LoaderArgs) {
  return loadSubscription(args);
}

export default function Subscription({ loaderData }: Route.ComponentProps) {
  return (
    <Screen path="/subscription" purpose="Your plan, what it costs, when it renews, and your receipts.">
      <SubscriptionView overview={loaderData.overview} quotes={loaderData.quotes} />
    </Screen>
  );
}
