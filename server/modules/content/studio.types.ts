/**
 * What the content studio sends and receives (REST `/api/content` writes, `/api/studio/*`, and the
 * studio screens). Wire shapes only: the rules live in the services and in core.
 */
import type { Tier, WorkflowAction, WorkflowState } from "../../../core/index.ts";
import type { ContentView } from "./content-projection.ts";

/** An item as the editor loads it: every stored field (writer view) plus the workflow facts. */
export interface StudioItem extends ContentView {
  /** `workflowStateOf(row)`. */
  state: WorkflowState;
  /** The Markdown (or HTML) source; "" when the item has no body. Writers read every body. */
  body: string;
  /** The workflow actions this actor may take now. */
  actions: WorkflowAction[];
  authorName: string | null;
  lastEditedByName: string | null;
  /** Where readers find it: `/content/<slug>`. */
  publicUrl: string;
}

/** One saved version in an item's history. */
export interface VersionSummary {
  version: number;
  authorId: string | null;
  authorName: string | null;
  createdAt: string;
  title: string;
  /** Why the version exists when it is not a plain save ("Restored from version 3"). */
  note: string | null;
}

/** One version's content: the metadata fields and the body as saved. */
export interface VersionSnapshot {
  fields: Record<string, unknown>;
  body: string;
}

/** A readable difference between two versions. */
export interface VersionDiff {
  from: number;
  to: number | "current";
  fields: { field: string; before: string; after: string }[];
  body: { op: "add" | "remove" | "same"; text: string }[];
}

/** One workflow transition, with who and when. `auto_publish`: a scheduled item's time came. */
export interface WorkflowEvent {
  id: string;
  action: WorkflowAction | "auto_publish";
  from: WorkflowState;
  to: WorkflowState;
  actorId: string | null;
  actorName: string | null;
  at: string;
  notes: string | null;
  publishedAt: string | null;
}

/** One row of the management table (`/content`). */
export interface StudioRow {
  id: string;
  slug: string;
  title: string;
  type: string;
  state: WorkflowState;
  section: string | null;
  categorySlug: string | null;
  categoryLabel: string | null;
  tier: Tier;
  authorId: string | null;
  authorName: string | null;
  updatedAt: string;
  publishedAt: string | null;
  version: number;
  /** `/content/<id>/edit`. */
  editUrl: string;
  /** `/content/<slug>`. */
  publicUrl: string;
}

export const STUDIO_SORTS = ["updated", "title", "published", "created"] as const;
export type StudioSort = (typeof STUDIO_SORTS)[number];

/** A page of the management table, with counts per state for the same filters (state aside). */
export interface StudioList {
  items: StudioRow[];
  nextCursor: string | null;
  counts: Record<WorkflowState, number>;
  total: number;
}

export const BULK_ACTIONS = ["publish", "archive", "set_category", "set_tier"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export interface BulkResult {
  id: string;
  ok: boolean;
  item?: StudioRow;
  error?: { code: string; message: string };
}

/** The live preview of a body: the public page's rendering. */
export interface RenderedPreview {
  html: string;
  headings: { id: string; text: string; depth: number }[];
}

export interface SlugCheck {
  slug: string;
  available: boolean;
  suggestion: string | null;
  error?: string;
}
