import { FeatureScreen, Panel } from "../../features/account/feature-screen.tsx";
import { OrganisationFacts } from "../../features/account/user-summary.tsx";
import { useAuth } from "../../features/auth/auth-context.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/business/profile");

export default function BusinessProfile() {
  const { user } = useAuth();
  return (
    <FeatureScreen
      path="/business/profile"
      purpose="Your organisation's name, domain and details as the hub knows them."
      coming="editing the organisation's name, domain, logo and billing contact."
    >
      <Panel title="Organisation">
        <OrganisationFacts user={user} />
      </Panel>
    </FeatureScreen>
  );
}
