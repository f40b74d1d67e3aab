import { GraphQLError } from "graphql";
import { describe, expect, it, vi } from "vitest";
import {
  BadInputError,
  ConflictError,
  DataIntegrityError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceError,
  UnsupportedMediaTypeError,
} from "../errors.ts";
import { codeOf, gqlError, maskError, withVariableErrorCode } from "./errors.ts";

/** A resolver error as graphql-js wraps it (path, original error). */
const wrapped = (original: Error) =>
  new GraphQLError(original.message, { path: ["getContent"], originalError: original });

describe("maskError", () => {
  it.each([
    [new NotFoundError("content", "x"), "NOT_FOUND"],
    [new ConflictError("content was changed by someone else"), "CONFLICT"],
    [new BadInputError("limit must be a whole number from 1 to 100"), "BAD_USER_INPUT"],
    [new ServiceError("FORBIDDEN", "not yours"), "FORBIDDEN"],
    [new ServiceError("UNAUTHENTICATED", "sign in"), "UNAUTHENTICATED"],
  ])("maps %s to its code with its message and path, without a stack", (original, code) => {
    const masked = maskError(wrapped(original), "Unexpected error.");
    expect(masked.extensions).toEqual({ code });
    expect(masked.message).toBe(original.message);
    expect(masked.path).toEqual(["getContent"]);
    expect(JSON.stringify(masked.toJSON())).not.toContain("at ");
  });

  it("masks unexpected errors (SQL, data integrity, plain errors) and reports them", () => {
    const onUnexpected = vi.fn();
    for (const original of [
      new Error("SQLITE_ERROR: no such column: secret"),
      new DataIntegrityError("stored tags has an unexpected shape"),
    ]) {
      const masked = maskError(wrapped(original), "Unexpected error.", onUnexpected);
      expect(masked.message).toBe("Unexpected error.");
      expect(masked.extensions).toEqual({ code: "INTERNAL_SERVER_ERROR" });
      expect(JSON.stringify(masked.toJSON())).not.toContain("SQLITE");
    }
    expect(onUnexpected).toHaveBeenCalledTimes(2);
    expect(maskError("a string", "Unexpected error.").message).toBe("Unexpected error.");
  });

  it("passes GraphQL's own errors (parse, validation) and our coded errors unchanged", () => {
    const validation = new GraphQLError('Cannot query field "nope" on type "Query".');
    expect(maskError(validation, "Unexpected error.")).toBe(validation);
    const ours = gqlError("FORBIDDEN", "API keys are read only");
    expect(maskError(wrapped(ours), "Unexpected error.").extensions.code).toBe("FORBIDDEN");
  });

  it("gives graphql-js's variable coercion errors the BAD_USER_INPUT code, and nothing else", () => {
    const coercion = new GraphQLError(
      'Variable "$n" got invalid value "ten"; Int cannot represent non-integer value: "ten"',
    );
    const coded = withVariableErrorCode(coercion);
    expect(coded.message).toBe(coercion.message);
    expect(coded.extensions).toEqual({ code: "BAD_USER_INPUT" });
    expect(
      withVariableErrorCode<{ message: string; extensions?: Record<string, unknown> }>({
        message: coercion.message,
      }).extensions,
    ).toEqual({
      code: "BAD_USER_INPUT",
    });
    const other = new GraphQLError('Unknown argument "x" on field "Query.getContent".');
    expect(withVariableErrorCode(other)).toBe(other);
    const ours = gqlError("FORBIDDEN", 'Variable "$x" is not yours');
    expect(withVariableErrorCode(ours)).toBe(ours);
  });

  it("gives graphql-armor's limit refusals the BAD_USER_INPUT code", () => {
    for (const message of [
      "Syntax Error: Aliases limit of 15 exceeded, found 21.",
      "Syntax Error: Query depth limit of 10 exceeded, found 12.",
      "Syntax Error: Query Cost limit of 1000 exceeded, found 1250.",
      "Syntax Error: Token limit of 2000 exceeded.",
    ])
      expect(withVariableErrorCode(new GraphQLError(message)).extensions).toEqual({ code: "BAD_USER_INPUT" });
    const syntax = new GraphQLError("Syntax Error: Expected Name, found <EOF>.");
    expect(withVariableErrorCode(syntax)).toBe(syntax);
  });

  it("codeOf knows only the data API's codes", () => {
    expect(codeOf(new DataIntegrityError("x"))).toBeNull();
    expect(codeOf({ code: "RATE_LIMITED" })).toBe("RATE_LIMITED");
    expect(codeOf(null)).toBeNull();
  });

  it("answers an upload's wrong type or size as bad input, keeping the message", () => {
    expect(codeOf(new PayloadTooLargeError("Images are limited to 10 MiB"))).toBe("BAD_USER_INPUT");
    const masked = maskError(new UnsupportedMediaTypeError("The file is an SVG image"), "Unexpected error.");
    expect(masked.extensions.code).toBe("BAD_USER_INPUT");
    expect(masked.message).toBe("The file is an SVG image");
  });
});
