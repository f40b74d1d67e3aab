import { Screen } from "../../components/screen.tsx";
import { loadReports } from "../../features/learning/learning.server.ts";
import { ReportsTeaser, ReportView } from "../../features/learning/reports-view.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/reports";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/dashboard/reports");

export async function loader(args: Route.LoaderArgs) {
  return loadReports(args, new URL(args.request.url));
}

export default function Reports({ loaderData }: Route.ComponentProps) {
  return (
    <Screen
      path="/dashboard/reports"
      purpose="Your reading and learning over time: minutes and items per day, lessons completed, sections and streaks."
    >
      {loaderData.mode === "report" ? <ReportView report={loaderData.report} /> : <ReportsTeaser />}
    </Screen>
  );
}
