import { Screen } from "../../components/screen.tsx";
import { loadWebhooksScreen, webhooksAction } from "../../features/webhooks/webhooks.server.ts";
import { DeliveriesPanel, EndpointsPanel, WebhooksOutcome } from "../../features/webhooks/webhooks-view.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/webhooks";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/webhooks");

/** A new or rotated signing secret is in an action's answer: never stored by a cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

/** Platform scope: organisation admins get 403 (the route guard answers the same; the service checks again). */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/webhooks");
  return loadWebhooksScreen(args);
}

export async function action(args: Route.ActionArgs) {
  requireScreenAccess(args, "/admin/webhooks");
  return webhooksAction(args);
}

export default function AdminWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData ?? null;
  return (
    <Screen
      path="/admin/webhooks"
      purpose="Send signed events — content published, updated or archived, subscription changes, sign-ups and comments — to other systems, and see every delivery with its answer. Endpoint changes are written to the audit log with your name."
    >
      <WebhooksOutcome result={result} />
      <EndpointsPanel data={loaderData} result={result} />
      <DeliveriesPanel data={loaderData} />
    </Screen>
  );
}
