import { FeatureScreen, Panel } from "../../features/account/feature-screen.tsx";
import { AccessFacts, IdentityFacts, SessionFacts } from "../../features/account/user-summary.tsx";
import { useAuth } from "../../features/auth/auth-context.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/profile");

export default function Profile() {
  const { user } = useAuth();
  return (
    <FeatureScreen
      path="/profile"
      purpose="Who you are on the hub: your name, e-mail address, phone number, plan, roles and groups."
      coming="editing your name, phone number and avatar, and changing your e-mail address with a confirmation code."
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Identity">
          <IdentityFacts user={user} />
        </Panel>
        <Panel title="Plan and roles">
          <AccessFacts user={user} />
        </Panel>
      </div>
      <Panel title="Current session">
        <SessionFacts user={user} />
      </Panel>
    </FeatureScreen>
  );
}
