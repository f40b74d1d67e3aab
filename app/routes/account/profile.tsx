import { ChevronDown } from "lucide-react";
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
      <Panel title="Identity">
        <IdentityFacts user={user} />
      </Panel>
      <details className="group rounded-xl border border-line bg-elevated" data-testid="access-details">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl px-5 py-4 text-sm font-semibold text-ink hover:bg-surface focus-visible:outline-2 focus-visible:outline-focus [&::-webkit-details-marker]:hidden">
          <span>
            Access details
            <span className="ml-2 font-normal text-ink-muted">your plan, roles, groups and permissions</span>
          </span>
          <ChevronDown
            aria-hidden="true"
            className="size-4 shrink-0 text-ink-subtle transition-transform group-open:rotate-180"
          />
        </summary>
        <div className="border-t border-line px-5 py-3">
          <AccessFacts user={user} />
        </div>
      </details>
      <Panel title="Current session">
        <SessionFacts user={user} />
      </Panel>
    </Screen>
  );
}
