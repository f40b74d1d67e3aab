import { Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { ProfileAvatar } from "../../features/account/profile-avatar.tsx";
import { ProfileEditor } from "../../features/account/profile-editor.tsx";
import { AccessFacts, IdentityFacts, SessionFacts } from "../../features/account/user-summary.tsx";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/profile");

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  return { profile: await services.profile.get(context.get(actorContext)) };
}

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { user } = useAuth();
  const { profile } = loaderData;
  return (
    <Screen
      path="/profile"
      purpose="Who you are on the hub: your display name, bio and avatar, and your e-mail address, plan, roles and groups."
    >
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Panel title="Public profile">
          <ProfileEditor
            key={`${profile.displayName ?? ""}|${profile.bio ?? ""}`}
            displayName={profile.displayName ?? profile.name}
            bio={profile.bio ?? ""}
          />
        </Panel>
        <Panel title="Avatar">
          <ProfileAvatar avatarUrl={profile.avatarUrl} name={profile.displayName ?? profile.name} />
        </Panel>
      </div>
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
    </Screen>
  );
}
