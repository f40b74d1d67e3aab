import { FeatureScreen, Panel } from "../../features/account/feature-screen.tsx";
import { AccessFacts, IdentityFacts } from "../../features/account/user-summary.tsx";
import { useAuth } from "../../features/auth/auth-context.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/individual-dashboard";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/individual/dashboard");

export default function IndividualDashboard() {
  const { user } = useAuth();
  return (
    <FeatureScreen
      path="/individual/dashboard"
      purpose="The dashboard for individual accounts: your plan and your personal progress through courses and reading lists."
      coming="personal progress, streaks and recommendations based on what you read."
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="You">
          <IdentityFacts user={user} />
        </Panel>
        <Panel title="Your plan">
          <AccessFacts user={user} />
        </Panel>
      </div>
    </FeatureScreen>
  );
}
