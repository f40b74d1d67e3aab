import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "./format.ts";

describe("formatDate / formatDateTime (UTC, so server and browser render the same text)", () => {
  it("formats a day and a moment", () => {
    expect(formatDate("2026-03-04T23:30:00Z")).toBe("Mar 4, 2026");
    expect(formatDateTime("2026-03-04T09:05:00Z")).toBe("Mar 4, 2026, 9:05 AM UTC");
    expect(formatDateTime(Date.parse("2026-03-04T21:05:00Z"))).toBe("Mar 4, 2026, 9:05 PM UTC");
  });
  it("is null when the value is missing or unreadable", () => {
    for (const v of [null, undefined, "", "soon"]) {
      expect(formatDate(v)).toBeNull();
      expect(formatDateTime(v)).toBeNull();
    }
    expect(formatDateTime(Number.NaN)).toBeNull();
  });
});
