/**
 * Loader helper of `/content`: one page of the management table through the studio list
 * operation (the same one `GET /api/studio/content` calls), as the signed-in writer, with what the
 * filter controls offer (sections, categories). A URL with a value the operation refuses (an old
 * page link, a hand-edited filter) still shows the list: that value is dropped and the screen
 * says so, instead of an error page.
 */
import type { RouterContextProvider } from "react-router";
import type { StudioList } from "../../../../server/services.ts";
import { actorContext, servicesContext } from "../../../lib/context.ts";
import { FILTER_NAMES, type FilterName, listParams, readListUrl, type StudioFilters } from "./list-params.ts";

export interface StudioListPage {
  list: StudioList;
  filters: StudioFilters;
  cursor: string | null;
  sections: { slug: string; label: string }[];
  categories: { slug: string; label: string }[];
  /** Parts of the URL that were not understood and were left out. */
  notices: string[];
  /** The server's clock when the page was read: relative times are counted from it. */
  now: number;
}

/** The screen opens for a role the list operation refuses (it needs content:create or content:edit). */
export interface StudioListRefused {
  refused: string;
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;
const isBadInput = (error: unknown): error is { code: string; field?: Record<string, string> } =>
  codeOf(error) === "BAD_USER_INPUT";

export async function loadStudioList(
  context: Readonly<RouterContextProvider>,
  url: URL,
): Promise<StudioListPage | StudioListRefused> {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const { filters, cursor: requested } = readListUrl(url);
  let cursor = requested;
  const notices: string[] = [];
  let list: StudioList | null = null;
  // At most one retry per parameter: each refusal removes the parameter it names.
  for (let attempt = 0; list === null; attempt += 1) {
    try {
      list = await services.studioList.listForStudio(actor, listParams(filters, cursor));
    } catch (error) {
      if (codeOf(error) === "FORBIDDEN") return { refused: (error as Error).message };
      const field = isBadInput(error) ? Object.keys(error.field ?? {})[0] : undefined;
      if (attempt > FILTER_NAMES.length || field === undefined) throw error;
      if (field === "cursor") {
        cursor = null;
        notices.push("That page link is out of date, so the list starts again from the first page.");
      } else if ((FILTER_NAMES as readonly string[]).includes(field)) {
        filters[field as FilterName] = "";
        notices.push(`The ${field} filter in the link was not understood, so it is not applied.`);
      } else {
        throw error;
      }
    }
  }
  return {
    list,
    filters,
    cursor,
    sections: services.content.sections().map((s) => ({ slug: s.slug, label: s.label })),
    categories: (await services.content.categories()).map((c) => ({ slug: c.slug, label: c.label })),
    notices,
    now: Date.now(),
  };
}
