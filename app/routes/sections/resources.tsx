import { FolderGit2 } from "lucide-react";
import { Notice } from "../../components/ui/notice.tsx";
import { loadSectionListing } from "../../features/content/content.server.ts";
import { Listing } from "../../features/content/listing.tsx";
import { registryListingMeta } from "../../lib/seo-meta.ts";
import type { Route } from "./+types/resources";

export const meta: Route.MetaFunction = (args) =>
  registryListingMeta(args, "/resources", {
    description:
      args.loaderData?.scope.kind === "section" ? args.loaderData.scope.section.description : undefined,
  });

export async function loader(args: Route.LoaderArgs) {
  const listing = await loadSectionListing(args, "resources");
  if (!listing) throw new Response(null, { status: 404 });
  return listing;
}

export default function Resources({ loaderData }: Route.ComponentProps) {
  return (
    <Listing
      listing={loaderData}
      notice={
        <Notice tone="info" title="Repository browser">
          <span className="inline-flex items-center gap-1.5">
            <FolderGit2 aria-hidden="true" className="size-4" />
            Browsing source repositories with a code viewer arrives in a later release. The templates,
            checklists and playbooks below are available now.
          </span>
        </Notice>
      }
    />
  );
}
