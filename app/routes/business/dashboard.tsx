import { FeatureScreen, Panel } from "../../features/account/feature-screen.tsx";
import { AccessFacts, OrganisationFacts } from "../../features/account/user-summary.tsx";
import { useAuth } from "../../features/auth/auth-context.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/business/dashboard");

export default function BusinessDashboard() {
  const { user } = useAuth();
  return (
    <FeatureScreen
      path="/business/dashboard"
      purpose="For business accounts: your organisation's plan, seats and how your team uses the hub."
      coming="seat management, inviting colleagues and team usage reports."
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Organisation">
          <OrganisationFacts user={user} />
        </Panel>
        <Panel title="Your access">
          <AccessFacts user={user} />
        </Panel>
      </div>
    </FeatureScreen>
  );
}
