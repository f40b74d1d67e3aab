/**
 * Small JSON client for the identity endpoints (Better Auth under /api/auth, ours under /api/account),
 * plus the pure helpers the forms use to read their answers. Better Auth answers errors as
 * `{code, message}`, our own endpoints as `{error: {code, message}}`; both are read here.
 */

export interface ApiError {
  code: string | null;
  message: string | null;
}

export type ApiResult<T = unknown> =
  | { ok: true; status: number; data: T | null }
  | {
      ok: false;
      /** HTTP status, or 0 when the server could not be reached. */
      status: number;
      code: string | null;
      message: string;
      /** Seconds from a Retry-After header, when the server sent one. */
      retryAfterS: number | null;
    };

export const NETWORK_ERROR_MESSAGE = "Could not reach the server. Check your connection and try again.";

/** `{code, message}` or `{error: {code, message}}` (or anything else) → code and message, when present. */
export function readApiError(body: unknown): ApiError {
  if (!body || typeof body !== "object") return { code: null, message: null };
  const b = body as { code?: unknown; message?: unknown; error?: unknown };
  const nested =
    b.error && typeof b.error === "object" ? (b.error as { code?: unknown; message?: unknown }) : null;
  const message =
    typeof b.message === "string" && b.message.trim()
      ? b.message
      : typeof nested?.message === "string" && nested.message.trim()
        ? nested.message
        : typeof b.error === "string" && b.error.trim()
          ? b.error
          : null;
  const code =
    typeof b.code === "string" && b.code ? b.code : typeof nested?.code === "string" ? nested.code : null;
  return { code, message };
}

/**
 * A Retry-After header (delta seconds or an HTTP date) → whole seconds to wait, at least 1;
 * null when missing or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) {
    const s = Number(v);
    return Number.isFinite(s) ? Math.max(1, s) : null;
  }
  // An HTTP date names its month ("Sun, 01 Nov 2026 10:04:59 GMT"); bare numbers like "-5" are not dates.
  if (!/[a-z]{3}/i.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** Seconds left → "0:45", "4:59", "1:00:00". Never negative. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${r}` : `${m}:${r}`;
}

/** Seconds left until `deadline` (epoch ms), rounded up; 0 once it has passed. */
export function secondsUntil(deadline: number | null, now: number): number {
  if (deadline === null || !Number.isFinite(deadline)) return 0;
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text().catch(() => "");
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function fallbackMessage(status: number): string {
  if (status === 404) return "This feature is not available on the server yet.";
  if (status === 429) return "Too many requests. Please wait a moment and try again.";
  if (status >= 500) return "The server had a problem. Please try again in a moment.";
  return `The request failed (${status}). Please try again.`;
}

/**
 * Calls an identity endpoint with the session cookie. POST, DELETE and PUT send JSON with
 * `content-type: application/json` (the browser adds Origin). Never throws.
 */
export async function callApi<T = unknown>(
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  const init: RequestInit = {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  };
  if (method !== "GET") {
    init.headers = { Accept: "application/json", "Content-Type": "application/json" };
    init.body = JSON.stringify(body ?? {});
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, code: null, message: NETWORK_ERROR_MESSAGE, retryAfterS: null };
  }
  const data = await readBody(response);
  if (response.ok) return { ok: true, status: response.status, data: data as T | null };
  const { code, message } = readApiError(data);
  return {
    ok: false,
    status: response.status,
    code,
    message: message ?? fallbackMessage(response.status),
    retryAfterS: parseRetryAfter(response.headers.get("retry-after")),
  };
}

export const postJson = <T = unknown>(path: string, body: unknown) => callApi<T>("POST", path, body);

/** The sign-up fields a server message can name. */
export type SignUpField = "username" | "password" | "email" | "name" | "phoneNumber";

/**
 * Which sign-up field a server error names (by its code or message), or null for a form-level
 * error. 'username' is tested before 'name', 'phone number' before anything else.
 */
export function fieldForError(code: string | null, message: string | null): SignUpField | null {
  const text = `${code ?? ""} ${message ?? ""}`.toLowerCase().replace(/_/g, " ");
  if (/phone/.test(text)) return "phoneNumber";
  if (/user ?name/.test(text)) return "username";
  if (/e-?mail/.test(text)) return "email";
  if (/password/.test(text)) return "password";
  if (/\b(given ?)?name\b/.test(text)) return "name";
  return null;
}
