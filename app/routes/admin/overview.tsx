import { FeatureScreen } from "../../features/account/feature-screen.tsx";
import { DiagnosticsView } from "../../features/diagnostics/diagnostics-view.tsx";
import { servicesContext } from "../../lib/context.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/overview";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/overview");

export async function loader({ context }: Route.LoaderArgs) {
  return { diagnostics: await context.get(servicesContext).diagnostics.diagnostics() };
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
