import { Screen } from "../../components/screen.tsx";
import { checkoutAction, loadCheckout } from "../../features/billing/billing.server.ts";
import { CheckoutStatus } from "../../features/billing/checkout-status.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/checkout-status";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/checkout/:id");

export async function loader(args: Route.LoaderArgs) {
  return loadCheckout(args);
}

export async function action(args: Route.ActionArgs) {
  return checkoutAction(args);
}

export default function CheckoutStatusPage({ loaderData, actionData }: Route.ComponentProps) {
  const checkout = actionData?.checkout ?? loaderData.checkout;
  return (
    <Screen path="/checkout/:id" purpose="Check the plan and confirm it.">
      <CheckoutStatus checkout={checkout} error={actionData?.error ?? null} />
    </Screen>
  );
}
