import { Panel } from "../../components/feature-screen.tsx";
import { Screen } from "../../components/screen.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { deletedEmail, loadUserList } from "../../features/admin-users/admin-users.server.ts";
import { UserFilters, UsersTable } from "../../features/admin-users/user-list.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/users";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/users");

/** Organisation scope: an organisation administrator sees and manages only its own members. */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/users");
  const list = await loadUserList(args);
  // The notice after a deletion names the address only when no account has it any more.
  const asked = new URL(args.request.url).searchParams.get("deleted")?.trim().toLowerCase() ?? "";
  const deleted = asked && (await deletedEmail(args, asked)) ? asked : null;
  return { ...list, deleted };
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { page, filters, filterError, groups, organisations, scopeOrgs, deleted } = loaderData;
  return (
    <Screen
      path="/admin/users"
      purpose={
        scopeOrgs === null
          ? "Every account of the hub: find a user by the start of their e-mail, username or name, filter and sort, then open their page to change groups and plan, unlock, reset two-factor, suspend or delete."
          : `The members of ${organisations.map((o) => o.name).join(", ") || "your organisation"}: find them, open their page to unlock, sign out, suspend or change their organisation role.`
      }
    >
      {deleted ? (
        <Notice tone="ok" role="status">
          Deleted {deleted} and their data.
        </Notice>
      ) : null}
      <Panel title="Users">
        <div className="space-y-5">
          <UserFilters
            filters={filters}
            groups={groups}
            organisations={organisations}
            scoped={scopeOrgs !== null}
            error={filterError}
          />
          {filterError ? (
            <Notice tone="danger" role="alert">
              {filterError.message}
            </Notice>
          ) : null}
          {page ? <UsersTable page={page} filters={filters} /> : null}
        </div>
      </Panel>
    </Screen>
  );
}
