import { describe, expect, it } from "vitest";
import { rawContentType } from "./repositories-api.ts";

describe("rawContentType", () => {
  it("serves text as text/plain, raster images with their type, anything else as an attachment", () => {
    expect(rawContentType({ isBinary: false, mimeType: "text/html; charset=utf-8" }, "document")).toEqual({
      type: "text/plain; charset=utf-8",
      attachment: false,
    });
    expect(rawContentType({ isBinary: true, mimeType: "image/png" }, undefined)).toEqual({
      type: "image/png",
      attachment: false,
    });
    expect(rawContentType({ isBinary: true, mimeType: "application/pdf" }, "document")).toEqual({
      type: "application/octet-stream",
      attachment: true,
    });
  });

  it("serves an SVG as an image only to <img>, as text when opened", () => {
    expect(rawContentType({ isBinary: false, mimeType: "image/svg+xml" }, "image").type).toBe(
      "image/svg+xml",
    );
    expect(rawContentType({ isBinary: false, mimeType: "image/svg+xml" }, "document").type).toBe(
      "text/plain; charset=utf-8",
    );
  });
});
