import { FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/system-config";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin/system-config");

export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/super-admin/system-config");
  const { context } = args;
  const services = context.get(servicesContext);
  const d = await services.diagnostics.adminDiagnostics(context.get(actorContext));
  return { config: services.config, flags: d.featureFlags, configuration: d.configuration };
}

export default function SystemConfig({ loaderData }: Route.ComponentProps) {
  const { config, flags, configuration } = loaderData;
  return (
    <FeatureScreen
      path="/super-admin/system-config"
      purpose="Feature flags and installation settings. Settings come from the environment at start-up; secrets are never shown."
      coming="toggling feature flags at run time, with every change written to the audit log."
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Installation">
          <KeyValueList
            rows={[
              ["Product name", config.productName],
              ["Tagline", config.tagline],
              ["Version", config.version],
              ["Environment", config.environment],
            ]}
          />
        </Panel>
        <Panel title="Feature flags">
          {Object.keys(flags).length > 0 ? (
            <KeyValueList rows={Object.entries(flags).map(([k, v]) => [k, v ? "on" : "off"])} />
          ) : (
            <p className="text-sm text-ink-muted">No feature flags are defined.</p>
          )}
        </Panel>
      </div>
      <Panel title="Configuration (shape only)">
        <KeyValueList rows={configuration.map((c) => [c.name, c.value])} />
      </Panel>
    </FeatureScreen>
  );
}
