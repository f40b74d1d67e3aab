import { describe, expect, it } from "vitest";
import { SLUG_PATTERN, slugify } from "./slugify.ts";

describe("slugify", () => {
  it.each([
    ["Hello World", "hello-world"],
    ["  Prompt   engineering 101 ", "prompt-engineering-101"],
    ["Café & Crème brûlée", "cafe-and-creme-brulee"],
    ["What's new in GPT-5?", "whats-new-in-gpt-5"],
    ["---", ""],
    ["日本語", ""],
  ])("%j → %j", (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it("always gives a slug the server accepts (or nothing)", () => {
    for (const title of ["A -- B", "x".repeat(300), `${"ab ".repeat(100)}`, "_a_b_", "1.2.3"]) {
      const slug = slugify(title);
      expect(slug.length).toBeLessThanOrEqual(200);
      if (slug) expect(slug).toMatch(SLUG_PATTERN);
    }
  });
});
