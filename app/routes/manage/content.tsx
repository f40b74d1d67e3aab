import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { FeatureScreen } from "../../features/account/feature-screen.tsx";
import { contentPath, formatDate, TYPE_LABEL } from "../../features/content/format.ts";
import { TierBadge } from "../../features/content/tier-badge.tsx";
import { servicesContext, userContext } from "../../lib/context.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/content";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/content");

export async function loader({ context, url }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const user = context.get(userContext);
  const cursor = url.searchParams.get("cursor");
  const list = await services.content.list(user, { limit: 25, cursor });
  return {
    items: list.items,
    nextCursor: list.nextCursor,
    cursor,
    search: url.searchParams.get("search")?.trim() || null,
  };
}

export default function ContentManagement({ loaderData }: Route.ComponentProps) {
  const { items, nextCursor, cursor, search } = loaderData;
  return (
    <FeatureScreen
      path="/content"
      purpose="Find, edit and publish the hub's articles, courses, videos and pages. Below is the published library, newest first."
      coming="editing, drafts, the review workflow, scheduling and unpublishing."
    >
      {search ? (
        <Notice tone="info" title="Search arrives in the next release" role="status">
          You searched for “{search}”. Until search ships, the list below shows every published item.
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
                    No published content.
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
            <Link to="/content" className="text-sm font-medium text-accent-text hover:underline">
              First page
            </Link>
          ) : (
            <span />
          )}
          {nextCursor ? (
            <Link
              to={`/content?cursor=${encodeURIComponent(nextCursor)}`}
              className="text-sm font-medium text-accent-text hover:underline"
            >
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </FeatureScreen>
  );
}
