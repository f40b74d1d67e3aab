import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ApiError,
  api,
  apiRequest,
  NETWORK_ERROR_MESSAGE,
  parseRetryAfter,
  readErrorEnvelope,
  settle,
} from "./api.ts";

/** Stubs the global fetch with one answer (an Error is thrown as a network failure). */
function answer(reply: Response | Error) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    if (reply instanceof Error) throw reply;
    return reply;
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("readErrorEnvelope", () => {
  it("reads the REST envelope with its field map", () => {
    expect(
      readErrorEnvelope({
        error: { code: "BAD_USER_INPUT", message: "Check the form", field: { slug: "taken" } },
      }),
    ).toEqual({ code: "BAD_USER_INPUT", message: "Check the form", field: { slug: "taken" } });
  });
  it("reads Better Auth's top-level {code, message}", () => {
    expect(readErrorEnvelope({ code: "INVALID_OTP", message: "Invalid code" })).toEqual({
      code: "INVALID_OTP",
      message: "Invalid code",
      field: {},
    });
  });
  it("prefers body.message over body.error.message", () => {
    expect(readErrorEnvelope({ message: "top", error: { message: "nested" } }).message).toBe("top");
  });
  it("keeps only the string problems of the field map", () => {
    expect(readErrorEnvelope({ error: { message: "m", field: { email: "bad", n: 3 } } }).field).toEqual({
      email: "bad",
    });
    expect(readErrorEnvelope({ error: { code: "X", message: "m", field: "slug" } }).field).toEqual({});
  });
  it("returns nulls for anything else", () => {
    for (const body of [null, undefined, "text", 42, [], { message: "" }, { error: { message: 3 } }]) {
      expect(readErrorEnvelope(body)).toEqual({ code: null, message: null, field: {} });
    }
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-01T10:00:00Z");
  it("reads delta seconds", () => {
    expect(parseRetryAfter("60", now)).toBe(60);
    expect(parseRetryAfter(" 300 ", now)).toBe(300);
  });
  it("reads an HTTP date", () => {
    expect(parseRetryAfter("Sun, 01 Nov 2026 10:04:59 GMT", now)).toBe(299);
  });
  it("never answers less than one second", () => {
    expect(parseRetryAfter("0", now)).toBe(1);
    expect(parseRetryAfter("Sun, 01 Nov 2026 09:00:00 GMT", now)).toBe(1);
  });
  it("is null when missing or unreadable", () => {
    for (const v of [null, undefined, "", "soon", "-5", "1.5"]) expect(parseRetryAfter(v, now)).toBeNull();
  });
});

describe("apiRequest", () => {
  it("sends JSON with the session cookie and returns the parsed answer", async () => {
    const fetchMock = answer(json(200, { id: "k1" }));
    await expect(api.post("/api/account/api-keys", { name: "ci" })).resolves.toEqual({ id: "k1" });
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe("/api/account/api-keys");
    expect(init).toMatchObject({
      method: "POST",
      credentials: "same-origin",
      body: '{"name":"ci"}',
      headers: { Accept: "application/json", "Content-Type": "application/json" },
    });
  });
  it("sends no body (and no content type) when there is none", async () => {
    const fetchMock = answer(new Response(null, { status: 204 }));
    await expect(api.delete("/api/account/sessions/s1")).resolves.toBeNull();
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBeUndefined();
    expect(init.headers).toEqual({ Accept: "application/json" });
  });
  it("sends an upload as is, with its type", async () => {
    const fetchMock = answer(json(200, { ok: true }));
    const file = new Blob(["png"], { type: "image/png" });
    await apiRequest("/api/profile/avatar", { method: "PUT", raw: file });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBe(file);
    expect(init.headers).toMatchObject({ "Content-Type": "image/png" });
  });
  it("throws one ApiError for a non-2xx answer, with status, code, message, field and Retry-After", async () => {
    answer(
      json(
        409,
        { error: { code: "CONFLICT", message: "That slug is taken.", field: { slug: "taken" } } },
        { "retry-after": "30" },
      ),
    );
    const error = await api.patch("/api/admin/repositories/r1", { slug: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: "CONFLICT",
      message: "That slug is taken.",
      field: { slug: "taken" },
      retryAfterS: 30,
      firstField: "slug",
    });
  });
  it("falls back to a plain message when the answer has none", async () => {
    answer(new Response("<html>Bad gateway</html>", { status: 502 }));
    await expect(api.get("/api/x")).rejects.toMatchObject({
      status: 502,
      code: null,
      message: "The server had a problem. Please try again in a moment.",
    });
  });
  it("throws status 0 with the network message when the server cannot be reached", async () => {
    answer(new TypeError("Failed to fetch"));
    await expect(api.get("/api/x")).rejects.toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
  });
  it("rejects with the abort reason, not an ApiError, when aborted", async () => {
    const controller = new AbortController();
    controller.abort(new DOMException("stop", "AbortError"));
    answer(new DOMException("stop", "AbortError"));
    const error = await api.get("/api/x", { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as DOMException).name).toBe("AbortError");
  });
});

describe("settle", () => {
  it("turns the answer or the ApiError into a value", async () => {
    answer(json(200, { ok: true }));
    await expect(settle(api.get("/api/x"))).resolves.toEqual({ ok: true, data: { ok: true } });
    answer(json(403, { error: { code: "FORBIDDEN", message: "No." } }));
    const failed = await settle(api.get("/api/x"));
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error.message).toBe("No.");
  });
  it("still rejects on anything that is not an ApiError", async () => {
    await expect(settle(Promise.reject(new Error("bug")))).rejects.toThrow("bug");
  });
});
