/**
 * The object types of every model, declared once so model modules can point at each other
 * (Content.contentItems → ContentItem, ContentItem.content → Content) without import cycles.
 * A new model adds its ref here and implements it in its own module.
 */
import type { ContentCategory } from "../../modules/content/content-category.repo.ts";
import type { ContentItemView } from "../../modules/content/content-item.service.ts";
import type { ContentView } from "../../modules/content/content-model.service.ts";
import { builder } from "../builder.ts";

export const ContentRef = builder.objectRef<ContentView>("Content");
export const ContentCategoryRef = builder.objectRef<ContentCategory>("ContentCategory");
export const ContentItemRef = builder.objectRef<ContentItemView>("ContentItem");
