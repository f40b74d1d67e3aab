import { describe, expect, it } from "vitest";
import { centsOf } from "./plans-admin.server.ts";

describe("centsOf (prices typed as money)", () => {
  it("reads whole and decimal amounts as cents", () => {
    expect(centsOf("19", "p")).toBe(1900);
    expect(centsOf(" 9.5 ", "p")).toBe(950);
    expect(centsOf("1,299.99", "p")).toBe(129999);
    expect(centsOf("0", "p")).toBe(0);
  });
  it("refuses anything that is not an amount, naming the field", () => {
    for (const bad of ["", "abc", "-1", "1.234", "1e3", "$19"]) {
      expect(() => centsOf(bad, "monthlyPriceCents"), bad).toThrow(/monthlyPriceCents/);
    }
  });
});
