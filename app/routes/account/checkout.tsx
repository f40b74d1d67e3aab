import { Screen } from "../../components/screen.tsx";
import { loadCheckoutReview, startCheckoutAction } from "../../features/billing/billing.server.ts";
import { CheckoutReview } from "../../features/billing/checkout-review.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/checkout";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/checkout");

export async function loader(args: Route.LoaderArgs) {
  return loadCheckoutReview(args);
}

export async function action(args: Route.ActionArgs) {
  return startCheckoutAction(args);
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <Screen path="/checkout" purpose="Choose how often to pay, then continue.">
      <CheckoutReview {...loaderData} error={error} />
    </Screen>
  );
}
