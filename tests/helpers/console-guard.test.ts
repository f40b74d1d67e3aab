import { afterEach, describe, expect, it } from "vitest";
import { expectConsoleError, takeConsoleProblems } from "./console-guard.ts";

// The setup file installs the guard; each test here drains what it provokes before the test ends
// (the undeclared lines still show in the output: the guard prints what it records).
afterEach(() => {
  expect(takeConsoleProblems(true)).toEqual([]);
});

describe("console guard", () => {
  it("records an undeclared console.error and console.warn with their text", () => {
    console.error("boom %d", 42);
    console.warn("careful");
    expect(takeConsoleProblems(false)).toEqual(["console.error: boom 42", "console.warn: careful"]);
  });

  it("lets a declared line through without recording it", () => {
    expectConsoleError(/Too many login attempts/);
    console.error("ERROR [Better Auth]: Too many login attempts");
    expect(takeConsoleProblems(true)).toEqual([]);
  });

  it("a declaration does not cover another method or another text", () => {
    expectConsoleError(/expected/);
    console.warn("expected");
    console.error("something else");
    console.error("expected");
    expect(takeConsoleProblems(true)).toEqual(["console.warn: expected", "console.error: something else"]);
  });

  it("fails a test whose declared line never came", () => {
    expectConsoleError(/never written/);
    expect(takeConsoleProblems(true)).toEqual([
      "expected a console.error matching /never written/, none was written",
    ]);
  });
});
