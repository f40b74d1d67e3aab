/**
 * Per-request DataLoaders: nested fields of a list (a content's author name, category and items,
 * an item's content) are fetched in one query per field per level, whatever the list's length.
 * Each loader reads through the services with the request's actor, so batching never widens
 * access; a loader lives for one request only (no cross-request cache).
 */
import DataLoader from "dataloader";
import type { ServiceActor } from "../modules/actor.ts";
import type { ContentCategory } from "../modules/content/content-category.repo.ts";
import type { ContentItemView } from "../modules/content/content-item.service.ts";
import type { ContentView } from "../modules/content/content-model.service.ts";
import type { GraphQLServices } from "./context.ts";

const MAX_BATCH = 100;

function byId<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): (T | null)[] {
  const map = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => map.get(id) ?? null);
}

export function createLoaders(services: GraphQLServices, actor: ServiceActor) {
  const content = () => services.content;
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
      async (ids) => {
        const rows = await content().items.listByContentIds(actor, ids);
        return ids.map((id) => rows.filter((r) => r.contentId === id));
      },
      { maxBatchSize: MAX_BATCH },
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
