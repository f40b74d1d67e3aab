import { Screen } from "../../components/screen.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { loadReviewQueue } from "../../features/studio/review-queue.server.ts";
import { ReviewQueueView } from "../../features/studio/review-queue.tsx";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/review";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/review");

/** Content writers; the review queue operation checks it again. Filtered and paged by the URL. */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/review");
  return loadReviewQueue(args.context, new URL(args.request.url));
}

export default function Review({ loaderData }: Route.ComponentProps) {
  return (
    <Screen
      path="/review"
      purpose="Published items whose review-by date has passed or comes within two weeks, the one due first at the top. Check each against what has changed since, edit it if needed, then mark it reviewed: readers stop seeing “May be out of date”."
    >
      {"refused" in loaderData ? (
        <Notice tone="warn" title="Your role does not review content">
          {loaderData.refused} Ask a content manager or an administrator for a content role.
        </Notice>
      ) : (
        <ReviewQueueView key={`${loaderData.section ?? ""}|${loaderData.cursor ?? ""}`} page={loaderData} />
      )}
    </Screen>
  );
}
