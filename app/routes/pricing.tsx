import { loadTierInventory } from "../features/content/content.server.ts";
import { loadPricing } from "../features/pricing/pricing.server.ts";
import { PricingView } from "../features/pricing/pricing-view.tsx";
import { registryListingMeta } from "../lib/seo-meta.ts";
import type { Route } from "./+types/pricing";

export const meta: Route.MetaFunction = (args) =>
  registryListingMeta(args, "/pricing", {
    description:
      "Compare the Free, Basic, Pro and Enterprise plans, their monthly and yearly prices, and what each one unlocks in the library; team plans per seat.",
  });

export async function loader(args: Route.LoaderArgs) {
  const [inventory, pricing] = await Promise.all([loadTierInventory(args), loadPricing(args)]);
  return { inventory, pricing };
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  return <PricingView data={loaderData.pricing} inventory={loaderData.inventory} />;
}
