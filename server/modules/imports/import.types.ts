/**
 * What an import reads (candidates, source-neutral) and what it answers (the report), shared by
 * the Ghost and Markdown-folder importers and the `import` command (decision 036).
 */
import type { Tier } from "../../../core/tiers.ts";
import type { ContentType } from "../content/content.types.ts";

export type ImportSource = "ghost" | "markdown";
export type RecordKind = "content" | "user" | "category" | "media";
export type ImportAction = "created" | "updated" | "unchanged" | "skipped";

/** One line of the report: what happened (or would happen, in a dry run) to one source item. */
export interface ReportEntry {
  kind: RecordKind;
  /** The item in the source: a file's path in the folder, "post <id>", an e-mail address. */
  source: string;
  action: ImportAction;
  /** The slug (content, category) or e-mail (user) it has here. */
  name?: string;
  /** The row it is (null in a dry run for what would be created, and for skipped items). */
  id?: string | null;
  /** Why it was skipped. */
  reason?: string;
  /** Problems that did not stop it (a missing image). */
  warnings?: string[];
}

export interface ImportReport {
  source: ImportSource;
  path: string;
  dryRun: boolean;
  /** Counts per action over every entry. */
  summary: Record<ImportAction, number>;
  entries: ReportEntry[];
}

/** An image the source names: the text in the body, and its file (null: it is not there). */
export interface ImageRef {
  /** The reference as written (a path or URL). */
  ref: string;
  /** The file it names on disk; null when the file is missing. */
  file: string | null;
}

/** A content item read from the source, before anything is written. */
export interface ContentCandidate {
  /** Stable key of the item in its source (import_record.sourceKey). */
  sourceKey: string;
  /** How the report names it. */
  label: string;
  title: string;
  slug: string;
  type: ContentType;
  section: string | null;
  /** A category made or named by the import (slug). */
  categorySlug: string | null;
  tier: Tier;
  rolesRequired: string[];
  status: "draft" | "review" | "published" | "archived";
  publishedAt: string | null;
  excerpt: string | null;
  tags: string[];
  featured: boolean;
  seoTitle: string | null;
  metaDescription: string | null;
  featuredImageAlt: string | null;
  /** Markdown, with image references still as the source wrote them. */
  body: string;
  /** The feature image: a source image, an https URL, or none. */
  featuredImage: ImageRef | { url: string } | null;
  /** Resolves an image reference of the body to a file (null: not a local image; leave it). */
  resolveImage: (ref: string) => ImageRef | null;
  /** Author key (an e-mail address or a source author id known to the plan). */
  author: string | null;
  /** Problems that stop the item (reported as skipped). */
  problems: string[];
  /** Problems that do not stop it. */
  warnings: string[];
}

export interface CategoryCandidate {
  sourceKey: string;
  slug: string;
  label: string;
  description: string | null;
  section: string | null;
  defaultTier: Tier | null;
}

export interface UserCandidate {
  sourceKey: string;
  email: string;
  name: string;
  /** Groups a new user gets (authors: the content writer group). */
  groups: string[];
  /** The plan a new member gets (null: Free, no subscription row). */
  tier: Tier | null;
  bio: string | null;
  /** Why the user cannot be imported (an unknown tier). */
  problems: string[];
}

/** Everything a source yields, for the engine to apply. */
export interface ImportPlan {
  source: ImportSource;
  path: string;
  users: UserCandidate[];
  categories: CategoryCandidate[];
  contents: ContentCandidate[];
  /** Files or items that could not be read at all (broken front matter, bad JSON rows). */
  unreadable: ReportEntry[];
}
