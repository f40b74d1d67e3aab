/**
 * Loader helper of `/content`: the first (or `cursor`) page of the published library through the
 * data API's Content service (`listContentByStatusAndUpdatedAt`, status "published", newest update
 * first), as the signed-in user. The page's "Load more" continues with the same query over
 * `/graphql`; without JavaScript the `?cursor=` link serves the next page from here.
 */
import type { RouterContextProvider } from "react-router";
import { actorContext, servicesContext } from "../../lib/context.ts";
import { LIBRARY_PAGE_SIZE, type LibraryPage, toLibraryRow } from "./library-list.ts";

export async function loadLibraryPage(
  context: Readonly<RouterContextProvider>,
  cursor: string | null,
): Promise<LibraryPage & { error: string | null }> {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const list = (nextToken: string | null) =>
    services.contentModels.contents.listByKey(actor, "listContentByStatusAndUpdatedAt", {
      key: "published",
      sortDirection: "DESC",
      limit: LIBRARY_PAGE_SIZE,
      nextToken,
    });
  try {
    const page = await list(cursor);
    return { items: page.items.map(toLibraryRow), nextCursor: page.nextCursor, error: null };
  } catch (error) {
    if (cursor && (error as { code?: unknown } | null)?.code === "BAD_USER_INPUT") {
      const page = await list(null);
      return {
        items: page.items.map(toLibraryRow),
        nextCursor: page.nextCursor,
        error: "That page link is out of date, so the list starts again from the top.",
      };
    }
    throw error;
  }
}
