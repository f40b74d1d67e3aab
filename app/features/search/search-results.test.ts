import { describe, expect, it } from "vitest";
import { resultCountText } from "./search-results.tsx";

describe("resultCountText", () => {
  it("counts results, singular for one", () => {
    expect(resultCountText(1, 1)).toBe("1 result");
    expect(resultCountText(1234, 15)).toBe("1,234 results");
    expect(resultCountText(0, 0)).toBe("0 results");
  });

  it("falls back to the shown count when the total is unknown", () => {
    expect(resultCountText(null, 7)).toBe("7 results");
  });

  it("marks a count that stopped at the search's candidate limit as a lower bound", () => {
    expect(resultCountText(500, 15, true)).toBe("500+ results");
  });
});
