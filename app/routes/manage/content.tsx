import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { FeatureScreen } from "../../features/account/feature-screen.tsx";
import { contentPath, formatDate, TYPE_LABEL } from "../../features/content/format.ts";
import { TierBadge } from "../../features/content/tier-badge.tsx";
import { loadSearch } from "../../features/search/search.server.ts";
import { searchPageUrl } from "../../features/search/search-data.ts";
import { Highlighted, resultCountText } from "../../features/search/search-results.tsx";
import { servicesContext, userContext } from "../../lib/context.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/content";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/content");

const PAGE_SIZE = 25;

export async function loader(args: Route.LoaderArgs) {
  const { context, url } = args;
  // `/content?search=…` (the sidebar search for content managers): the same search service as `/?search=`.
  const results = await loadSearch(args, { limit: PAGE_SIZE });
  if (results) {
    return {
      items: results.items,
      nextCursor: results.nextCursor,
      cursor: results.cursor,
      search: results.query,
      total: results.total,
      error: results.error,
    };
  }
  const services = context.get(servicesContext);
  const user = context.get(userContext);
  const cursor = url.searchParams.get("cursor");
  const list = await services.content.list(user, { limit: PAGE_SIZE, cursor });
  return { items: list.items, nextCursor: list.nextCursor, cursor, search: null, total: null, error: null };
}

export default function ContentManagement({ loaderData }: Route.ComponentProps) {
  const { items, nextCursor, cursor, search, total, error } = loaderData;
  const pageUrl = (next: string | null) =>
    search !== null
      ? searchPageUrl("/content", search, next)
      : next
        ? `/content?cursor=${encodeURIComponent(next)}`
        : "/content";
  return (
    <FeatureScreen
      path="/content"
      purpose="Find, edit and publish the hub's articles, courses, videos and pages. Below is the published library, newest first."
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
      {search !== null ? (
        <Notice
          tone={error ? "warn" : "info"}
          title={search ? `Results for “${search}”` : "Search"}
          role="status"
        >
          {error ??
            (search
              ? `${resultCountText(total, items.length)} among published content, best match first.`
              : "Type a word to search.")}{" "}
          <Link to="/content" className="font-medium text-accent-text hover:underline">
            Show all content
          </Link>
        </Notice>
      ) : null}
      <Card className="overflow-hidden">
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Published content</caption>
            <thead className="bg-sunken text-xs uppercase tracking-wider text-ink-muted">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Title
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Type
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Section
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Plan
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Published
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {items.map((item) => (
                <tr key={item.id}>
                  <td className="px-4 py-2.5">
                    <Link
                      to={contentPath(item.slug)}
                      className="font-medium text-ink hover:text-accent-text hover:underline"
                    >
                      {item.title}
                    </Link>
                    <span className="block font-mono text-xs text-ink-subtle">{item.slug}</span>
                    {"snippet" in item && item.snippet.length > 0 ? (
                      <span className="mt-1 block max-w-prose text-xs text-ink-muted">
                        <Highlighted parts={item.snippet} />
                      </span>
                    ) : null}
                  </td>
                  <td className="px-4 py-2.5 text-ink-muted">{TYPE_LABEL[item.type]}</td>
                  <td className="px-4 py-2.5 text-ink-muted">{item.section ?? "—"}</td>
                  <td className="px-4 py-2.5">
                    <TierBadge tier={item.tier} />
                  </td>
                  <td className="px-4 py-2.5 whitespace-nowrap text-ink-muted">
                    {formatDate(item.publishedAt) ?? "—"}
                  </td>
                </tr>
              ))}
              {items.length === 0 ? (
                <tr>
                  <td colSpan={5} className="px-4 py-6 text-center text-ink-muted">
                    {search ? `No results for “${search}”.` : "No published content."}
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      </Card>
      {cursor || nextCursor ? (
        <nav aria-label="Pagination" className="flex justify-between">
          {cursor ? (
            <Link to={pageUrl(null)} className="text-sm font-medium text-accent-text hover:underline">
              First page
            </Link>
          ) : (
            <span />
          )}
          {nextCursor ? (
            <Link to={pageUrl(nextCursor)} className="text-sm font-medium text-accent-text hover:underline">
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </FeatureScreen>
  );
}
