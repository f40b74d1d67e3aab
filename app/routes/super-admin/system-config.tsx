import { Screen } from "../../components/screen.tsx";
import { SystemConfigView } from "../../features/system-config/system-config-view.tsx";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/system-config";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin/system-config");

export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/super-admin/system-config");
  const { context } = args;
  const services = context.get(servicesContext);
  return { view: await services.settings.read(context.get(actorContext)) };
}

export default function SystemConfig({ loaderData }: Route.ComponentProps) {
  return (
    <Screen
      path="/super-admin/system-config"
      purpose="Feature flags and settings stored in the database: a change reaches every app process within a few seconds, without a restart, and is written to the audit log. What the environment decides is shown read-only; secrets are never shown."
    >
      <SystemConfigView view={loaderData.view} />
    </Screen>
  );
}
