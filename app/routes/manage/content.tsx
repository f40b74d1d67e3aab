import type { MouseEvent, ReactNode } from "react";
import { Link } from "react-router";
import type { Tier } from "../../../core/index.ts";
import type { ContentType } from "../../../server/services.ts";
import { FeatureScreen } from "../../components/feature-screen.tsx";
import { TierBadge } from "../../components/tier-badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { loadLibraryPage } from "../../features/content/library-list.server.ts";
import { LIBRARY_PAGE_SIZE, type LibraryPage } from "../../features/content/library-list.ts";
import { useLibraryPages } from "../../features/content/use-library-pages.ts";
import { loadSearch } from "../../features/search/search.server.ts";
import { searchPageUrl } from "../../features/search/search-data.ts";
import { Highlighted, resultCountText } from "../../features/search/search-results.tsx";
import { contentPath, formatDate, TYPE_LABEL } from "../../lib/format.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/content";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/content");

export async function loader(args: Route.LoaderArgs) {
  const { context, url } = args;
  // `/content?search=…` (the sidebar search for content managers): the same search service as `/?search=`.
  const results = await loadSearch(args, { limit: LIBRARY_PAGE_SIZE });
  if (results) {
    return {
      mode: "search" as const,
      items: results.items,
      nextCursor: results.nextCursor,
      cursor: results.cursor,
      search: results.query,
      total: results.total,
      error: results.error,
    };
  }
  // The library: the data API's listContentByStatusAndUpdatedAt, so "Load more" continues it over /graphql.
  const cursor = url.searchParams.get("cursor") || null;
  const page = await loadLibraryPage(context, cursor);
  return { mode: "library" as const, ...page, cursor: page.error ? null : cursor };
}

interface TableRow {
  id: string;
  slug: string;
  title: string;
  type: ContentType | null;
  section: string | null;
  tier: Tier;
  publishedAt: string | null;
  updatedAt?: string;
  snippet?: Parameters<typeof Highlighted>[0]["parts"];
}

const th = "px-4 py-2 font-medium";
const td = "px-4 py-2.5";
const pagerLink = "text-sm font-medium text-accent-text hover:underline";

function ContentTable({
  rows,
  caption,
  empty,
  showUpdated,
}: {
  rows: readonly TableRow[];
  caption: string;
  empty: string;
  showUpdated: boolean;
}) {
  return (
    <Card className="overflow-hidden">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-sunken text-xs uppercase tracking-wider text-ink-muted">
            <tr>
              <th scope="col" className={th}>
                Title
              </th>
              <th scope="col" className={th}>
                Type
              </th>
              <th scope="col" className={th}>
                Section
              </th>
              <th scope="col" className={th}>
                Plan
              </th>
              <th scope="col" className={th}>
                Published
              </th>
              {showUpdated ? (
                <th scope="col" className={th}>
                  Updated
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((item) => (
              <tr key={item.id}>
                <td className={td}>
                  <Link
                    to={contentPath(item.slug)}
                    className="font-medium text-ink hover:text-accent-text hover:underline"
                  >
                    {item.title}
                  </Link>
                  <span className="block font-mono text-xs text-ink-subtle">{item.slug}</span>
                  {item.snippet && item.snippet.length > 0 ? (
                    <span className="mt-1 block max-w-prose text-xs text-ink-muted">
                      <Highlighted parts={item.snippet} />
                    </span>
                  ) : null}
                </td>
                <td className={`${td} text-ink-muted`}>{item.type ? TYPE_LABEL[item.type] : "—"}</td>
                <td className={`${td} text-ink-muted`}>{item.section ?? "—"}</td>
                <td className={td}>
                  <TierBadge tier={item.tier} />
                </td>
                <td className={`${td} whitespace-nowrap text-ink-muted`}>
                  {formatDate(item.publishedAt) ?? "—"}
                </td>
                {showUpdated ? (
                  <td className={`${td} whitespace-nowrap text-ink-muted`}>
                    {formatDate(item.updatedAt) ?? "—"}
                  </td>
                ) : null}
              </tr>
            ))}
            {rows.length === 0 ? (
              <tr>
                <td colSpan={showUpdated ? 6 : 5} className="px-4 py-6 text-center text-ink-muted">
                  {empty}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function Pager({ first, next }: { first: string | null; next: ReactNode }) {
  if (!first && !next) return null;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-4">
      {first ? (
        <Link to={first} className={pagerLink}>
          First page
        </Link>
      ) : (
        <span />
      )}
      {next}
    </nav>
  );
}

const libraryUrl = (cursor: string | null) =>
  cursor ? `/content?cursor=${encodeURIComponent(cursor)}` : "/content";

/**
 * The published library. Without JavaScript, "Load more" is a link to the next page (`?cursor=`,
 * rendered on the server); with it, the next page is fetched from the data API and appended.
 */
function Library({
  initial,
  cursor,
  error,
}: {
  initial: LibraryPage;
  cursor: string | null;
  error: string | null;
}) {
  const pages = useLibraryPages(initial);
  const onLoadMore = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void pages.loadMore();
  };
  return (
    <>
      {error ? (
        <Notice tone="warn" role="status">
          {error}
        </Notice>
      ) : null}
      <ContentTable rows={pages.rows} caption="Published content" empty="No published content." showUpdated />
      {pages.error ? (
        <Notice tone="danger" role="alert" title="Could not load more content">
          {pages.error}
        </Notice>
      ) : null}
      <p role="status" className="sr-only">
        {pages.announcement}
      </p>
      <Pager
        first={cursor ? libraryUrl(null) : null}
        next={
          pages.nextCursor ? (
            <Link
              to={libraryUrl(pages.nextCursor)}
              onClick={onLoadMore}
              aria-disabled={pages.loading || undefined}
              aria-busy={pages.loading || undefined}
              className="inline-flex h-9 items-center rounded-lg border border-line bg-elevated px-3 text-sm font-medium text-ink hover:bg-sunken aria-disabled:opacity-60"
            >
              {pages.loading ? "Loading…" : pages.error ? "Try again" : "Load more"}
            </Link>
          ) : null
        }
      />
    </>
  );
}

export default function ContentManagement({ loaderData }: Route.ComponentProps) {
  const search = loaderData.mode === "search" ? loaderData.search : null;
  return (
    <FeatureScreen
      path="/content"
      purpose="Find, edit and publish the hub's articles, courses, videos and pages. Below is the published library, most recently updated first."
      coming="editing, drafts, the review workflow, scheduling and unpublishing."
    >
      <search>
        <form action="/content" method="get" className="flex flex-wrap items-center gap-2">
          <label htmlFor="content-search" className="sr-only">
            Search content
          </label>
          <input
            id="content-search"
            name="search"
            type="search"
            defaultValue={search ?? ""}
            placeholder="Search titles, summaries, tags and text"
            className="h-9 min-w-0 flex-1 rounded-lg border border-line bg-elevated px-3 text-sm text-ink placeholder:text-ink-subtle focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30"
          />
          <button
            type="submit"
            className="h-9 rounded-lg border border-line bg-elevated px-3 text-sm font-medium text-ink hover:bg-sunken"
          >
            Search
          </button>
        </form>
      </search>
      {loaderData.mode === "search" ? (
        <>
          <Notice
            tone={loaderData.error ? "warn" : "info"}
            title={loaderData.search ? `Results for “${loaderData.search}”` : "Search"}
            role="status"
          >
            {loaderData.error ??
              (loaderData.search
                ? `${resultCountText(loaderData.total, loaderData.items.length)} among published content, best match first.`
                : "Type a word to search.")}{" "}
            <Link to="/content" className="font-medium text-accent-text hover:underline">
              Show all content
            </Link>
          </Notice>
          <ContentTable
            rows={loaderData.items}
            caption="Published content"
            empty={loaderData.search ? `No results for “${loaderData.search}”.` : "No published content."}
            showUpdated={false}
          />
          <Pager
            first={loaderData.cursor ? searchPageUrl("/content", loaderData.search, null) : null}
            next={
              loaderData.nextCursor ? (
                <Link
                  to={searchPageUrl("/content", loaderData.search, loaderData.nextCursor)}
                  className={pagerLink}
                >
                  Next page
                </Link>
              ) : null
            }
          />
        </>
      ) : (
        <Library
          key={loaderData.cursor ?? ""}
          initial={{ items: loaderData.items, nextCursor: loaderData.nextCursor }}
          cursor={loaderData.cursor}
          error={loaderData.error}
        />
      )}
    </FeatureScreen>
  );
}
