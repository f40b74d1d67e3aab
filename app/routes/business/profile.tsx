import { Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { loadMyOrganization } from "../../features/business/business.server.ts";
import { formatDate } from "../../features/business/format.ts";
import { OrgDetailsForm } from "../../features/business/org-details-form.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/business/profile");

export async function loader(args: Route.LoaderArgs) {
  return { organization: await loadMyOrganization(args) };
}

export default function BusinessProfile({ loaderData }: Route.ComponentProps) {
  const org = loaderData.organization;
  const purpose = "Your organisation's name, domain and details as the hub knows them.";
  if (!org) {
    return (
      <Screen path="/business/profile" purpose={purpose}>
        <Notice tone="warn" title="No organisation">
          Your account is not part of an organisation.
        </Notice>
      </Screen>
    );
  }
  return (
    <Screen path="/business/profile" purpose={purpose}>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Panel title="Organisation">
          <KeyValueList
            rows={[
              ["Name", org.name],
              ["Identifier", org.slug],
              ["Domain", org.domain ?? "—"],
              ["Created", formatDate(org.createdAt)],
              [
                "Seats",
                org.seats.total === null
                  ? `${org.seats.used} used`
                  : `${org.seats.used} of ${org.seats.total} used`,
              ],
            ]}
          />
        </Panel>
        {org.viewer.canEdit ? (
          <Panel title="Edit details">
            <OrgDetailsForm
              key={`${org.name}|${org.domain ?? ""}`}
              slug={org.slug}
              name={org.name}
              domain={org.domain}
            />
          </Panel>
        ) : (
          <Notice tone="info" title="Read only">
            Only your organisation's administrators can change these details.
          </Notice>
        )}
      </div>
    </Screen>
  );
}
