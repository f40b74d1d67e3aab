import { data } from "react-router";

/** A service's refusal a form can show next to its fields (4xx other than 401/403), or null. */
export function formProblemOf(error: unknown): { message: string; field: Record<string, string> } | null {
  const e = error as { code?: unknown; message?: unknown; field?: unknown; status?: unknown };
  if (typeof e?.code !== "string" || typeof e.status !== "number" || e.status >= 500) return null;
  if (e.status === 401 || e.status === 403) return null;
  return {
    message: String(e.message),
    field: (e.field && typeof e.field === "object" ? e.field : {}) as Record<string, string>,
  };
}

/** A 401 or 403 of the service becomes the route's answer with that status. */
export function refuseIfDenied(error: unknown): void {
  const e = error as { status?: number; message?: string };
  if (e?.status === 401 || e?.status === 403) throw data(e.message ?? "Forbidden", { status: e.status });
}

/** For loaders: a 401 or 403 becomes the route's answer; anything else is rethrown. */
export const rethrowDenied = (error: unknown): never => {
  refuseIfDenied(error);
  throw error;
};
