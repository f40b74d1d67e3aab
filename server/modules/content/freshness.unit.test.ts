import { describe, expect, it } from "vitest";
import { reviewPeriodKey } from "../../../core/index.ts";
import {
  DAY_MS,
  defaultReviewPeriods,
  effectiveReviewBy,
  effectiveReviewByMs,
  isStale,
  reviewedPatch,
  reviewPeriodsFrom,
} from "./freshness.ts";

const published = "2026-01-01T00:00:00.000Z";
const at = (iso: string) => Date.parse(iso);

describe("review periods", () => {
  it("defaults per section, none without a section or for an unknown one", () => {
    expect(defaultReviewPeriods("ai-news")).toBe(30);
    expect(defaultReviewPeriods("documentation")).toBe(180);
    expect(defaultReviewPeriods("ai-education")).toBe(365);
    expect(defaultReviewPeriods("workforce-tools")).toBe(180);
    expect(defaultReviewPeriods("resources")).toBe(365);
    expect(defaultReviewPeriods(null)).toBe(0);
    expect(defaultReviewPeriods("no-such-section")).toBe(0);
  });

  it("reads the live settings, falling back to the default for a missing or invalid value", () => {
    const stored: Record<string, unknown> = {
      [reviewPeriodKey("ai-news")]: 7,
      [reviewPeriodKey("documentation")]: 0,
      [reviewPeriodKey("resources")]: "soon",
    };
    const periods = reviewPeriodsFrom((key) => stored[key] as number | undefined);
    expect(periods("ai-news")).toBe(7);
    expect(periods("documentation")).toBe(0);
    expect(periods("resources")).toBe(365);
    expect(periods("ai-education")).toBe(365);
  });
});

describe("effective review-by date", () => {
  const base = { section: "ai-news", publishedAt: published, reviewBy: null, lastReviewedAt: null };

  it("is the item's own date when it has one, whatever the section says", () => {
    expect(effectiveReviewBy({ ...base, reviewBy: "2026-06-01T00:00:00.000Z" }, defaultReviewPeriods)).toBe(
      "2026-06-01T00:00:00.000Z",
    );
  });

  it("is the publication plus the section's period when never reviewed", () => {
    expect(effectiveReviewBy(base, defaultReviewPeriods)).toBe("2026-01-31T00:00:00.000Z");
    expect(effectiveReviewBy({ ...base, section: "documentation" }, defaultReviewPeriods)).toBe(
      new Date(at(published) + 180 * DAY_MS).toISOString(),
    );
  });

  it("counts from the last review when there is one", () => {
    const reviewed = { ...base, lastReviewedAt: "2026-03-10T12:00:00.000Z" };
    expect(effectiveReviewBy(reviewed, defaultReviewPeriods)).toBe("2026-04-09T12:00:00.000Z");
  });

  it("is null without a date to count from, without a section, or with a period of 0", () => {
    expect(effectiveReviewByMs({ ...base, publishedAt: null }, defaultReviewPeriods)).toBeNull();
    expect(effectiveReviewByMs({ ...base, section: null }, defaultReviewPeriods)).toBeNull();
    expect(effectiveReviewByMs(base, () => 0)).toBeNull();
    // An own date still counts without a section.
    expect(effectiveReviewByMs({ ...base, section: null, reviewBy: published }, () => 0)).toBe(at(published));
  });

  it("follows a changed period", () => {
    expect(effectiveReviewBy(base, () => 10)).toBe("2026-01-11T00:00:00.000Z");
  });
});

describe("staleness", () => {
  it("turns stale at the review-by instant, not before", () => {
    const due = "2026-01-31T00:00:00.000Z";
    expect(isStale(due, at(due) - 1)).toBe(false);
    expect(isStale(due, at(due))).toBe(true);
    expect(isStale(due, at(due) + DAY_MS)).toBe(true);
    expect(isStale(null, Date.now())).toBe(false);
    expect(isStale("not a date", Date.now())).toBe(false);
  });
});

describe("marking reviewed", () => {
  const now = at("2026-05-01T09:00:00.000Z");

  it("records the time and reviewer and clears an own date that has come", () => {
    expect(reviewedPatch({ reviewBy: "2026-04-01T00:00:00.000Z" }, now, "u1")).toEqual({
      lastReviewedAt: "2026-05-01T09:00:00.000Z",
      lastReviewedBy: "u1",
      clearReviewBy: true,
    });
  });

  it("keeps an own date still ahead, and has nothing to clear without one", () => {
    expect(reviewedPatch({ reviewBy: "2026-12-01T00:00:00.000Z" }, now, "u1").clearReviewBy).toBe(false);
    expect(reviewedPatch({ reviewBy: null }, now, "u1").clearReviewBy).toBe(false);
  });

  it("makes a stale item fresh: the next date counts from the review", () => {
    const item = { section: "ai-news", publishedAt: published, reviewBy: null, lastReviewedAt: null };
    expect(isStale(effectiveReviewBy(item, defaultReviewPeriods), now)).toBe(true);
    const patch = reviewedPatch(item, now, "u1");
    const after = { ...item, lastReviewedAt: patch.lastReviewedAt };
    expect(effectiveReviewBy(after, defaultReviewPeriods)).toBe(new Date(now + 30 * DAY_MS).toISOString());
    expect(isStale(effectiveReviewBy(after, defaultReviewPeriods), now)).toBe(false);
  });
});
