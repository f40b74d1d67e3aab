import { Link } from "react-router";
import { FeatureScreen } from "../../components/feature-screen.tsx";
import { TierBadge } from "../../components/tier-badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import { cx } from "../../components/ui/cx.ts";
import {
  canManageRepositories,
  loadRepositoriesAdmin,
} from "../../features/repositories-admin/repositories-admin.server.ts";
import { RepositoriesPanel } from "../../features/repositories-admin/repositories-panel.tsx";
import { servicesContext } from "../../lib/context.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/content";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/content");

/**
 * Platform scope (the content library is the whole installation's; organisation admins get 403).
 * Two tabs: the content categories and the repositories of /resources (`?tab=repositories`).
 */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/content");
  const { context, request } = args;
  const tab = new URL(request.url).searchParams.get("tab") === "repositories" ? "repositories" : "categories";
  const showRepositories = canManageRepositories(context);
  if (tab === "repositories" && showRepositories) {
    return {
      tab,
      showRepositories,
      categories: [],
      repositories: await loadRepositoriesAdmin(context),
    } as const;
  }
  return {
    tab: "categories",
    showRepositories,
    categories: await context.get(servicesContext).content.categories(),
    repositories: null,
  } as const;
}

function Tabs({ current, showRepositories }: { current: string; showRepositories: boolean }) {
  if (!showRepositories) return null;
  const tabs = [
    { id: "categories", label: "Content categories", to: "/admin/content" },
    { id: "repositories", label: "Repositories", to: "/admin/content?tab=repositories" },
  ];
  return (
    <nav aria-label="Content library sections" className="flex gap-1 border-b border-line">
      {tabs.map((t) => (
        <Link
          key={t.id}
          to={t.to}
          aria-current={current === t.id ? "page" : undefined}
          className={cx(
            "-mb-px border-b-2 px-3 py-2 text-sm font-medium transition-colors",
            current === t.id
              ? "border-accent text-ink"
              : "border-transparent text-ink-muted hover:border-line-strong hover:text-ink",
          )}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

export default function AdminContent({ loaderData }: Route.ComponentProps) {
  const repositories = loaderData.repositories;
  if (loaderData.tab === "repositories" && repositories?.allowed) {
    return (
      <FeatureScreen
        path="/admin/content"
        purpose="The source repositories of /resources: add a local git folder or a public GitHub repository, sync it, and choose its category, tags, order and whether visitors see it."
        coming="scheduled syncs per repository and a history of past syncs."
      >
        <Tabs current="repositories" showRepositories />
        <RepositoriesPanel
          repositories={repositories.repositories}
          categories={repositories.categories}
          error={repositories.error}
        />
      </FeatureScreen>
    );
  }
  return (
    <FeatureScreen
      path="/admin/content"
      purpose="The content library's structure: categories, their sections and default plans, and how many items each holds."
      coming="creating, renaming and retiring categories, and changing their default plan."
    >
      <Tabs current="categories" showRepositories={loaderData.showRepositories} />
      <Card className="overflow-hidden">
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="border-b border-line px-4 py-3 text-left font-semibold text-ink">
              Categories
            </caption>
            <thead className="bg-sunken text-xs uppercase tracking-wider text-ink-muted">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Category
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Section
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Default plan
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Items
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {loaderData.categories.map((c) => (
                <tr key={c.id}>
                  <td className="px-4 py-2.5">
                    <Link
                      to={`/category/${encodeURIComponent(c.slug)}`}
                      className="font-medium text-ink hover:underline"
                    >
                      {c.label}
                    </Link>
                  </td>
                  <td className="px-4 py-2.5 text-ink-muted">{c.section ?? "—"}</td>
                  <td className="px-4 py-2.5">
                    <TierBadge tier={c.defaultTier} />
                  </td>
                  <td className="px-4 py-2.5 text-right tabular-nums text-ink-muted">{c.itemCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </FeatureScreen>
  );
}
