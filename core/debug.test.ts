import { describe, expect, it } from "vitest";
import { DEBUG_STORAGE_KEY, isDebugMode, isDebugToggleShortcut, toggledDebugFlag } from "./debug.ts";

describe("isDebugMode", () => {
  it("uses the product's storage key", () => {
    expect(DEBUG_STORAGE_KEY).toBe("lumen.debug-mode");
  });

  it.each([
    ["?debug=true", null, true],
    ["debug=true", null, true],
    ["?x=1&debug=true", null, true],
    ["?debug=TRUE", null, true],
    ["?debug=false", null, false],
    ["?debug=1", null, false],
    ["?debug", null, false],
    ["?notdebug=true", null, false],
    ["", null, false],
    ["", "true", true],
    ["?debug=false", "true", true],
    ["", "false", false],
    ["", "TRUE", false],
    ["", "", false],
  ] as Array<[string, string | null, boolean]>)("search %j, stored %j → %s", (search, stored, out) => {
    expect(isDebugMode(search, stored)).toBe(out);
  });

  it("accepts URLSearchParams", () => {
    expect(isDebugMode(new URLSearchParams({ debug: "true" }), null)).toBe(true);
    expect(isDebugMode(new URLSearchParams({ page: "2" }), null)).toBe(false);
  });
});

describe("isDebugToggleShortcut", () => {
  it.each([
    [{ ctrlKey: true, shiftKey: true, key: "D" }, true],
    [{ ctrlKey: true, shiftKey: true, key: "d" }, true],
    [{ ctrlKey: true, shiftKey: false, key: "D" }, false],
    [{ ctrlKey: false, shiftKey: true, key: "D" }, false],
    [{ ctrlKey: true, shiftKey: true, key: "F" }, false],
    [{ ctrlKey: true, shiftKey: true, key: "Dead" }, false],
  ])("%j → %s", (e, out) => {
    expect(isDebugToggleShortcut(e)).toBe(out);
  });
});

describe("toggledDebugFlag", () => {
  it("flips the stored flag", () => {
    expect(toggledDebugFlag(null)).toBe("true");
    expect(toggledDebugFlag("false")).toBe("true");
    expect(toggledDebugFlag("true")).toBeNull();
  });
});
