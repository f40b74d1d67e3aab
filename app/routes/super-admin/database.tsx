import { Screen } from "../../components/screen.tsx";
import { DatabaseView } from "../../features/operations/database-view.tsx";
import { databaseAction, loadDatabase } from "../../features/operations/operations.server.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/database";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin/database");

/** Owner scope: the route guard answers 403 to everyone else; the service checks again. */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/super-admin/database");
  return { view: await loadDatabase(args) };
}

export async function action(args: Route.ActionArgs) {
  requireScreenAccess(args, "/super-admin/database");
  return databaseAction(args);
}

export default function Database({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Screen
      path="/super-admin/database"
      purpose="The database's migrations, its tables with row counts and sizes, an integrity check on demand and a consistent backup."
    >
      <DatabaseView view={loaderData.view} action={actionData ?? null} />
    </Screen>
  );
}
