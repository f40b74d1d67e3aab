import { FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/moderate";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/moderate");

export default function Moderate() {
  const { user } = useAuth();
  return (
    <FeatureScreen
      path="/moderate"
      purpose="Review comments and content waiting for approval, with the reviewer notes that go back to authors."
      coming="the comment queue, the content review queue with approve / request changes, and reviewer notes. Comments can't be posted yet, so there is nothing to moderate."
    >
      <Panel title="Your moderation rights">
        <KeyValueList
          rows={[
            ["Roles", user.roles.join(", ") || "none"],
            ["Permissions", user.permissions.join(", ") || "none"],
          ]}
        />
      </Panel>
    </FeatureScreen>
  );
}
