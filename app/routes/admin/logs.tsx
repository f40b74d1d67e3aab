import { Screen } from "../../components/screen.tsx";
import { loadAuditLog } from "../../features/admin-logs/audit-log.server.ts";
import { AuditLogView } from "../../features/admin-logs/audit-log-view.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/logs";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/logs");

/** Platform scope: organisation admins get 403 (the route guard answers the same; the service checks again). */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/logs");
  return loadAuditLog(args.context, new URL(args.request.url));
}

export default function AdminLogs({ loaderData }: Route.ComponentProps) {
  return (
    <Screen
      path="/admin/logs"
      purpose="Security and admin events: sign-ins, lockouts, unlocks, plan, subscription and organisation changes, with who did what, to what and when."
    >
      <AuditLogView data={loaderData} />
    </Screen>
  );
}
