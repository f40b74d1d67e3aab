import { FeatureScreen } from "../../components/feature-screen.tsx";
import { DiagnosticsView } from "../../features/diagnostics/diagnostics-view.tsx";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/infrastructure";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin/infrastructure");

export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/super-admin/infrastructure");
  const { context } = args;
  return {
    diagnostics: await context.get(servicesContext).diagnostics.adminDiagnostics(context.get(actorContext)),
  };
}

export default function Infrastructure({ loaderData }: Route.ComponentProps) {
  return (
    <FeatureScreen
      path="/super-admin/infrastructure"
      purpose="Storage, mail and process health of this installation."
      coming="mail delivery status, storage usage and per-process memory, for every replica."
    >
      <DiagnosticsView diagnostics={loaderData.diagnostics} />
    </FeatureScreen>
  );
}
