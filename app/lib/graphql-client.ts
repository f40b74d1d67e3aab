/**
 * The UI's one client for the data API (`/graphql`, docs/api/graphql.md): typed documents, the
 * session cookie (same origin), and the spec's retry policy (issue 5 item 7):
 *
 * - at most 3 retries, waiting min(1000 · 2^attempt, 30000) ms before each (1 s, 2 s, 4 s);
 * - retried: network failures, HTTP 5xx, HTTP 429 and the GraphQL code RATE_LIMITED (a
 *   `Retry-After` header, in seconds or as a date, replaces the computed delay, capped at 30 s);
 * - never retried: any other HTTP 4xx and the GraphQL codes UNAUTHENTICATED, FORBIDDEN,
 *   BAD_USER_INPUT, NOT_FOUND and CONFLICT (asking again gives the same answer), nor any other
 *   GraphQL error answered with HTTP 200 (the request was executed: repeating it could repeat a write);
 * - abortable: the `signal` cancels the request in flight and the wait between attempts.
 *
 * Failures are thrown as `GraphQLRequestError` (codes and messages of the answer); an abort
 * rejects with the signal's reason (an `AbortError`), as `fetch` does.
 */

/**
 * A GraphQL document with the types of its result and variables attached. Write operations in
 * `app/graphql/operations.graphql`: `npm run api:generate` checks them against the schema and
 * writes their typed documents to `app/graphql/operations.generated.ts` (decision 034).
 */
export interface TypedDocument<TData, TVars> {
  readonly source: string;
  /** Type-level only: never set at run time. */
  readonly __types?: { data: TData; variables: TVars };
}

/** Declares a typed document: `graphql<{ apiVersion: string }, Record<string, never>>("{ apiVersion }")`. */
export function graphql<TData, TVars = Record<string, never>>(source: string): TypedDocument<TData, TVars> {
  return { source };
}

export const GRAPHQL_ENDPOINT = "/graphql";
export const MAX_RETRIES = 3;
export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;

/** GraphQL codes that mean "asking again gives the same answer". */
const FINAL_CODES = new Set(["UNAUTHENTICATED", "FORBIDDEN", "BAD_USER_INPUT", "NOT_FOUND", "CONFLICT"]);

/** The wait before retry number `attempt + 1` (attempt 0 → 1000 ms, 1 → 2000 ms, 2 → 4000 ms). */
export function retryDelayMs(attempt: number): number {
  return Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
}

/** `Retry-After` (delta seconds or an HTTP date) in milliseconds, capped at 30 s; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (text === "") return null;
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date ("Sun, 01 Nov 2026 10:00:00 GMT"); anything else is unreadable.
    if (!/^[A-Za-z]{3}, /.test(text)) return null;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, MAX_DELAY_MS);
}

export interface GraphQLErrorEntry {
  message: string;
  /** `extensions.code` (UNAUTHENTICATED, FORBIDDEN, BAD_USER_INPUT, NOT_FOUND, CONFLICT, RATE_LIMITED …). */
  code: string | null;
  path?: readonly (string | number)[];
}

export type GraphQLFailureKind = "network" | "http" | "graphql";

/** A failed data API call: what went wrong, with the answer's codes and messages. */
export class GraphQLRequestError extends Error {
  override readonly name = "GraphQLRequestError";
  /** network: no answer; http: a non-2xx answer; graphql: HTTP 200 with `errors`. */
  readonly kind: GraphQLFailureKind;
  /** HTTP status; 0 when the server was not reached. */
  readonly status: number;
  readonly errors: readonly GraphQLErrorEntry[];
  /** Partial data of an answer with errors, if any. */
  readonly data: unknown;
  /** Attempts made (1 + retries). */
  readonly attempts: number;

  constructor(
    init: {
      kind: GraphQLFailureKind;
      status: number;
      errors: readonly GraphQLErrorEntry[];
      data?: unknown;
      attempts?: number;
    },
    options?: { cause?: unknown },
  ) {
    super(init.errors[0]?.message ?? `The data API answered HTTP ${init.status}.`, options);
    this.kind = init.kind;
    this.status = init.status;
    this.errors = init.errors;
    this.data = init.data ?? null;
    this.attempts = init.attempts ?? 1;
  }

  /** The distinct error codes of the answer. */
  get codes(): string[] {
    return [...new Set(this.errors.map((e) => e.code).filter((c): c is string => c !== null))];
  }

  hasCode(code: string): boolean {
    return this.errors.some((e) => e.code === code);
  }

  /** Worth asking again: network, 5xx, 429 or RATE_LIMITED — never another 4xx or a final code. */
  get retryable(): boolean {
    if (this.kind === "network") return true;
    if (this.errors.some((e) => e.code !== null && FINAL_CODES.has(e.code))) return false;
    if (this.status === 429 || this.hasCode("RATE_LIMITED")) return true;
    return this.status >= 500;
  }
}

export interface GraphQLRequestOptions {
  signal?: AbortSignal;
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  retries?: number;
  endpoint?: string;
  /** For tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

interface WireResult {
  data?: unknown;
  errors?: unknown;
}

const NETWORK_MESSAGE = "Could not reach the server. Check your connection and try again.";

function readErrors(value: unknown): GraphQLErrorEntry[] {
  if (!Array.isArray(value)) return [];
  return value.map((raw) => {
    const e = (raw ?? {}) as { message?: unknown; path?: unknown; extensions?: { code?: unknown } };
    return {
      message: typeof e.message === "string" && e.message ? e.message : "Unknown error.",
      code: typeof e.extensions?.code === "string" ? e.extensions.code : null,
      ...(Array.isArray(e.path) ? { path: e.path as (string | number)[] } : {}),
    };
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** Waits `ms`, or rejects with the abort reason as soon as `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

type Outcome<T> =
  | { ok: true; data: T }
  | { ok: false; error: GraphQLRequestError; retryAfterMs: number | null };

async function attempt<TData>(
  fetchFn: typeof fetch,
  endpoint: string,
  body: string,
  signal: AbortSignal | undefined,
): Promise<Outcome<TData>> {
  let response: Response;
  try {
    response = await fetchFn(endpoint, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json" },
      body,
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw abortReason(signal);
    return {
      ok: false,
      retryAfterMs: null,
      error: new GraphQLRequestError(
        { kind: "network", status: 0, errors: [{ message: NETWORK_MESSAGE, code: null }] },
        { cause },
      ),
    };
  }
  let parsed: WireResult | null = null;
  try {
    parsed = (await response.json()) as WireResult;
  } catch {
    if (signal?.aborted) throw abortReason(signal);
    parsed = null;
  }
  const errors = readErrors(parsed?.errors);
  if (response.ok && parsed && errors.length === 0 && parsed.data !== undefined && parsed.data !== null) {
    return { ok: true, data: parsed.data as TData };
  }
  const status = response.status;
  return {
    ok: false,
    retryAfterMs: retryAfterMs(response.headers.get("retry-after")),
    error: new GraphQLRequestError({
      kind: response.ok ? "graphql" : "http",
      status,
      errors: errors.length ? errors : [{ message: `The data API answered HTTP ${status}.`, code: null }],
      data: parsed?.data ?? null,
    }),
  };
}

/**
 * Runs one GraphQL operation on `/graphql` as the signed-in user (the session cookie) and returns
 * its `data`; throws `GraphQLRequestError` on failure after the retry policy, or the abort reason.
 */
export async function graphqlRequest<TData, TVars>(
  document: TypedDocument<TData, TVars>,
  variables: TVars,
  options: GraphQLRequestOptions = {},
): Promise<TData> {
  const { signal } = options;
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const retries = Math.max(0, Math.min(options.retries ?? MAX_RETRIES, MAX_RETRIES));
  const body = JSON.stringify({ query: document.source, variables: variables ?? {} });
  for (let n = 0; ; n++) {
    if (signal?.aborted) throw abortReason(signal);
    const outcome = await attempt<TData>(fetchFn, options.endpoint ?? GRAPHQL_ENDPOINT, body, signal);
    if (outcome.ok) return outcome.data;
    const failure = outcome.error;
    if (!failure.retryable || n >= retries) {
      throw new GraphQLRequestError(
        {
          kind: failure.kind,
          status: failure.status,
          errors: failure.errors,
          data: failure.data,
          attempts: n + 1,
        },
        { cause: failure.cause },
      );
    }
    await wait(outcome.retryAfterMs ?? retryDelayMs(n), signal);
  }
}

/** A sentence for the UI: the first message, or a general one for server and network failures. */
export function describeGraphQLError(error: unknown): string {
  if (error instanceof GraphQLRequestError) {
    if (error.kind === "network") return NETWORK_MESSAGE;
    if (error.hasCode("UNAUTHENTICATED")) return "Your session has ended. Sign in again.";
    if (error.hasCode("RATE_LIMITED") || error.status === 429) {
      return "Too many requests. Please wait a moment and try again.";
    }
    if (error.status >= 500) return "The server could not answer. Please try again.";
    return error.message;
  }
  return "Something went wrong. Please try again.";
}

/** True for the rejection of an aborted call (ignore it: the caller cancelled). */
export function isAbortError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === "AbortError";
}
