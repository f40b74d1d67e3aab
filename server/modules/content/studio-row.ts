import { parseTier, workflowStateOf } from "../../../core/index.ts";
import type { Content } from "./content.repo.ts";
import type { StudioRow } from "./studio.types.ts";

/** The stored fields one row of the management table is made of. */
export type StudioRowSource = Pick<
  Content,
  | "id"
  | "slug"
  | "title"
  | "type"
  | "status"
  | "workflowStatus"
  | "section"
  | "categorySlug"
  | "tier"
  | "authorId"
  | "updatedAt"
  | "publishedAt"
  | "version"
>;

/**
 * One row of the management table (the list and the bulk answers). A tier that cannot be read
 * shows as Enterprise, the tier the access rules give it (fail closed).
 */
export function toStudioRow(
  item: StudioRowSource,
  names: { authorName: string | null; categoryLabel: string | null },
): StudioRow {
  return {
    id: item.id,
    slug: item.slug,
    title: item.title,
    type: item.type,
    state: workflowStateOf(item),
    section: item.section,
    categorySlug: item.categorySlug,
    categoryLabel: names.categoryLabel,
    tier: parseTier(item.tier) ?? "Enterprise",
    authorId: item.authorId,
    authorName: names.authorName,
    updatedAt: item.updatedAt,
    publishedAt: item.publishedAt,
    version: Number(item.version),
    editUrl: `/content/${encodeURIComponent(item.id)}/edit`,
    publicUrl: `/content/${encodeURIComponent(item.slug)}`,
  };
}
