/**
 * The content-management list (`/content`): the published library, most recently updated first,
 * 25 rows a page. The first page is rendered on the server (`library-list.server.ts`); "Load more"
 * asks the data API for the next pages with the same query, so the server's `cursor` and the
 * API's `nextToken` are the same opaque value (one keyset over content_status_updatedAt_idx).
 */
import { parseTier, type Tier } from "../../../core/index.ts";
import type { ContentType } from "../../../server/services.ts";
import { graphql } from "../../lib/graphql-client.ts";

export const LIBRARY_PAGE_SIZE = 25;

/** One row of the list, as the page shows it. */
export interface LibraryRow {
  id: string;
  slug: string;
  title: string;
  type: ContentType | null;
  section: string | null;
  tier: Tier;
  publishedAt: string | null;
  updatedAt: string;
}

export interface LibraryPage {
  items: LibraryRow[];
  nextCursor: string | null;
}

/** The fields of a content record a row needs (a data API item or a service view). */
export interface LibrarySource {
  id: string;
  slug: string;
  title: string;
  type: string;
  section: string | null;
  tier: string;
  publishedAt: string | null;
  updatedAt: string;
}

const CONTENT_TYPES: readonly ContentType[] = [
  "article",
  "course",
  "video",
  "markdown",
  "category",
  "collection",
];

export function toLibraryRow(item: LibrarySource): LibraryRow {
  return {
    id: item.id,
    slug: item.slug,
    title: item.title,
    type: (CONTENT_TYPES as readonly string[]).includes(item.type) ? (item.type as ContentType) : null,
    section: item.section,
    tier: parseTier(item.tier) ?? "Free",
    publishedAt: item.publishedAt,
    updatedAt: item.updatedAt,
  };
}

/** The data API query behind the list (also what the server loader runs, through the same service). */
export const LIBRARY_PAGE_QUERY = graphql<
  { listContentByStatusAndUpdatedAt: { items: LibrarySource[]; nextToken: string | null } },
  { limit: number; nextToken: string | null }
>(`query ContentLibraryPage($limit: Int, $nextToken: String) {
  listContentByStatusAndUpdatedAt(status: "published", sortDirection: DESC, limit: $limit, nextToken: $nextToken) {
    items { id slug title type section tier publishedAt updatedAt }
    nextToken
  }
}`);
