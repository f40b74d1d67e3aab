import { FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { AccessFacts } from "../../features/account/user-summary.tsx";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/reports";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/dashboard/reports");

export default function Reports() {
  const { user } = useAuth();
  return (
    <FeatureScreen
      path="/dashboard/reports"
      purpose="Reports on your learning and usage: what you read and watched, courses you finished and time spent, available from the Basic plan."
      coming="learning and usage reports. Nothing is tracked for reports yet, so there is nothing to show."
    >
      <Panel title="Your access">
        <AccessFacts user={user} />
      </Panel>
    </FeatureScreen>
  );
}
