import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AppError,
  BadInputError,
  badInputFromZod,
  ConflictError,
  DataIntegrityError,
  NotFoundError,
  RateLimitedError,
  ServiceError,
} from "./errors.ts";

describe("the error family", () => {
  it("gives every error its code's status, a safe message and the field map", () => {
    expect(new NotFoundError("repository", "abc")).toMatchObject({
      code: "NOT_FOUND",
      status: 404,
      message: "repository not found: abc",
      field: undefined,
    });
    expect(new ConflictError("stale").status).toBe(409);
    expect(new DataIntegrityError("bad row").status).toBe(500);
    const bad = new BadInputError("Invalid name: required", { field: { name: "required" } });
    expect(bad).toMatchObject({ code: "BAD_USER_INPUT", status: 400, field: { name: "required" } });
    expect(bad).toBeInstanceOf(AppError);
    expect(bad.name).toBe("BadInputError");
  });

  it("maps the organisation and profile codes", () => {
    expect(new ServiceError("SESSION_NOT_FRESH", "Sign in again.").status).toBe(403);
    expect(new ServiceError("INVALID_PASSWORD", "Wrong.").status).toBe(400);
    expect(new ServiceError("NO_SEATS", "Full.").status).toBe(409);
    expect(new ServiceError("TOO_MANY_ATTEMPTS", "Wait.").status).toBe(429);
    expect(new ServiceError("BAD_USER_INPUT", "Check the form.", { bio: "at most 500" }).field).toEqual({
      bio: "at most 500",
    });
  });

  it("keeps the retry delay of a rate limit", () => {
    expect(new RateLimitedError("Slow down.", 12)).toMatchObject({ status: 429, retryAfterS: 12 });
  });
});

describe("badInputFromZod", () => {
  const schema = z.strictObject({
    name: z.string().min(1, "required"),
    tags: z.array(z.string()).optional(),
  });
  const format = {
    fallback: "body",
    message: (field: string, problem: string) => `Invalid ${field}: ${problem}`,
  };

  it("names the first bad field in the message and the field map", () => {
    const parsed = schema.safeParse({ name: "" });
    const error = badInputFromZod(parsed.error!, format);
    expect(error.message).toBe("Invalid name: required");
    expect(error.field).toEqual({ name: "required" });
  });

  it("names a nested field by its path", () => {
    const parsed = schema.safeParse({ name: "x", tags: ["a", 5] });
    expect(badInputFromZod(parsed.error!, format).field).toEqual({ "tags.1": expect.any(String) });
  });

  it("puts unknown keys in the field map and words them as asked", () => {
    const parsed = schema.safeParse({ name: "x", secret: 1 });
    const error = badInputFromZod(parsed.error!, {
      ...format,
      unknownKey: (keys) => `unknown parameter ${keys.join(", ")}`,
    });
    expect(error.message).toBe("Invalid body: unknown parameter secret");
    expect(error.field).toEqual({ secret: "unknown parameter secret" });
  });
});
