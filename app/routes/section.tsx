import { listingOrNotFound, loadSectionListing } from "../features/content/content.server.ts";
import { Listing } from "../features/content/listing.tsx";
import { NotFoundScreen } from "../features/errors/error-screens.tsx";
import { screenMeta } from "../lib/meta.ts";
import type { Route } from "./+types/section";

export const meta: Route.MetaFunction = (args) => {
  const d = args.loaderData;
  if (!d?.found || d.listing.scope.kind !== "section")
    return screenMeta(args, "Section not found", "This section does not exist.");
  return screenMeta(args, d.listing.scope.section.label, d.listing.scope.section.description);
};

export async function loader(args: Route.LoaderArgs) {
  return listingOrNotFound(await loadSectionListing(args, args.params.section), "section");
}

export default function SectionPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.found) return <NotFoundScreen />;
  return <Listing listing={loaderData.listing} />;
}
