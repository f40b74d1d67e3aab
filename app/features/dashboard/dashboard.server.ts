import type { RouterContextProvider } from "react-router";
import { actorContext, servicesContext } from "../../lib/context.ts";

/** The /dashboard loader: the signed-in reader's own dashboard (marks the visit). */
export async function loadDashboard({ context }: { context: Readonly<RouterContextProvider> }) {
  const services = context.get(servicesContext);
  return { dashboard: await services.dashboard.get(context.get(actorContext)) };
}
