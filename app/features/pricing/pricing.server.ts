/**
 * The pricing page's loader: the offered plans and what each unlocks (plans service), the chosen
 * interval (`?interval=year`, else month) and who is looking.
 */
import type { RouterContextProvider } from "react-router";
import { actorContext, servicesContext } from "../../lib/context.ts";
import type { PricingData } from "./pricing-data.ts";

export async function loadPricing({
  context,
  request,
}: {
  context: Readonly<RouterContextProvider>;
  request: Request;
}): Promise<PricingData> {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const [plans, unlocks] = await Promise.all([services.plans.list(), services.plans.unlocks()]);
  const signedIn = actor.kind === "user";
  return {
    plans,
    unlocks,
    interval: new URL(request.url).searchParams.get("interval") === "year" ? "year" : "month",
    viewer: {
      signedIn,
      tier: signedIn ? (actor.tier ?? "Free") : null,
      // Platform admins (adminOrgs null) are not an organisation's admin by that alone.
      orgAdmin: signedIn && Array.isArray(actor.adminOrgs) && actor.adminOrgs.length > 0,
    },
  };
}
