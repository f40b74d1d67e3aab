import { Screen } from "../../components/screen.tsx";
import { loadUserDetail, userAction } from "../../features/admin-users/admin-users.server.ts";
import { UserPage } from "../../features/admin-users/user-page.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { screenMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/user";

export const meta: Route.MetaFunction = (args) =>
  screenMeta(
    args,
    `User: ${args.loaderData?.user.profile.email ?? "account"}`,
    "One user's account: groups, plan, sessions, lockout, MFA, API keys and events.",
  );

/** Same access as /admin/users; a user outside an organisation admin's organisations is 404. */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/users/:userId");
  return loadUserDetail(args, args.params.userId);
}

export async function action(args: Route.ActionArgs) {
  requireScreenAccess(args, "/admin/users/:userId");
  return userAction(args, args.params.userId);
}

export default function AdminUser({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Screen
      path="/admin/users/:userId"
      purpose="Everything about one account, and what an administrator may do with it. Every change is written to the audit log with your name and note."
    >
      <UserPage user={loaderData.user} plans={loaderData.plans} result={actionData ?? null} />
    </Screen>
  );
}
