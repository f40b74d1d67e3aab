import { loadSectionListing } from "../../features/content/content.server.ts";
import { Listing } from "../../features/content/listing.tsx";
import { FollowSectionButton } from "../../features/notifications/follow-section-button.tsx";
import { registryListingMeta } from "../../lib/seo-meta.ts";
import type { Route } from "./+types/ai-education";

export const meta: Route.MetaFunction = (args) =>
  registryListingMeta(args, "/ai-education", {
    description:
      args.loaderData?.scope.kind === "section" ? args.loaderData.scope.section.description : undefined,
  });

export async function loader(args: Route.LoaderArgs) {
  const listing = await loadSectionListing(args, "ai-education");
  if (!listing) throw new Response(null, { status: 404 });
  return listing;
}

export default function AiEducation({ loaderData }: Route.ComponentProps) {
  return <Listing listing={loaderData} actions={<FollowSectionButton section="ai-education" />} />;
}
