import { FeatureScreen } from "../../components/feature-screen.tsx";
import { DiagnosticsView } from "../../features/diagnostics/diagnostics-view.tsx";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/overview";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/overview");

/** Platform scope: installation-wide figures and diagnostics (organisation admins get 403). */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/overview");
  const { context } = args;
  return {
    diagnostics: await context.get(servicesContext).diagnostics.adminDiagnostics(context.get(actorContext)),
  };
}

export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  return (
    <FeatureScreen
      path="/admin/overview"
      purpose="Key numbers for the whole hub: health, records, and how people use it."
      coming="sign-ups, active users, views and conversions over time."
    >
      <DiagnosticsView diagnostics={loaderData.diagnostics} />
    </FeatureScreen>
  );
}
