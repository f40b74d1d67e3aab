import { DeferredComments } from "../features/comments/deferred-comments.tsx";
import { loadContentPage } from "../features/content/content.server.ts";
import { contentMeta } from "../features/content/content-meta.ts";
import { ContentNotFound, ContentView } from "../features/content/content-view.tsx";
import type { Route } from "./+types/content-page";

export const meta: Route.MetaFunction = (args) => contentMeta(args, args.loaderData);

/** A writer's preview answers with no-store and noindex (set by the loader). */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader(args: Route.LoaderArgs) {
  return loadContentPage(args, [args.params.slug]);
}

export default function ContentPageRoute({ loaderData }: Route.ComponentProps) {
  if (!loaderData.page) return <ContentNotFound error={loaderData.error} />;
  return (
    <>
      <ContentView data={loaderData} />
      <DeferredComments
        contentId={loaderData.page.item.id}
        readable={loaderData.page.access.kind === "granted" && !loaderData.preview}
      />
    </>
  );
}
