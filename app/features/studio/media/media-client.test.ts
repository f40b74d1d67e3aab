import { describe, expect, it } from "vitest";
import { contentTypeOf, formatBytes, markdownImage, mediaIdOfRef } from "./media-client.ts";

const ID = "0190a1b2-c3d4-7e5f-8a9b-000000000001";

describe("media client helpers", () => {
  it("writes the Markdown of an image with its alt text escaped", () => {
    expect(markdownImage({ alt: "A chart", ref: `media:${ID}` })).toBe(`![A chart](media:${ID})`);
    expect(markdownImage({ alt: "a [b] \\ c\nd", ref: `media:${ID}` })).toBe(
      `![a \\[b\\] \\\\ c d](media:${ID})`,
    );
    expect(markdownImage({ alt: null, ref: `media:${ID}` })).toBe(`![](media:${ID})`);
  });

  it("reads references, types and sizes", () => {
    expect(mediaIdOfRef(`media:${ID}`)).toBe(ID);
    expect(mediaIdOfRef("https://cdn.example/v.mp4")).toBeNull();
    expect(contentTypeOf(new File(["x"], "captions.en.VTT"))).toBe("text/vtt");
    expect(contentTypeOf(new File(["x"], "a.png", { type: "image/png" }))).toBe("image/png");
    expect(formatBytes(12)).toBe("12 bytes");
    expect(formatBytes(2048)).toBe("2 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MB");
  });
});
