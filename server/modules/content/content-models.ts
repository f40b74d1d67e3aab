/**
 * The content services, built once by the runtime (content writes tell the search index): the
 * content operations every channel uses (`content.service.ts`), ContentCategory and ContentItem,
 * the uploaded-media registry and the studio's operations.
 */
import { createMediaService, type MediaService } from "../media/media.service.ts";
import { type ContentService, type ContentServiceDeps, createContentService } from "./content.service.ts";
import { type ContentAdminService, createContentAdminService } from "./content-admin.service.ts";
import { type ContentCategoryService, createContentCategoryService } from "./content-category.service.ts";
import { type ContentItemService, createContentItemService } from "./content-item.service.ts";
import { type ContentStudioService, createContentStudioService } from "./content-studio.service.ts";
import { createFreshnessService, type FreshnessService } from "./freshness.service.ts";

export interface ContentModelServices {
  /** The content operations (the same instance as `AppServices.content`). */
  contents: ContentService;
  categories: ContentCategoryService;
  items: ContentItemService;
  /** Uploaded media (decision 011): registered uploads structured data references as media:<id>. */
  media: MediaService;
  /** The studio: transitions, history, versions, diff, restore, slug check, bulk (writers). */
  studio: ContentStudioService;
  /** /admin/content: featured order, categories, collections (platform administrators). */
  admin: ContentAdminService;
  /** The review queue and "Mark reviewed" (decision 038). */
  freshness: FreshnessService;
  /** Every content write of this process, at once (other processes' reach `runtime.contentChanges`). */
  localWrites: { subscribe(listener: () => void): () => void };
}

export function createContentModelServices(given: ContentServiceDeps): ContentModelServices {
  // Every content write of this process (any of the services below) drops the cached reads here
  // at once; other processes' writes reach them through the polled revision (`changes`).
  const writeListeners = new Set<() => void>();
  const deps: ContentServiceDeps = {
    ...given,
    hooks: {
      async afterWrite(change, executor) {
        for (const listener of writeListeners) listener();
        await given.hooks?.afterWrite?.(change, executor);
      },
    },
    localWrites: {
      subscribe(listener) {
        writeListeners.add(listener);
        return () => writeListeners.delete(listener);
      },
    },
  };
  const media = createMediaService(deps);
  const contents = createContentService({ ...deps, media });
  const studio = createContentStudioService({ ...deps, contents });
  return {
    media,
    contents,
    studio,
    admin: createContentAdminService({
      db: deps.db,
      contents,
      studio,
      changed: () => deps.changes?.check?.() ?? Promise.resolve(),
    }),
    categories: createContentCategoryService(deps),
    items: createContentItemService(deps),
    freshness: createFreshnessService({
      db: deps.db,
      reviewPeriods: deps.reviewPeriods,
      hooks: deps.hooks,
      now: deps.now,
    }),
    localWrites: deps.localWrites!,
  };
}
