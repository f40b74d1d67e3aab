import { describe, expect, it } from "vitest";
import {
  addInterval,
  changeDirection,
  currentPeriod,
  prorate,
  remainingFraction,
} from "./billing-periods.ts";

describe("billing periods", () => {
  it("adds calendar months and years, the 31st becoming the month's last day", () => {
    expect(addInterval("2026-01-31T10:00:00.000Z", "month")).toBe("2026-02-28T10:00:00.000Z");
    expect(addInterval("2026-11-24T06:00:00.000Z", "month")).toBe("2026-12-24T06:00:00.000Z");
    expect(addInterval("2026-12-24T06:00:00.000Z", "month")).toBe("2027-01-24T06:00:00.000Z");
    expect(addInterval("2028-02-29T00:00:00.000Z", "year")).toBe("2029-02-28T00:00:00.000Z");
  });

  it("finds the current period of a row that never had one", () => {
    expect(currentPeriod("2026-01-10T00:00:00.000Z", "month", "2026-11-24T00:00:00.000Z")).toEqual({
      periodStart: "2026-11-10T00:00:00.000Z",
      periodEnd: "2026-12-10T00:00:00.000Z",
    });
    expect(currentPeriod("2020-03-01T00:00:00.000Z", "year", "2026-11-24T00:00:00.000Z")).toEqual({
      periodStart: "2026-03-01T00:00:00.000Z",
      periodEnd: "2027-03-01T00:00:00.000Z",
    });
  });

  it("prorates an upgrade: the price difference for the rest of the period, never negative", () => {
    const period = { periodStart: "2026-11-01T00:00:00.000Z", periodEnd: "2026-12-01T00:00:00.000Z" };
    // 30-day period, 20 days left: two thirds of (1900 - 900).
    const now = "2026-11-11T00:00:00.000Z";
    expect(remainingFraction(period.periodStart, period.periodEnd, now)).toBeCloseTo(2 / 3, 10);
    expect(
      prorate({ ...period, now, currentPeriodCents: 900, newPeriodCents: 1900, intervalChanges: false }),
    ).toEqual({
      amountCents: 667,
      fraction: expect.closeTo(2 / 3, 10),
    });
    // Month → year: a full year from now less the unused two thirds of the month.
    expect(
      prorate({ ...period, now, currentPeriodCents: 1900, newPeriodCents: 19000, intervalChanges: true })
        .amountCents,
    ).toBe(19000 - 1267);
    // A cheaper plan "upgraded" to (seats, same price) costs nothing rather than a refund.
    expect(
      prorate({ ...period, now, currentPeriodCents: 1900, newPeriodCents: 900, intervalChanges: false })
        .amountCents,
    ).toBe(0);
    // Past the end: nothing left.
    expect(
      prorate({
        ...period,
        now: "2027-01-01T00:00:00.000Z",
        currentPeriodCents: 900,
        newPeriodCents: 1900,
        intervalChanges: false,
      }).amountCents,
    ).toBe(0);
  });

  it("tells upgrades from downgrades", () => {
    const pro = { tier: "pro", interval: "month" as const, seats: 1 };
    expect(changeDirection(pro, { ...pro, tier: "enterprise" })).toBe("upgrade");
    expect(changeDirection(pro, { ...pro, tier: "basic" })).toBe("downgrade");
    expect(changeDirection(pro, { ...pro, interval: "year" })).toBe("upgrade");
    expect(changeDirection({ ...pro, interval: "year" }, pro)).toBe("downgrade");
    expect(changeDirection({ ...pro, seats: 5 }, { ...pro, seats: 8 })).toBe("upgrade");
    expect(changeDirection({ ...pro, seats: 5 }, { ...pro, seats: 3 })).toBe("downgrade");
    expect(changeDirection({ ...pro, seats: 5 }, { ...pro, seats: 8, interval: "year" })).toBe("upgrade");
    expect(changeDirection({ ...pro, seats: 5, interval: "year" }, { ...pro, seats: 8 })).toBe("downgrade");
    expect(changeDirection(pro, pro)).toBe("same");
  });
});
