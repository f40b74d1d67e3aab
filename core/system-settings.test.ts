import { describe, expect, it } from "vitest";
import {
  defaultSettings,
  featureFlagsOf,
  pathsSwitchedOff,
  type SettingDefinition,
  SYSTEM_SETTINGS,
  settingDefinition,
  validateSettingValue,
} from "./system-settings.ts";

const base = { label: "L", description: "D", featureFlag: false };
const integer: SettingDefinition = { ...base, key: "n", type: "integer", default: 5, min: 1, max: 10 };
const choice: SettingDefinition = { ...base, key: "e", type: "enum", default: "a", options: ["a", "b"] };
const text: SettingDefinition = { ...base, key: "t", type: "text", default: "", maxLength: 3 };

describe("system settings catalogue", () => {
  it("has unique keys, the real feature flags on by default, and no debugMode (environment only)", () => {
    const keys = SYSTEM_SETTINGS.map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(featureFlagsOf(defaultSettings())).toEqual({ search: true, repositoryBrowser: true });
    expect(settingDefinition("debugMode")).toBeUndefined();
    expect(settingDefinition("toString")).toBeUndefined();
  });

  it("every default passes its own validation", () => {
    for (const def of SYSTEM_SETTINGS) expect(validateSettingValue(def, def.default).ok, def.key).toBe(true);
  });

  it("validates booleans strictly", () => {
    const flag = settingDefinition("search")!;
    expect(validateSettingValue(flag, false)).toEqual({ ok: true, value: false });
    for (const bad of ["false", 0, null, undefined, {}])
      expect(validateSettingValue(flag, bad).ok).toBe(false);
  });

  it("validates integers, enums and text against their limits", () => {
    expect(validateSettingValue(integer, 10).ok).toBe(true);
    expect(validateSettingValue(integer, 11)).toEqual({
      ok: false,
      message: "expected a whole number from 1 to 10",
    });
    expect(validateSettingValue(integer, 2.5).ok).toBe(false);
    expect(validateSettingValue(integer, "3").ok).toBe(false);
    expect(validateSettingValue(choice, "b").ok).toBe(true);
    expect(validateSettingValue(choice, "c")).toEqual({ ok: false, message: "expected one of a, b" });
    expect(validateSettingValue(text, "abc").ok).toBe(true);
    expect(validateSettingValue(text, "abcd").ok).toBe(false);
    expect(validateSettingValue(text, 1).ok).toBe(false);
  });

  it("reads only boolean feature flags into the flags", () => {
    expect(featureFlagsOf({ search: "yes", repositoryBrowser: false })).toEqual({
      search: false,
      repositoryBrowser: false,
    });
  });
});

describe("pathsSwitchedOff", () => {
  it("names the pages of the flags that are off, and only those", () => {
    expect(pathsSwitchedOff({ search: true, repositoryBrowser: true })).toEqual([]);
    expect(pathsSwitchedOff({ search: false, repositoryBrowser: false })).toEqual(["/resources"]);
    expect(pathsSwitchedOff({})).toEqual([]);
  });
});
