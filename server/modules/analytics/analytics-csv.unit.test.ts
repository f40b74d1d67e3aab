import { describe, expect, it } from "vitest";
import type { DayFigures } from "./analytics.service.ts";
import { analyticsCsv, csvCell, toCsv } from "./analytics-csv.ts";
import { normaliseSearchQuery, READER_TIERS, REDACTED_QUERY, readerTierOf } from "./analytics-recorder.ts";

const day = (d: string, views: number): DayFigures => ({
  day: d,
  views,
  readers: 2,
  signUps: 1,
  upgrades: 0,
  downgrades: 0,
  conversions: 0,
  churn: 0,
  completions: 3,
  published: 0,
  searches: 4,
  zeroResultSearches: 1,
});

describe("analytics CSV", () => {
  it("has a header row and one CRLF row per day", () => {
    const text = analyticsCsv([day("2026-03-01", 5), day("2026-03-02", 0)]);
    expect(text.split("\r\n")).toEqual([
      "day,views,unique_readers,sign_ups,upgrades,downgrades,conversions,churn,course_completions,content_published,searches,zero_result_searches",
      "2026-03-01,5,2,1,0,0,0,0,3,0,4,1",
      "2026-03-02,0,2,1,0,0,0,0,3,0,4,1",
      "",
    ]);
    expect(analyticsCsv([])).toBe(`${text.split("\r\n")[0]}\r\n`);
  });

  it("quotes commas, quotes and line breaks, and defuses formulas", () => {
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-x,y")).toBe(`"'-x,y"`);
    expect(csvCell("@me")).toBe("'@me");
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell(null)).toBe("");
    expect(toCsv([["a", 1, null]])).toBe("a,1,\r\n");
  });
});

describe("what the recorder keeps", () => {
  it("normalises search texts and leaves out e-mail addresses and phone numbers", () => {
    expect(normaliseSearchQuery("  Prompt   ENGINEERING ")).toBe("prompt engineering");
    expect(normaliseSearchQuery("   ")).toBeNull();
    expect(normaliseSearchQuery("ｆｕｌｌｗｉｄｔｈ")).toBe("fullwidth");
    expect(normaliseSearchQuery("x".repeat(300))).toHaveLength(100);
    expect(normaliseSearchQuery("mail jane.doe@example.com")).toBe(REDACTED_QUERY);
    expect(normaliseSearchQuery("+44 20 7946 0958")).toBe(REDACTED_QUERY);
    expect(normaliseSearchQuery("gpt 4 vs gpt 5")).toBe("gpt 4 vs gpt 5");
    expect(normaliseSearchQuery("2026 roadmap")).toBe("2026 roadmap");
  });

  it("splits readers by tier: visitors, then the plan (none = free, business = enterprise)", () => {
    expect(readerTierOf({ isAuthenticated: false, tier: null })).toBe("visitor");
    expect(readerTierOf({ isAuthenticated: true, tier: null })).toBe("free");
    expect(readerTierOf({ isAuthenticated: true, tier: "Pro" })).toBe("pro");
    expect(readerTierOf({ isAuthenticated: true, tier: "Business" })).toBe("enterprise");
    expect(readerTierOf({ isAuthenticated: true, tier: "Visitor" })).toBe("free");
    expect(readerTierOf({ isAuthenticated: true, tier: "weird" })).toBe("free");
    expect(READER_TIERS).toEqual(["visitor", "free", "basic", "pro", "enterprise"]);
  });
});
