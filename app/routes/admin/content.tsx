import { Link } from "react-router";
import { Screen } from "../../components/screen.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import {
  type AdminContentTab,
  adminContentAction,
  loadCategoriesTab,
  loadCollectionsTab,
  loadFeaturedTab,
  tabOf,
} from "../../features/admin-content/admin-content.server.ts";
import { CategoriesPanel } from "../../features/admin-content/categories-panel.tsx";
import { CollectionsPanel } from "../../features/admin-content/collections-panel.tsx";
import { FeaturedPanel } from "../../features/admin-content/featured-panel.tsx";
import {
  canManageRepositories,
  loadRepositoriesAdmin,
} from "../../features/repositories-admin/repositories-admin.server.ts";
import { RepositoriesPanel } from "../../features/repositories-admin/repositories-panel.tsx";
import type { ListBase } from "../../features/studio/manage/list-params.ts";
import { ManageContent, NewContentButton } from "../../features/studio/manage/manage-content.tsx";
import { loadStudioList } from "../../features/studio/manage/studio-list.server.ts";
import { requireScreenAccess } from "../../lib/guard.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/content";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/content");

/** The All content tab is the studio's management table, kept on this screen. */
const ALL_CONTENT: ListBase = { path: "/admin/content", params: { tab: "all" } };

/**
 * Platform scope (the content library is the whole installation's; organisation admins get 403).
 * Tabs (`?tab=`): all content (the studio's list, every state and author), featured, categories,
 * collections, and the repositories of /resources.
 */
export async function loader(args: Route.LoaderArgs) {
  requireScreenAccess(args, "/admin/content");
  const { context, request } = args;
  const url = new URL(request.url);
  const tab = tabOf(url);
  const showRepositories = canManageRepositories(context);
  const base = {
    showRepositories,
    all: null,
    featured: null,
    categories: null,
    collections: null,
    repositories: null,
  };
  switch (tab) {
    case "featured":
      return { ...base, tab, featured: await loadFeaturedTab(args) };
    case "categories":
      return { ...base, tab, categories: await loadCategoriesTab(args) };
    case "collections":
      return { ...base, tab, collections: await loadCollectionsTab(args) };
    case "repositories":
      if (showRepositories) return { ...base, tab, repositories: await loadRepositoriesAdmin(context) };
      return { ...base, tab: "all" as const, all: await loadStudioList(context, url) };
    default:
      return { ...base, tab, all: await loadStudioList(context, url) };
  }
}

export async function action(args: Route.ActionArgs) {
  requireScreenAccess(args, "/admin/content");
  return adminContentAction(args);
}

const TABS: { id: AdminContentTab; label: string }[] = [
  { id: "all", label: "All content" },
  { id: "featured", label: "Featured" },
  { id: "categories", label: "Categories" },
  { id: "collections", label: "Collections" },
  { id: "repositories", label: "Repositories" },
];

function Tabs({ current, showRepositories }: { current: string; showRepositories: boolean }) {
  return (
    <nav aria-label="Content library sections" className="-mx-1 overflow-x-auto border-b border-line">
      <ul className="flex min-w-max gap-1 px-1">
        {TABS.filter((t) => t.id !== "repositories" || showRepositories).map((t) => (
          <li key={t.id}>
            <Link
              to={`/admin/content?tab=${t.id}`}
              aria-current={current === t.id ? "page" : undefined}
              className={cx(
                "-mb-px block border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors",
                current === t.id
                  ? "border-accent text-ink"
                  : "border-transparent text-ink-muted hover:border-line-strong hover:text-ink",
              )}
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default function AdminContent({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData ?? null;
  const { tab } = loaderData;
  return (
    <Screen
      path="/admin/content"
      purpose="The whole content library: every item in every state and by every author, what the home page features and in which order, the categories readers browse, the collections, and the repositories of /resources."
      actions={tab === "all" ? <NewContentButton /> : undefined}
    >
      <Tabs current={tab} showRepositories={loaderData.showRepositories} />
      <div role="status" aria-live="polite">
        {result ? (
          <Notice
            tone={result.ok ? "ok" : result.stale ? "warn" : "danger"}
            title={result.ok ? undefined : result.stale ? "Changed meanwhile: reload" : "Nothing was changed"}
          >
            {result.message}
            {result.stale ? (
              <>
                {" "}
                <Link to={`/admin/content?tab=${tab}`} reloadDocument className="font-medium underline">
                  Reload
                </Link>
              </>
            ) : null}
          </Notice>
        ) : null}
      </div>
      {loaderData.all ? (
        "refused" in loaderData.all ? (
          <Notice tone="warn">{loaderData.all.refused}</Notice>
        ) : (
          <ManageContent
            key={`${JSON.stringify(loaderData.all.filters)}|${loaderData.all.cursor ?? ""}`}
            page={loaderData.all}
            base={ALL_CONTENT}
          />
        )
      ) : null}
      {loaderData.featured ? <FeaturedPanel tab={loaderData.featured} /> : null}
      {loaderData.categories ? <CategoriesPanel list={loaderData.categories} result={result} /> : null}
      {loaderData.collections ? <CollectionsPanel tab={loaderData.collections} result={result} /> : null}
      {loaderData.repositories?.allowed ? (
        <RepositoriesPanel
          repositories={loaderData.repositories.repositories}
          categories={loaderData.repositories.categories}
          error={loaderData.repositories.error}
        />
      ) : null}
    </Screen>
  );
}
