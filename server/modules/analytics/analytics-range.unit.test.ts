import { describe, expect, it } from "vitest";
import { BadInputError } from "../../errors.ts";
import {
  addDays,
  daysBetween,
  lastDays,
  parseAnalyticsRange,
  parseOverviewPeriod,
  rangeQuery,
} from "./analytics-range.ts";

const NOW = Date.parse("2026-03-15T18:30:00.000Z");

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BadInputError);
    return Object.keys((error as BadInputError).field ?? {})[0];
  }
  return undefined;
}

describe("parseAnalyticsRange", () => {
  it("defaults to the last 30 days ending today (UTC), with the previous 30 days before", () => {
    expect(parseAnalyticsRange(new URLSearchParams(), NOW)).toEqual({
      from: "2026-02-14",
      to: "2026-03-15",
      days: 30,
      preset: 30,
      previous: { from: "2026-01-15", to: "2026-02-13" },
    });
  });

  it("reads a preset and a custom range (to defaults to today)", () => {
    expect(parseAnalyticsRange({ days: "7" }, NOW)).toMatchObject({
      from: "2026-03-09",
      to: "2026-03-15",
      days: 7,
    });
    expect(parseAnalyticsRange({ from: "2026-03-01", to: "2026-03-01" }, NOW)).toMatchObject({
      days: 1,
      preset: null,
      previous: { from: "2026-02-28", to: "2026-02-28" },
    });
    expect(parseAnalyticsRange({ from: "2026-02-27" }, NOW)).toMatchObject({ to: "2026-03-15", days: 17 });
    // across a leap day and a year end
    expect(parseAnalyticsRange({ from: "2023-12-30", to: "2024-03-01" }, NOW).days).toBe(63);
    expect(parseAnalyticsRange({ from: "2025-03-15", to: "2026-03-15" }, NOW).days).toBe(366);
  });

  it.each([
    [{ from: "2026-02-30" }, "from"],
    [{ from: "15/03/2026" }, "from"],
    [{ from: "2026-3-1" }, "from"],
    [{ from: "1999-12-31", to: "2000-01-01" }, "from"],
    [{ to: "2026-03-01" }, "from"],
    [{ from: "2026-03-10", to: "2026-03-09" }, "to"],
    [{ from: "2026-03-10", to: "2026-03-16" }, "to"],
    [{ from: "2025-03-14", to: "2026-03-15" }, "from"],
    [{ days: "0" }, "days"],
    [{ days: "367" }, "days"],
    [{ days: "7.5" }, "days"],
    [{ days: "7", from: "2026-03-01" }, "days"],
    [{ days: ["7", "30"] }, "days"],
    [{ range: "7" }, "range"],
  ])("%j → 400 naming %s", (input, field) => {
    expect(fieldOf(() => parseAnalyticsRange(input as Record<string, string>, NOW))).toBe(field);
  });

  it("accepts the parameters a caller allows (format for the export)", () => {
    expect(fieldOf(() => parseAnalyticsRange({ format: "csv" }, NOW))).toBe("format");
    expect(parseAnalyticsRange({ format: "csv", days: "7" }, NOW, ["format"]).days).toBe(7);
  });
});

describe("parseOverviewPeriod", () => {
  it("reads 7d, 30d and 90d (default 30d) and refuses anything else", () => {
    expect(parseOverviewPeriod({}, NOW)).toMatchObject({
      period: "30d",
      range: { days: 30, to: "2026-03-15" },
    });
    expect(parseOverviewPeriod({ period: "90d" }, NOW).range).toMatchObject({ days: 90, from: "2025-12-16" });
    expect(fieldOf(() => parseOverviewPeriod({ period: "1y" }, NOW))).toBe("period");
    expect(fieldOf(() => parseOverviewPeriod({ days: "7" }, NOW))).toBe("days");
  });
});

describe("day helpers", () => {
  it("moves days and lists them inclusively", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(daysBetween("2026-02-27", "2026-03-02")).toEqual([
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
      "2026-03-02",
    ]);
    expect(daysBetween("2026-03-02", "2026-03-01")).toEqual([]);
  });

  it("writes a range back as a shareable query", () => {
    expect(rangeQuery(lastDays(7, "2026-03-15"))).toBe("days=7");
    expect(rangeQuery({ from: "2026-03-01", to: "2026-03-05", preset: null })).toBe(
      "from=2026-03-01&to=2026-03-05",
    );
  });
});
