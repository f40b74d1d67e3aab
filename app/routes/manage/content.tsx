import { Screen } from "../../components/screen.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { ManageContent, NewContentButton } from "../../features/studio/manage/manage-content.tsx";
import { loadStudioList } from "../../features/studio/manage/studio-list.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/content";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/content");

/** Every item the writer may manage, filtered and paged by the URL (works without JavaScript). */
export async function loader({ context, url }: Route.LoaderArgs) {
  return loadStudioList(context, url);
}

export default function ContentManagement({ loaderData }: Route.ComponentProps) {
  return (
    <Screen
      path="/content"
      purpose="Every article, course, video and page in every state, from first draft to archive: find it, open it in the editor, or publish, archive and re-file several at once."
      actions={"refused" in loaderData ? undefined : <NewContentButton />}
    >
      {"refused" in loaderData ? (
        <Notice tone="warn" title="Your role does not manage content">
          {loaderData.refused} Ask a content manager or an administrator for a content role.
        </Notice>
      ) : (
        <ManageContent
          key={`${JSON.stringify(loaderData.filters)}|${loaderData.cursor ?? ""}`}
          page={loaderData}
        />
      )}
    </Screen>
  );
}
