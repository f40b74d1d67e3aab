/**
 * Browser calls to the repository administration API (server/http/admin-repositories-api.ts).
 * Never throws: a failure comes back with the server's message and the field it names.
 */
import { NETWORK_ERROR_MESSAGE, readApiError } from "../auth/api.ts";

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

export type CallResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; code: string | null; message: string; field: string | null };

export async function adminCall<T = unknown>(
  method: "POST" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): Promise<CallResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, code: null, message: NETWORK_ERROR_MESSAGE, field: null };
  }
  let data: unknown = null;
  if (response.status !== 204) {
    try {
      const text = await response.text();
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
  }
  if (response.ok) return { ok: true, status: response.status, data: data as T };
  const { code, message } = readApiError(data);
  // The envelope's `field` map (name → problem): the form marks the first field it names.
  const fieldMap = (data as { error?: { field?: unknown } } | null)?.error?.field;
  const field =
    fieldMap && typeof fieldMap === "object"
      ? (Object.keys(fieldMap as Record<string, unknown>)[0] ?? null)
      : null;
  return {
    ok: false,
    status: response.status,
    code,
    message: message ?? `The request failed (${response.status}). Please try again.`,
    field,
  };
}

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

const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
export const formatDateTime = (iso: string | null | undefined) => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : `${dateTime.format(new Date(t))} UTC`;
};

/** "a, b ,c" → ["a", "b", "c"] (trimmed, empty ones and repeats dropped). */
export const parseTags = (text: string) => [
  ...new Set(
    text
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];
