import { Screen } from "../../components/screen.tsx";
import { InfrastructureView } from "../../features/operations/infrastructure-view.tsx";
import { loadInfrastructure } from "../../features/operations/operations.server.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/infrastructure";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin/infrastructure");

/** Owner scope: the route guard answers 403 to everyone else; the service checks again. */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/super-admin/infrastructure");
  return { view: await loadInfrastructure(args) };
}

export default function Infrastructure({ loaderData }: Route.ComponentProps) {
  return (
    <Screen
      path="/super-admin/infrastructure"
      purpose="Every app process sharing this database, with its version, uptime, memory, event-loop lag, request rate, page-cache hit rate and in-memory caches; database and storage latency; and the background jobs."
    >
      <InfrastructureView view={loaderData.view} />
    </Screen>
  );
}
