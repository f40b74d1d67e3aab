import { describe, expect, it } from "vitest";
import { includingPhrase, itemName, plural, yearlySavingText } from "./plan-copy.ts";

describe("plan copy", () => {
  it("names courses and other items", () => {
    expect(itemName({ title: "Responsible AI", type: "course" })).toBe("the Responsible AI course");
    expect(itemName({ title: "Prompt patterns", type: "article" })).toBe("“Prompt patterns”");
  });

  it("joins up to two highlights", () => {
    expect(includingPhrase([])).toBe("");
    expect(includingPhrase([{ title: "A", type: "course" }])).toBe(", including the A course");
    expect(
      includingPhrase([
        { title: "A", type: "course" },
        { title: "B", type: "article" },
        { title: "C", type: "video" },
      ]),
    ).toBe(", including the A course and “B”");
  });

  it("words the yearly saving, or nothing when a year saves nothing", () => {
    expect(yearlySavingText({ yearlySavingCents: 3800, yearlySavingPercent: 17, currency: "usd" })).toBe(
      "Save 17% — $38 a year",
    );
    expect(
      yearlySavingText({ yearlySavingCents: 3000, yearlySavingPercent: 17, currency: "usd", perSeat: true }),
    ).toBe("Save 17% — $30 a year per seat");
    expect(yearlySavingText({ yearlySavingCents: 0, yearlySavingPercent: 0, currency: "usd" })).toBeNull();
  });

  it("counts", () => {
    expect(plural(1, "item")).toBe("1 item");
    expect(plural(14, "item")).toBe("14 items");
    expect(plural(2, "category", "categories")).toBe("2 categories");
  });
});
