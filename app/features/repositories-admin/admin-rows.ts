/**
 * The repository administration API's rows (server/http/admin-repositories-api.ts) and the pure
 * helpers the admin screens show them with.
 */

export interface AdminRepositoryRow {
  id: string;
  slug: string;
  name: string | null;
  fullName: string | null;
  owner: string | null;
  displayName: string | null;
  description: string | null;
  category: string | null;
  tags: string[];
  isEnabled: boolean;
  sortOrder: number;
  sourceType: "local" | "github";
  localPath: string | null;
  lastSyncAt: string | null;
  lastSyncError: string | null;
  lastSyncErrorAt: string | null;
  version: number;
}

export interface AdminCategoryRow {
  id: string;
  slug: string;
  name: string | null;
  sortOrder: number;
  isVisible: boolean;
  version: number;
}

export type SyncOutcome =
  | { ok: true; files: number; branches: number; issues: number; workflows: number }
  | { ok: false; error: string; retryAt: string };

export type SyncStatus = "never-synced" | "synced" | "failed";

export function syncStatusOf(row: Pick<AdminRepositoryRow, "lastSyncAt" | "lastSyncError">): SyncStatus {
  if (row.lastSyncError) return "failed";
  return row.lastSyncAt ? "synced" : "never-synced";
}

export const repositoryLabel = (row: AdminRepositoryRow) =>
  row.displayName || row.fullName || row.name || row.slug;

/** Where a repository is read from: "team/handbook" (local) or "owner/name" (GitHub). */
export const repositorySource = (row: AdminRepositoryRow) =>
  row.sourceType === "local" ? (row.localPath ?? "") : (row.fullName ?? `${row.owner}/${row.name}`);

/** "a, b ,c" → ["a", "b", "c"] (trimmed, empty ones and repeats dropped). */
export const parseTags = (text: string) => [
  ...new Set(
    text
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];
