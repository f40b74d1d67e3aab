import { Screen } from "../../components/screen.tsx";
import { loadDashboard } from "../../features/dashboard/dashboard.server.ts";
import { DashboardView } from "../../features/dashboard/dashboard-view.tsx";
import { CompletionsPanel } from "../../features/learning/completions-panel.tsx";
import { loadCompletions } from "../../features/learning/learning.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/dashboard");

export const loader = async (args: Route.LoaderArgs) => {
  const [dashboard, completions] = await Promise.all([loadDashboard(args), loadCompletions(args)]);
  return { ...dashboard, completions };
};

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { user } = useAuth();
  const first = user.fullName?.split(" ")[0] ?? user.username ?? "there";
  return (
    <Screen
      path="/dashboard"
      purpose="Pick up where you left off, find what you saved and what is new in your plan."
    >
      <DashboardView
        firstName={first}
        data={loaderData.dashboard}
        completions={loaderData.completions ? <CompletionsPanel data={loaderData.completions} /> : null}
      />
    </Screen>
  );
}
