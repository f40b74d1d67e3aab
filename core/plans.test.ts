import { describe, expect, it } from "vitest";
import { PLAN_BADGE_TEXT, paywallCopy, planBadge, planLabel } from "./plans.ts";

describe("planBadge", () => {
  it.each([
    ["Free", "individual", null],
    ["Free", "business", null],
    ["Basic", "individual", "basic"],
    ["Basic", "business", "basic"],
    ["Basic", null, "basic"],
    ["Pro", "individual", "pro"],
    ["Pro", null, "pro"],
    ["Pro", undefined, "pro"],
    ["Pro", "business", "MultiSeatPro"],
    ["Enterprise", "individual", "Business"],
    ["Enterprise", "business", "Business"],
    ["Enterprise", null, "Business"],
    ["Visitor", null, null],
    [null, "business", null],
    [undefined, undefined, null],
  ] as const)("%s / %s → %j", (tier, accountType, badge) => {
    expect(planBadge(tier, accountType)).toBe(badge);
  });

  it("has display text for every badge", () => {
    expect(PLAN_BADGE_TEXT).toEqual({
      basic: "Basic",
      pro: "Pro",
      Business: "Business",
      MultiSeatPro: "Multi-seat Pro",
    });
  });
});

describe("planLabel", () => {
  it("names paid plans and hides free ones", () => {
    expect(planLabel("Basic")).toBe("Basic plan");
    expect(planLabel("Pro")).toBe("Pro plan");
    expect(planLabel("Enterprise")).toBe("Enterprise plan");
    expect(planLabel("Free")).toBeNull();
    expect(planLabel("Visitor")).toBeNull();
    expect(planLabel(null)).toBeNull();
    expect(planLabel(undefined)).toBeNull();
  });
});

describe("paywallCopy", () => {
  it("uses the spec's wording", () => {
    expect(paywallCopy("Pro")).toEqual({
      title: "Premium Content",
      message: "This content requires a Pro subscription or higher.",
      upgradeLabel: "Upgrade to Pro",
    });
    expect(paywallCopy("Enterprise").upgradeLabel).toBe("Upgrade to Enterprise");
  });
});
