import { FeatureScreen } from "../../features/account/feature-screen.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/logs";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/logs");

export default function AdminLogs() {
  return (
    <FeatureScreen
      path="/admin/logs"
      purpose="Security and admin events: sign-ins, lockouts, group and plan changes, and publishing, with who did what and when."
      coming="the searchable audit log with filters by actor, event and date."
    />
  );
}
