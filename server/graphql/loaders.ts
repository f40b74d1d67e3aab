/**
 * Per-request DataLoaders: nested fields of a list (a content's author name, category and items,
 * an item's content, a comment's author and content, a subscription's user, a repository's
 * category, files, branches, issues and workflows, a cached row's repository) are fetched in one
 * query per field per level, whatever the list's length.
 * Each loader reads through the services with the request's actor, so batching never widens
 * access; a loader lives for one request only (no cross-request cache).
 */
import DataLoader from "dataloader";
import type { Actor } from "../modules/actor.ts";
import type { ContentCategory } from "../modules/content/content-category.repo.ts";
import type { ContentItemView } from "../modules/content/content-item.service.ts";
import type { ContentView } from "../modules/content/content-projection.ts";
import type { ChildKind, ChildRows } from "../modules/repositories/repositories.repo.ts";
import type { GitHubRepository, RepositoryCategory } from "../modules/repositories/repositories.service.ts";
import type { UserView } from "../modules/users/users.service.ts";
import type { GraphQLServices } from "./graphql-services.ts";

const MAX_BATCH = 100;

function byId<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): (T | null)[] {
  const map = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => map.get(id) ?? null);
}

function groupBy<T>(keys: readonly string[], rows: readonly T[], keyOf: (row: T) => string): T[][] {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const list = map.get(key);
    if (list) list.push(row);
    else map.set(key, [row]);
  }
  return keys.map((key) => map.get(key) ?? []);
}

export function createLoaders(services: GraphQLServices, actor: Actor) {
  const content = () => services.content;
  /** Repository id → its cached rows of one kind (at most NESTED_LIMIT each). */
  const children = <K extends ChildKind>(kind: K) =>
    new DataLoader<string, ChildRows[K][]>(
      async (ids) =>
        groupBy(
          ids,
          await services.repositories.listChildrenByRepositoryIds(actor, kind, ids),
          (r) => r.repositoryId,
        ),
      { maxBatchSize: MAX_BATCH },
    );
  return {
    /** User id → display name of a content author. */
    authorName: new DataLoader<string, string | null>(
      async (ids) => {
        const names = await content().contents.authorNames(ids);
        return ids.map((id) => names.get(id) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    /** Category id → category (null when absent or not visible). */
    category: new DataLoader<string, ContentCategory | null>(
      async (ids) => byId(ids, await content().categories.getMany(actor, ids)),
      { maxBatchSize: MAX_BATCH },
    ),
    /** Content id → content (null when absent or not visible). */
    content: new DataLoader<string, ContentView | null>(
      async (ids) => byId(ids, await content().contents.getMany(actor, ids)),
      { maxBatchSize: MAX_BATCH },
    ),
    /** Content id → its visible content items. */
    itemsByContent: new DataLoader<string, ContentItemView[]>(
      async (ids) =>
        groupBy(ids, await content().items.listByContentIds(actor, ids), (r) => r.contentId ?? ""),
      { maxBatchSize: MAX_BATCH },
    ),
    /** User id → the user as the actor may see them (public profile for others), null when not readable. */
    user: new DataLoader<string, UserView | null>(
      async (ids) => byId(ids, await services.users.getMany(actor, ids)),
      { maxBatchSize: MAX_BATCH },
    ),
    /** Repository id → repository (null when absent or disabled for the actor). */
    repository: new DataLoader<string, GitHubRepository | null>(
      async (ids) => byId(ids, await services.repositories.getGitHubRepositoriesByIds(actor, ids)),
      { maxBatchSize: MAX_BATCH },
    ),
    /** Category slug → repository category (null when absent or hidden for the actor). */
    repositoryCategoryBySlug: new DataLoader<string, RepositoryCategory | null>(
      async (slugs) => {
        const rows = await services.repositories.getRepositoryCategoriesBySlugs(actor, slugs);
        const map = new Map(rows.map((r) => [r.slug, r]));
        return slugs.map((slug) => map.get(slug) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    filesByRepository: children("files"),
    branchesByRepository: children("branches"),
    issuesByRepository: children("issues"),
    workflowsByRepository: children("workflows"),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
