import { NotFoundScreen } from "../components/errors/error-screens.tsx";
import { listingOrNotFound, loadSectionListing } from "../features/content/content.server.ts";
import { Listing } from "../features/content/listing.tsx";
import { FollowSectionButton } from "../features/notifications/follow-section-button.tsx";
import { screenMeta } from "../lib/meta.ts";
import { listingMeta } from "../lib/seo-meta.ts";
import type { Route } from "./+types/section";

export const meta: Route.MetaFunction = (args) => {
  const d = args.loaderData;
  if (!d?.found || d.listing.scope.kind !== "section")
    return screenMeta(args, "Section not found", "This section does not exist.");
  const { section } = d.listing.scope;
  // Same listing as the section's own page (/ai-education …), which is canonical.
  return listingMeta(args, {
    title: section.label,
    description: section.description,
    path: section.path,
    feed: section.slug === "ai-news",
  });
};

export async function loader(args: Route.LoaderArgs) {
  return listingOrNotFound(await loadSectionListing(args, args.params.section), "section");
}

export default function SectionPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.found) return <NotFoundScreen />;
  const { scope } = loaderData.listing;
  return (
    <Listing
      listing={loaderData.listing}
      actions={scope.kind === "section" ? <FollowSectionButton section={scope.section.slug} /> : null}
    />
  );
}
