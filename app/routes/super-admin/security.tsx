import { Screen } from "../../components/screen.tsx";
import { loadSecurityScreen, securityAction } from "../../features/security-admin/security-admin.server.ts";
import {
  CredentialsPanel,
  EventsPanel,
  LockoutsPanel,
  MfaPanel,
  PolicyPanel,
  SecurityOutcome,
  SecuritySummary,
  SessionsPanel,
} from "../../features/security-admin/security-view.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin/security");

/** Sessions, addresses and (after create or rotate) a secret: never stored by a cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

/** The platform owner only: the route guard and the service (scope `owner`) answer the same. */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/super-admin/security");
  return loadSecurityScreen(args);
}

export async function action(args: Route.ActionArgs) {
  requireScreenAccess(args, "/super-admin/security");
  return securityAction(args);
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData ?? null;
  const { overview } = loaderData;
  return (
    <Screen
      path="/super-admin/security"
      purpose="Who is signed in, what is locked, how many accounts have a second factor, the rules the server enforces, recent security events and the service credentials. Every change here is written to the audit log with your name."
    >
      <SecurityOutcome result={result} />
      <SecuritySummary overview={overview} />
      <SessionsPanel
        sessions={loaderData.sessions}
        filters={loaderData.filters}
        error={loaderData.sessionsError}
      />
      <LockoutsPanel lockouts={overview.lockoutList} />
      <div className="grid gap-6 lg:grid-cols-2">
        <MfaPanel mfa={overview.mfa} />
        <PolicyPanel policy={overview.policy} />
      </div>
      <EventsPanel events={overview.events} />
      <CredentialsPanel credentials={loaderData.credentials} scopes={loaderData.scopes} result={result} />
    </Screen>
  );
}
