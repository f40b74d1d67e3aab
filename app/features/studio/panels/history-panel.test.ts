import { describe, expect, it } from "vitest";
import { defaultCompare, latestVersion } from "./history-panel.tsx";
import type { VersionSummary } from "./types.ts";

const v = (version: number): VersionSummary => ({
  version,
  authorId: null,
  authorName: null,
  createdAt: "2026-01-01T00:00:00Z",
  title: "T",
  note: null,
});

describe("history choices", () => {
  it("treats the newest saved version as the current content", () => {
    expect(latestVersion([v(2), v(5), v(3)])).toBe(5);
    expect(latestVersion([])).toBeNull();
  });

  it("first compares the version before the latest with the current content", () => {
    expect(defaultCompare([v(3), v(2), v(1)])).toEqual({ from: 2, to: "current" });
    expect(defaultCompare([v(1), v(4)])).toEqual({ from: 1, to: "current" });
    expect(defaultCompare([v(1)])).toBeNull();
  });
});
