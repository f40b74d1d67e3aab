/**
 * Loader helper of the search pages (`/?search=…` for readers, `/content?search=…` for content
 * managers). It calls the search service, which applies access: locked items come with their
 * excerpt only. An empty term finds nothing; a bad cursor is explained, not thrown.
 */
import type { RouterContextProvider } from "react-router";
import { actorContext, servicesContext } from "../../lib/context.ts";
import type { SearchPageData } from "./search-data.ts";

export const SEARCH_PAGE_SIZE = 20;

interface LoaderBase {
  context: Readonly<RouterContextProvider>;
  url: URL;
}

/** The search term of the URL (`search`), trimmed; null when the URL is not a search. */
export function searchTermOf(url: URL): string | null {
  const raw = url.searchParams.get("search");
  return raw === null ? null : raw.trim();
}

/** Results for the URL's `search` (and `cursor`, `section`), or null when the URL is not a search. */
export async function loadSearch(
  { context, url }: LoaderBase,
  options: { limit?: number } = {},
): Promise<SearchPageData | null> {
  const term = searchTermOf(url);
  if (term === null) return null;
  const cursor = url.searchParams.get("cursor") || null;
  const empty: SearchPageData = { query: term, items: [], total: 0, nextCursor: null, cursor, error: null };
  if (term === "") return empty;
  const services = context.get(servicesContext);
  if (services.config.featureFlags.search === false) {
    return { ...empty, total: null, error: "Search is turned off on this site." };
  }
  const actor = context.get(actorContext);
  try {
    const result = await services.search.search(actor, {
      q: term,
      section: url.searchParams.get("section")?.trim() || undefined,
      limit: options.limit ?? SEARCH_PAGE_SIZE,
      cursor,
    });
    return { ...result, cursor, error: null };
  } catch (error) {
    if ((error as { code?: unknown })?.code === "BAD_USER_INPUT") {
      return { ...empty, total: null, error: "This results page is out of date. Start the search again." };
    }
    throw error;
  }
}
