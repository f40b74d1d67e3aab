import { FeatureScreen } from "../../components/feature-screen.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/logs";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/logs");

/** Platform scope: organisation admins get 403 (the route guard answers the same). */
export function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/logs");
  return null;
}

export default function AdminLogs() {
  return (
    <FeatureScreen
      path="/admin/logs"
      purpose="Security and admin events: sign-ins, lockouts, group and plan changes, and publishing, with who did what and when."
      coming="the searchable audit log with filters by actor, event and date."
    />
  );
}
