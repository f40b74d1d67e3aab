import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiVersionDocument, ContentIdBySlugDocument } from "../graphql/operations.generated.ts";
import {
  describeGraphQLError,
  GraphQLRequestError,
  graphqlRequest,
  isAbortError,
  retryAfterMs,
  retryDelayMs,
} from "./graphql-client.ts";

type Reply = (() => Response) | Error;

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });
const ok = (data: unknown) => json(200, { data, extensions: { apiVersion: "1.4" } });
const gqlErrors = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { data: null, errors: [{ message: `${code} happened`, extensions: { code } }] }, headers);

/** A fetch that answers from a list, one reply per call (an Error is thrown as a network failure). */
function fakeFetch(replies: Reply[]) {
  const queue = [...replies];
  return vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.signal?.aborted) throw init.signal.reason;
    const next = queue.shift();
    if (!next) throw new Error("no more replies");
    if (next instanceof Error) throw next;
    return next();
  });
}

/** Typed documents generated from the schema (app/graphql/operations.graphql). */
const VERSION = ApiVersionDocument;
const BY_SLUG = ContentIdBySlugDocument;

/** Runs a request and records how it settles, so tests can move the clock in between. */
function start<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("graphqlRequest", () => {
  it("POSTs the document and variables as JSON with the session cookie and returns data", async () => {
    const fetch = fakeFetch([ok({ listContentBySlug: { items: [{ id: "c1" }] } })]);
    const data = await graphqlRequest(BY_SLUG, { slug: "intro" }, { fetch });
    expect(data.listContentBySlug.items[0]?.id).toBe("c1");
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/graphql");
    expect(init?.method).toBe("POST");
    expect(init?.credentials).toBe("same-origin");
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
    expect(JSON.parse(String(init?.body))).toEqual({ query: BY_SLUG.source, variables: { slug: "intro" } });
  });

  it("waits exactly 1000, 2000 and 4000 ms between attempts, then gives up after 3 retries", async () => {
    const fetch = fakeFetch([json(503, {}), json(503, {}), json(503, {}), json(503, {}), ok({})]);
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    for (const [delay, calls] of [
      [1000, 2],
      [2000, 3],
      [4000, 4],
    ] as const) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(fetch).toHaveBeenCalledTimes(calls - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetch).toHaveBeenCalledTimes(calls);
    }
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(run.settled).toBe(true);
    expect(run.error).toBeInstanceOf(GraphQLRequestError);
    const error = run.error as GraphQLRequestError;
    expect(error.status).toBe(503);
    expect(error.kind).toBe("http");
    expect(error.attempts).toBe(4);
  });

  it("retries network failures and 5xx, and returns the data of the attempt that works", async () => {
    const fetch = fakeFetch([new TypeError("Failed to fetch"), json(500, {}), ok({ apiVersion: "1.4" })]);
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(3000);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(run.value).toEqual({ apiVersion: "1.4" });
  });

  it("throws a network error with kind network and status 0 after the retries", async () => {
    const fetch = fakeFetch([1, 2, 3, 4].map(() => new TypeError("Failed to fetch")));
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(7000);
    expect(fetch).toHaveBeenCalledTimes(4);
    const error = run.error as GraphQLRequestError;
    expect(error.kind).toBe("network");
    expect(error.status).toBe(0);
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(describeGraphQLError(error)).toMatch(/could not reach the server/i);
  });

  it.each([400, 401, 403, 404, 409, 413])("does not retry HTTP %i", async (status) => {
    const fetch = fakeFetch([json(status, {}), ok({})]);
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((run.error as GraphQLRequestError).status).toBe(status);
    expect((run.error as GraphQLRequestError).attempts).toBe(1);
  });

  it.each(["UNAUTHENTICATED", "FORBIDDEN", "BAD_USER_INPUT", "NOT_FOUND", "CONFLICT"])(
    "does not retry the GraphQL code %s and carries its code and message",
    async (code) => {
      const fetch = fakeFetch([gqlErrors(200, code), ok({})]);
      const run = start(graphqlRequest(VERSION, {}, { fetch }));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(fetch).toHaveBeenCalledTimes(1);
      const error = run.error as GraphQLRequestError;
      expect(error).toBeInstanceOf(GraphQLRequestError);
      expect(error.kind).toBe("graphql");
      expect(error.codes).toEqual([code]);
      expect(error.hasCode(code)).toBe(true);
      expect(error.message).toBe(`${code} happened`);
      expect(error.errors).toEqual([{ message: `${code} happened`, code }]);
    },
  );

  it("does not retry HTTP 401 UNAUTHENTICATED (an invalid credential) and explains it", async () => {
    const fetch = fakeFetch([gqlErrors(401, "UNAUTHENTICATED"), ok({})]);
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((run.error as GraphQLRequestError).codes).toEqual(["UNAUTHENTICATED"]);
    expect(describeGraphQLError(run.error)).toMatch(/sign in again/i);
  });

  it("does not retry an executed operation that answered other GraphQL errors with HTTP 200", async () => {
    const fetch = fakeFetch([gqlErrors(200, "INTERNAL_SERVER_ERROR"), ok({})]);
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((run.error as GraphQLRequestError).codes).toEqual(["INTERNAL_SERVER_ERROR"]);
  });

  it("honours Retry-After (seconds) on 429 instead of the computed delay", async () => {
    const fetch = fakeFetch([
      gqlErrors(429, "RATE_LIMITED", { "retry-after": "7" }),
      ok({ apiVersion: "1.4" }),
    ]);
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(6999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(run.value).toEqual({ apiVersion: "1.4" });
  });

  it("caps Retry-After at 30 s", async () => {
    const fetch = fakeFetch([json(429, {}, { "retry-after": "3600" }), ok({ apiVersion: "1.4" })]);
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.value).toEqual({ apiVersion: "1.4" });
  });

  it("retries RATE_LIMITED without Retry-After on the computed delay", async () => {
    const fetch = fakeFetch([gqlErrors(200, "RATE_LIMITED"), ok({ apiVersion: "1.4" })]);
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.value).toEqual({ apiVersion: "1.4" });
  });

  it("stops retrying when aborted during the wait, with an AbortError", async () => {
    const fetch = fakeFetch([json(503, {}), ok({})]);
    const controller = new AbortController();
    const run = start(graphqlRequest(VERSION, {}, { fetch, signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(isAbortError(run.error)).toBe(true);
    expect(run.error).not.toBeInstanceOf(GraphQLRequestError);
  });

  it("does not call fetch when already aborted, and passes the signal to fetch", async () => {
    const fetch = fakeFetch([ok({})]);
    const controller = new AbortController();
    controller.abort();
    await expect(graphqlRequest(VERSION, {}, { fetch, signal: controller.signal })).rejects.toSatisfy(
      isAbortError,
    );
    expect(fetch).not.toHaveBeenCalled();
    const live = new AbortController();
    const fetch2 = fakeFetch([ok({ apiVersion: "1.4" })]);
    await graphqlRequest(VERSION, {}, { fetch: fetch2, signal: live.signal });
    expect(fetch2.mock.calls[0]![1]?.signal).toBe(live.signal);
  });

  it("an abort while fetch is in flight rejects at once and is not retried", async () => {
    const controller = new AbortController();
    const fetch = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
        }),
    );
    const run = start(graphqlRequest(VERSION, {}, { fetch, signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(isAbortError(run.error)).toBe(true);
  });

  it("retries: 0 turns retrying off", async () => {
    const fetch = fakeFetch([json(503, {}), ok({})]);
    const run = start(graphqlRequest(VERSION, {}, { fetch, retries: 0 }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((run.error as GraphQLRequestError).status).toBe(503);
  });

  it("treats an answer that is not JSON as an HTTP failure with its status", async () => {
    const fetch = fakeFetch([() => new Response("<html>", { status: 502 }), ok({ apiVersion: "1.4" })]);
    const run = start(graphqlRequest(VERSION, {}, { fetch }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(run.value).toEqual({ apiVersion: "1.4" });
  });
});

describe("retry delays", () => {
  it("is min(1000 · 2^attempt, 30000)", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
  it("reads Retry-After as seconds or a date, capped at 30 s", () => {
    const now = Date.parse("2026-11-01T10:00:00Z");
    expect(retryAfterMs("5", now)).toBe(5000);
    expect(retryAfterMs("0", now)).toBe(0);
    expect(retryAfterMs("120", now)).toBe(30_000);
    expect(retryAfterMs("Sun, 01 Nov 2026 10:00:10 GMT", now)).toBe(10_000);
    expect(retryAfterMs("Sun, 01 Nov 2026 09:00:00 GMT", now)).toBe(0);
    for (const bad of [null, "", "soon", "-3", "1.5"]) expect(retryAfterMs(bad, now)).toBeNull();
  });
});
