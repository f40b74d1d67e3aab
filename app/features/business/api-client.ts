/**
 * Browser calls to the organisation and profile endpoints (PATCH, PUT and raw uploads, which the
 * identity client does not cover). Never throws; field messages from `error.field` come back (as `fields`).
 */
import { NETWORK_ERROR_MESSAGE, readApiError } from "../auth/api.ts";

export type SendResult<T> =
  | { ok: true; status: number; data: T | null }
  | { ok: false; status: number; code: string | null; message: string; fields: Record<string, string> };

export async function send<T = unknown>(
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
  raw?: { bytes: Blob; type: string },
): Promise<SendResult<T>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  let payload: BodyInit | undefined;
  if (raw) {
    headers["Content-Type"] = raw.type || "application/octet-stream";
    payload = raw.bytes;
  } else if (method !== "GET" && method !== "DELETE") {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body ?? {});
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: payload, credentials: "same-origin" });
  } catch {
    return { ok: false, status: 0, code: null, message: NETWORK_ERROR_MESSAGE, fields: {} };
  }
  let data: unknown = null;
  if (response.status !== 204) {
    const text = await response.text().catch(() => "");
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
  }
  if (response.ok) return { ok: true, status: response.status, data: data as T | null };
  const { code, message } = readApiError(data);
  const rawFields = (data as { error?: { field?: unknown } } | null)?.error?.field;
  const fields: Record<string, string> = {};
  if (rawFields && typeof rawFields === "object") {
    for (const [k, v] of Object.entries(rawFields as Record<string, unknown>))
      if (typeof v === "string") fields[k] = v;
  }
  return {
    ok: false,
    status: response.status,
    code,
    message: message ?? `The request failed (${response.status}). Please try again.`,
    fields,
  };
}

const dateFmt = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });
export const formatDate = (iso: string | null | undefined) => {
  if (!iso) return "—";
  const t = Date.parse(iso);
  return Number.isNaN(t) ? "—" : dateFmt.format(new Date(t));
};
