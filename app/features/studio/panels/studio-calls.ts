/**
 * The studio API calls the panels make (docs: the studio API contract). Each returns the answer's
 * payload or throws `ApiError` with the server's message.
 */
import type { WorkflowAction } from "../../../../core/index.ts";
import { api } from "../../../lib/api.ts";
import type { StudioItem, VersionDiff, VersionSummary, WorkflowEvent } from "./types.ts";

const base = (id: string) => `/api/content/${encodeURIComponent(id)}`;

export interface TransitionRequest {
  action: WorkflowAction;
  version: number;
  at?: string;
  notes?: string;
}

export function transition(id: string, request: TransitionRequest) {
  return api.post<{ item: StudioItem; event: WorkflowEvent }>(`${base(id)}/transitions`, request);
}

export async function history(id: string, signal?: AbortSignal): Promise<WorkflowEvent[]> {
  return (await api.get<{ events: WorkflowEvent[] }>(`${base(id)}/history`, { signal })).events;
}

export async function versions(id: string, signal?: AbortSignal): Promise<VersionSummary[]> {
  return (await api.get<{ versions: VersionSummary[] }>(`${base(id)}/versions`, { signal })).versions;
}

export function diff(id: string, from: number, to: number | "current", signal?: AbortSignal) {
  return api.get<VersionDiff>(`${base(id)}/diff?from=${from}&to=${to}`, { signal });
}

export async function restore(id: string, from: number, version: number): Promise<StudioItem> {
  return (await api.post<{ item: StudioItem }>(`${base(id)}/restore`, { from, version })).item;
}
