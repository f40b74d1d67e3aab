import { Writable } from "node:stream";
import { APIError } from "better-auth/api";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { betterAuthApiErrors, betterAuthLogger } from "./auth-logger.ts";

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: pino({ level, base: undefined }, stream) };
}

// biome-ignore lint/suspicious/noExplicitAny: the handler ignores its context
const noContext = {} as any;

describe("Better Auth logging through pino", () => {
  it("writes Better Auth's log lines as pino records, an Error as err", () => {
    const { lines, logger } = capture("info");
    const options = betterAuthLogger(logger);
    expect(options.level).toBe("info");
    options.log?.("error", "Failed to send two-factor OTP", new Error("SMS gateway down"), { id: 1 });
    expect(lines).toMatchObject([
      {
        level: 50,
        component: "better-auth",
        msg: "Failed to send two-factor OTP",
        err: { message: "SMS gateway down" },
        args: [{ id: 1 }],
      },
    ]);
  });

  it("follows pino's level and is off when pino is silent", () => {
    expect(betterAuthLogger(capture("warn").logger).level).toBe("warn");
    expect(betterAuthLogger(capture("silent").logger)).toEqual({ disabled: true });
  });

  it("logs a refused request (4xx) at debug, with its status and code", async () => {
    const { lines, logger } = capture("debug");
    const error = new APIError("TOO_MANY_REQUESTS", { code: "LOCKED", message: "Too many login attempts" });
    await betterAuthApiErrors(logger).onError?.(error, noContext);
    expect(lines).toMatchObject([{ level: 20, status: 429, code: "LOCKED", msg: "Too many login attempts" }]);
  });

  it("logs a failure on our side (5xx or not an APIError) at error", async () => {
    const { lines, logger } = capture("info");
    const handler = betterAuthApiErrors(logger);
    await handler.onError?.(new APIError("INTERNAL_SERVER_ERROR", { message: "boom" }), noContext);
    await handler.onError?.(new TypeError("undefined is not a function"), noContext);
    expect(lines.map((l) => l.level)).toEqual([50, 50]);
    expect(lines[1]).toMatchObject({ err: { type: "TypeError", message: "undefined is not a function" } });
  });
});
