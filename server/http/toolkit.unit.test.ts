import { Hono } from "hono";
import type { Logger } from "pino";
import { describe, expect, it, vi } from "vitest";
import { BadInputError, ForbiddenError, NotFoundError, RateLimitedError } from "../errors.ts";
import { errorResponse, handler, readJsonObject, refuseForeignOrigin, sendError } from "./toolkit.ts";

function fakeLogger() {
  return { error: vi.fn(), info: vi.fn(), warn: vi.fn() } as unknown as Logger & {
    error: ReturnType<typeof vi.fn>;
  };
}

/** An app whose one route throws `error` and answers through sendError. */
function throwing(error: unknown, logger = fakeLogger()) {
  const app = new Hono();
  app.get("/x", (c) => {
    try {
      throw error;
    } catch (e) {
      return sendError(c, e, logger);
    }
  });
  return { app, logger };
}

describe("sendError (the one HTTP mapping)", () => {
  it("answers an error of the family with its status and the envelope, field map included", async () => {
    const { app } = throwing(new BadInputError("Invalid name: required", { field: { name: "required" } }));
    const res = await app.request("/x");
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      error: { code: "BAD_USER_INPUT", message: "Invalid name: required", field: { name: "required" } },
    });
  });

  it("answers 404 and 403 without a field", async () => {
    expect(await (await throwing(new NotFoundError("item", "a")).app.request("/x")).json()).toEqual({
      error: { code: "NOT_FOUND", message: "item not found: a" },
    });
    expect((await throwing(new ForbiddenError("no")).app.request("/x")).status).toBe(403);
  });

  it("adds Retry-After and retryAfterS to a rate limit", async () => {
    const res = await throwing(new RateLimitedError("Slow down.", 30)).app.request("/x");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("30");
    expect((await res.json()).error).toEqual({
      code: "RATE_LIMITED",
      message: "Slow down.",
      retryAfterS: 30,
    });
  });

  it("maps anything else to 500 INTERNAL without details, and logs it", async () => {
    const { app, logger } = throwing(new Error("SELECT * FROM secret"));
    const res = await app.request("/x");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error: { code: "INTERNAL", message: "An unexpected error occurred" },
    });
    expect(logger.error).toHaveBeenCalledOnce();
  });
});

describe("readJsonObject and handler", () => {
  const logger = fakeLogger();
  const deps = { env: { PUBLIC_URL: "https://hub.example" }, logger };
  const app = new Hono();
  app.post(
    "/body",
    handler(deps, async (c) => c.json(await readJsonObject(c, { limit: 32, requireJsonType: true })), {
      mutates: true,
    }),
  );
  const post = (body: string, headers: Record<string, string> = {}) =>
    app.request("/body", {
      method: "POST",
      body,
      headers: { origin: "https://hub.example", "content-type": "application/json", ...headers },
    });

  it("reads a JSON object", async () => {
    const res = await post('{"a":1}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ a: 1 });
  });

  it.each([
    ["{not json", {}, 400, "INVALID_JSON"],
    ["[1]", {}, 400, "INVALID_BODY"],
    [`{"a":"${"x".repeat(40)}"}`, {}, 413, "PAYLOAD_TOO_LARGE"],
    ['{"a":1}', { "content-type": "text/plain" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
    ['{"a":1}', { origin: "https://evil.example" }, 403, "FORBIDDEN_ORIGIN"],
  ])("%s %o → %i %s in the envelope", async (body, headers, status, code) => {
    const res = await post(body, headers);
    expect(res.status).toBe(status);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await res.json()).error.code).toBe(code);
  });

  it("accepts the Referer's origin and the request's own host", async () => {
    const check = new Hono();
    check.post("/", (c) => refuseForeignOrigin(c, { env: {} }) ?? c.body(null, 204));
    const own = await check.request("http://localhost/", {
      method: "POST",
      headers: { host: "localhost", referer: "http://localhost/page" },
    });
    expect(own.status).toBe(204);
    const none = await check.request("http://localhost/", { method: "POST", headers: { host: "localhost" } });
    expect(none.status).toBe(403);
  });
});

describe("errorResponse", () => {
  it("builds the envelope without a context, with extra headers", async () => {
    const res = errorResponse(404, "NOT_FOUND", "No object.", {
      headers: { "x-content-type-options": "nosniff" },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.json()).toEqual({ error: { code: "NOT_FOUND", message: "No object." } });
  });
});
