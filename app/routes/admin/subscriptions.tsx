import { Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import {
  adminSubscriptionsAction,
  loadAdminSubscriptions,
} from "../../features/admin-subscriptions/admin-subscriptions.server.ts";
import {
  ActionOutcome,
  GrantForm,
  SubscriptionFilters,
  SubscriptionSummary,
  SubscriptionsTable,
} from "../../features/admin-subscriptions/admin-subscriptions.tsx";
import { loadPlansAdmin } from "../../features/admin-subscriptions/plans-admin.server.ts";
import { PlansPanel } from "../../features/admin-subscriptions/plans-panel.tsx";
import { loadPendingCheckouts } from "../../features/billing/billing.server.ts";
import { PendingCheckouts } from "../../features/billing/pending-checkouts.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/subscriptions";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/subscriptions");

/** Platform scope: organisation admins get 403 (the route guard and the service answer the same). */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/subscriptions");
  const [pending, list, allPlans] = await Promise.all([
    loadPendingCheckouts(args),
    loadAdminSubscriptions(args),
    loadPlansAdmin(args),
  ]);
  return { pending, ...list, allPlans };
}

export async function action(args: Route.ActionArgs) {
  requireScreenAccess(args, "/admin/subscriptions");
  return adminSubscriptionsAction(args);
}

export default function AdminSubscriptions({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData ?? null;
  return (
    <Screen
      path="/admin/subscriptions"
      purpose="Plans held by readers and organisations: who is on which plan, until when, and where it came from. Grant, extend or cancel with a note for the audit log, and edit the plans and their prices."
    >
      <ActionOutcome result={result} />
      <PendingCheckouts checkouts={loaderData.pending} />
      <GrantForm plans={loaderData.plans} result={result} />
      <Panel title="All subscriptions">
        <div className="space-y-4">
          <SubscriptionFilters filters={loaderData.filters} error={loaderData.filterError} />
          {loaderData.filterError ? (
            <Notice tone="danger" role="alert">
              {loaderData.filterError.message}
            </Notice>
          ) : null}
          {loaderData.page ? (
            <>
              <SubscriptionSummary summary={loaderData.page.summary} />
              <SubscriptionsTable page={loaderData.page} filters={loaderData.filters} result={result} />
            </>
          ) : null}
        </div>
      </Panel>
      <PlansPanel plans={loaderData.allPlans} result={result} />
    </Screen>
  );
}
