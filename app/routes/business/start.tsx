import { redirect } from "react-router";
import { Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { loadMyOrganization } from "../../features/business/business.server.ts";
import { CreateOrganizationForm } from "../../features/business/create-organization-form.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/start";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/business/start");

/** A member of an organisation already has one: its dashboard. */
export async function loader(args: Route.LoaderArgs) {
  if (await loadMyOrganization(args)) throw redirect("/business/dashboard");
  return null;
}

export default function BusinessStart() {
  return (
    <Screen
      path="/business/start"
      purpose="Create your organisation, then buy seats for your team: every member reads with the organisation's plan."
    >
      <Panel title="Your organisation">
        <ol className="mb-5 list-decimal space-y-1 pl-5 text-sm text-ink-muted">
          <li>Name your organisation: you become its administrator.</li>
          <li>Choose Team Pro or Business and the number of seats on the Business dashboard.</li>
          <li>Invite your colleagues by e-mail: each takes one seat.</li>
        </ol>
        <CreateOrganizationForm />
      </Panel>
    </Screen>
  );
}
