/**
 * The content services, built once by the runtime (content writes tell the search index): the
 * content operations every channel uses (`content.service.ts`), ContentCategory and ContentItem,
 * the uploaded-media registry and the studio's operations.
 */
import { createMediaService, type MediaService } from "../media/media.service.ts";
import { type ContentService, type ContentServiceDeps, createContentService } from "./content.service.ts";
import { type ContentCategoryService, createContentCategoryService } from "./content-category.service.ts";
import { type ContentItemService, createContentItemService } from "./content-item.service.ts";
import { type ContentStudioService, createContentStudioService } from "./content-studio.service.ts";

export interface ContentModelServices {
  /** The content operations (the same instance as `AppServices.content`). */
  contents: ContentService;
  categories: ContentCategoryService;
  items: ContentItemService;
  /** Uploaded media (decision 011): registered uploads structured data references as media:<id>. */
  media: MediaService;
  /** The studio: transitions, history, versions, diff, restore, slug check, bulk (writers). */
  studio: ContentStudioService;
}

export function createContentModelServices(deps: ContentServiceDeps): ContentModelServices {
  const media = createMediaService(deps);
  const contents = createContentService({ ...deps, media });
  return {
    media,
    contents,
    studio: createContentStudioService({ ...deps, contents }),
    categories: createContentCategoryService(deps),
    items: createContentItemService(deps),
  };
}
