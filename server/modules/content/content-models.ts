/**
 * The content models of the data API (issue 5), each an access-checked service: Content,
 * ContentCategory, ContentItem. Built once by the runtime (content writes tell the search index).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { ContentWriteHooks } from "./content.repo.ts";
import { type ContentCategoryService, createContentCategoryService } from "./content-category.service.ts";
import { type ContentItemService, createContentItemService } from "./content-item.service.ts";
import { type ContentModelService, createContentModelService } from "./content-model.service.ts";

export interface ContentModelServices {
  contents: ContentModelService;
  categories: ContentCategoryService;
  items: ContentItemService;
}

export function createContentModelServices(deps: {
  db: Kysely<DB>;
  hooks?: ContentWriteHooks;
  now?: () => number;
}): ContentModelServices {
  return {
    contents: createContentModelService(deps),
    categories: createContentCategoryService(deps),
    items: createContentItemService(deps),
  };
}
