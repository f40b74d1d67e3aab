import { describe, expect, it } from "vitest";
import { formatMoney, formatPrice } from "./money.ts";

describe("formatMoney", () => {
  it("shows whole amounts without cents and other amounts with them", () => {
    expect(formatMoney(1900, "usd")).toBe("$19");
    expect(formatMoney(19000, "usd")).toBe("$190");
    expect(formatMoney(950, "usd")).toBe("$9.50");
    expect(formatMoney(1, "usd")).toBe("$0.01");
    expect(formatMoney(0, "usd")).toBe("$0");
  });

  it("groups thousands and reads the currency case-insensitively", () => {
    expect(formatMoney(10_000_000, "usd")).toBe("$100,000");
    expect(formatMoney(4900, "EUR")).toBe("€49");
    expect(formatMoney(4950, "gbp")).toBe("£49.50");
  });

  it("never throws on a currency Intl does not know or a bad amount", () => {
    expect(formatMoney(1234, "zz1")).toBe("ZZ1 12.34");
    expect(formatMoney(Number.NaN, "usd")).toBe("$0");
  });
});

describe("formatPrice", () => {
  it("adds the interval and the seat", () => {
    expect(formatPrice(1900, "usd", "month")).toBe("$19/month");
    expect(formatPrice(15000, "usd", "year", { perSeat: true })).toBe("$150 per seat/year");
  });
});
