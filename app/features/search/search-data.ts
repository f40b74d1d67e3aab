/** Shape of the search pages' loader data, shared by the server loader and the components. */
import type { SearchResultItem } from "../../../server/services.ts";

export interface SearchPageData {
  /** The term as searched (trimmed); "" when the box was submitted empty. */
  query: string;
  items: SearchResultItem[];
  /** Results in all pages (null when unknown: past the last page). */
  total: number | null;
  /** True when the search stopped counting at its candidate limit: `total` is a lower bound. */
  totalCapped?: boolean;
  nextCursor: string | null;
  /** The cursor of this page (null on the first). */
  cursor: string | null;
  /** A message when the request could not be searched (a stale or edited cursor). */
  error: string | null;
}

/** The URL of another page of the same search. */
export function searchPageUrl(path: string, query: string, cursor: string | null): string {
  const params = new URLSearchParams({ search: query });
  if (cursor) params.set("cursor", cursor);
  return `${path}?${params.toString()}`;
}
