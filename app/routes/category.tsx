import { NotFoundScreen } from "../components/errors/error-screens.tsx";
import { listingOrNotFound, loadCategoryListing } from "../features/content/content.server.ts";
import { Listing } from "../features/content/listing.tsx";
import { screenMeta } from "../lib/meta.ts";
import { listingMeta } from "../lib/seo-meta.ts";
import type { Route } from "./+types/category";

export const meta: Route.MetaFunction = (args) => {
  const d = args.loaderData;
  if (!d?.found || d.listing.scope.kind !== "category") {
    return screenMeta(args, "Category not found", "This category does not exist.");
  }
  const { category } = d.listing.scope;
  return listingMeta(args, {
    title: category.label,
    description: category.description ?? `Content in the ${category.label} category.`,
    path: `/category/${encodeURIComponent(category.slug)}`,
  });
};

export async function loader(args: Route.LoaderArgs) {
  return listingOrNotFound(await loadCategoryListing(args, args.params.category), "category");
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.found) return <NotFoundScreen />;
  return <Listing listing={loaderData.listing} />;
}
