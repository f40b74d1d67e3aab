/**
 * The browser's one way to call the server's JSON endpoints (ours under /api, Better Auth under
 * /api/auth): same origin with the session cookie, JSON bodies, and one error type. The server's
 * CSRF check reads the Origin header, which the browser adds to every request that is not a GET.
 *
 * A non-2xx answer, or no answer at all, is thrown as an `ApiError`; an aborted request rejects
 * with the signal's reason, as `fetch` does. Forms that branch on the outcome use `settle()`.
 * (The Better Auth client and the GraphQL client keep their own transports.)
 */

export const NETWORK_ERROR_MESSAGE = "Could not reach the server. Check your connection and try again.";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A failed call: the HTTP status (0 when the server was not reached) and what the answer said. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  readonly code: string | null;
  /** Problems by input name (`error.field` of the answer); empty when the answer names none. */
  readonly field: Readonly<Record<string, string>>;
  /** Seconds from a Retry-After header, when the server sent one. */
  readonly retryAfterS: number | null;
  /** The parsed answer (null when it was empty or not JSON). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    message: string;
    code?: string | null;
    field?: Record<string, string>;
    retryAfterS?: number | null;
    body?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code ?? null;
    this.field = init.field ?? {};
    this.retryAfterS = init.retryAfterS ?? null;
    this.body = init.body ?? null;
  }

  /** The first input the answer names, if any. */
  get firstField(): string | null {
    return Object.keys(this.field)[0] ?? null;
  }
}

export interface ErrorEnvelope {
  code: string | null;
  message: string | null;
  field: Record<string, string>;
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value : null);

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [name, problem] of Object.entries(value as Record<string, unknown>)) {
      if (typeof problem === "string") out[name] = problem;
    }
  }
  return out;
}

/**
 * Reads an error answer: the REST envelope `{error: {code, message, field?: {name: problem}}}`
 * or Better Auth's top-level `{code, message}` (its own endpoints under /api/auth). Missing parts
 * come back null or empty.
 */
export function readErrorEnvelope(body: unknown): ErrorEnvelope {
  if (!body || typeof body !== "object") return { code: null, message: null, field: {} };
  const b = body as { code?: unknown; message?: unknown; error?: unknown };
  const nested =
    b.error && typeof b.error === "object"
      ? (b.error as { code?: unknown; message?: unknown; field?: unknown })
      : null;
  const message = text(b.message) ?? text(nested?.message) ?? text(b.error);
  const code =
    typeof b.code === "string" && b.code ? b.code : typeof nested?.code === "string" ? nested.code : null;
  return { code, message, field: stringMap(nested?.field) };
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

/** What to show when an error answer carries no message of its own. */
export function fallbackMessage(status: number): string {
  if (status === 401) return "Your session has ended. Sign in again.";
  if (status === 404) return "This feature is not available on the server yet.";
  if (status === 429) return "Too many requests. Please wait a moment and try again.";
  if (status >= 500) return "The server had a problem. Please try again in a moment.";
  return `The request failed (${status}). Please try again.`;
}

export interface RequestOptions {
  method?: HttpMethod;
  /** Sent as JSON (with `Content-Type: application/json`); nothing is sent when undefined. */
  body?: unknown;
  /** Sent as is (an upload), with its own type; replaces `body`. */
  raw?: Blob;
  signal?: AbortSignal;
  /** Lets the request outlive the page (background pings). */
  keepalive?: boolean;
  cache?: RequestCache;
}

async function readAnswer(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const answer = await response.text().catch(() => "");
  if (!answer) return null;
  try {
    return JSON.parse(answer) as unknown;
  } catch {
    return null;
  }
}

/**
 * Calls `path` on this origin and returns the parsed answer; throws `ApiError`. An empty answer
 * (204) comes back as null: name `T | null` where the endpoint may answer empty.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = "GET", body, raw, signal, keepalive, cache } = options;
  const headers: Record<string, string> = { Accept: "application/json" };
  let payload: BodyInit | undefined;
  if (raw) {
    headers["Content-Type"] = raw.type || "application/octet-stream";
    payload = raw;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: payload,
      credentials: "same-origin",
      signal,
      keepalive,
      cache,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw new ApiError({ status: 0, message: NETWORK_ERROR_MESSAGE });
  }
  const answer = await readAnswer(response);
  if (response.ok) return answer as T;
  const { code, message, field } = readErrorEnvelope(answer);
  throw new ApiError({
    status: response.status,
    message: message ?? fallbackMessage(response.status),
    code,
    field,
    retryAfterS: parseRetryAfter(response.headers.get("retry-after")),
    body: answer,
  });
}

type Options = Omit<RequestOptions, "method" | "body">;

export const api = {
  get: <T = unknown>(path: string, options?: Options) => apiRequest<T>(path, { ...options, method: "GET" }),
  post: <T = unknown>(path: string, body?: unknown, options?: Options) =>
    apiRequest<T>(path, { ...options, method: "POST", body }),
  put: <T = unknown>(path: string, body?: unknown, options?: Options) =>
    apiRequest<T>(path, { ...options, method: "PUT", body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: Options) =>
    apiRequest<T>(path, { ...options, method: "PATCH", body }),
  delete: <T = unknown>(path: string, options?: Options) =>
    apiRequest<T>(path, { ...options, method: "DELETE" }),
};

export type Settled<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/**
 * The outcome of a call as a value, for code that branches on it (forms): the answer, or the
 * `ApiError` it threw. Anything else (an abort, a bug) still rejects.
 */
export async function settle<T>(call: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, data: await call };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error };
    throw error;
  }
}
