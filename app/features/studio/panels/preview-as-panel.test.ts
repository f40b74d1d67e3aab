import { describe, expect, it } from "vitest";
import { previewUrl } from "./preview-as-panel.tsx";

describe("previewUrl", () => {
  it("asks the public page for the reader, with the version so each save reloads it", () => {
    expect(previewUrl("/content/guide", "Pro")).toBe("/content/guide?previewAs=Pro");
    expect(previewUrl("/content/guide", "role:Editor", 7)).toBe("/content/guide?previewAs=role%3AEditor&v=7");
  });
});
