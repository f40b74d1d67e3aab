/**
 * The content models of the data API (issue 5), each an access-checked service: Content,
 * ContentCategory, ContentItem. Built once by the runtime (content writes tell the search index).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { ObjectStore } from "../../storage/object-store.ts";
import { createMediaService, type MediaService } from "../media/media.service.ts";
import type { ContentWriteHooks } from "./content.repo.ts";
import { type ContentCategoryService, createContentCategoryService } from "./content-category.service.ts";
import { type ContentItemService, createContentItemService } from "./content-item.service.ts";
import { type ContentModelService, createContentModelService } from "./content-model.service.ts";

export interface ContentModelServices {
  contents: ContentModelService;
  categories: ContentCategoryService;
  items: ContentItemService;
  /** Uploaded media (decision 011): registered uploads structured data references as media:<id>. */
  media: MediaService;
}

export function createContentModelServices(deps: {
  db: Kysely<DB>;
  storage?: ObjectStore;
  hooks?: ContentWriteHooks;
  logger?: { warn(details: object, message: string): void };
  now?: () => number;
}): ContentModelServices {
  const media = createMediaService(deps);
  return {
    media,
    contents: createContentModelService({ ...deps, media }),
    categories: createContentCategoryService(deps),
    items: createContentItemService(deps),
  };
}
