/**
 * Loader helper of the Repositories tab of /admin/content: every repository (disabled ones too)
 * and every category, through the repositories service as the signed-in platform admin. Others
 * get `allowed: false` and no data (the service refuses them; the screen explains).
 */
import type { RouterContextProvider } from "react-router";
import type {
  GitHubRepository,
  RepositoryCategory,
} from "../../../server/modules/repositories/repositories.service.ts";
import { actorContext, servicesContext } from "../../lib/context.ts";
import type { AdminCategoryRow, AdminRepositoryRow } from "./admin-rows.ts";

export type RepositoriesAdminData =
  | { allowed: false }
  | {
      allowed: true;
      repositories: AdminRepositoryRow[];
      categories: AdminCategoryRow[];
      error: string | null;
    };

const label = (r: GitHubRepository) => r.displayName ?? r.fullName ?? r.name ?? r.slug;

export function canManageRepositories(context: Readonly<RouterContextProvider>): boolean {
  return context.get(actorContext).platformAdmin;
}

export async function loadRepositoriesAdmin(
  context: Readonly<RouterContextProvider>,
): Promise<RepositoriesAdminData> {
  const actor = context.get(actorContext);
  if (!actor.platformAdmin) return { allowed: false };
  const service = context.get(servicesContext).repositories;
  try {
    const repositories: GitHubRepository[] = [];
    const categories: RepositoryCategory[] = [];
    let next: string | null = null;
    do {
      const page = await service.listGitHubRepositories(actor, { limit: 100, nextToken: next });
      repositories.push(...page.items);
      next = page.nextToken;
    } while (next && repositories.length < 5000);
    next = null;
    do {
      const page = await service.listRepositoryCategories(actor, { limit: 100, nextToken: next });
      categories.push(...page.items);
      next = page.nextToken;
    } while (next && categories.length < 5000);
    repositories.sort((a, b) => a.sortOrder - b.sortOrder || label(a).localeCompare(label(b)));
    categories.sort(
      (a, b) => a.sortOrder - b.sortOrder || (a.name ?? a.slug).localeCompare(b.name ?? b.slug),
    );
    return {
      allowed: true,
      repositories: repositories.map((r) => ({
        id: r.id,
        slug: r.slug,
        name: r.name,
        fullName: r.fullName,
        owner: r.owner,
        displayName: r.displayName,
        description: r.description,
        category: r.category,
        tags: r.tags,
        isEnabled: r.isEnabled,
        sortOrder: r.sortOrder,
        sourceType: r.sourceType,
        localPath: r.localPath,
        lastSyncAt: r.lastSyncAt,
        lastSyncError: r.lastSyncError,
        lastSyncErrorAt: r.lastSyncErrorAt,
        version: r.version,
      })),
      categories: categories.map((c) => ({
        id: c.id,
        slug: c.slug,
        name: c.name,
        sortOrder: c.sortOrder,
        isVisible: c.isVisible,
        version: c.version,
      })),
      error: null,
    };
  } catch {
    return {
      allowed: true,
      repositories: [],
      categories: [],
      error: "The repositories could not be loaded. Reload the page to try again.",
    };
  }
}
