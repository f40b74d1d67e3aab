import { describe, expect, it } from "vitest";
import {
  PREVIEW_AUDIENCES,
  parsePreviewAudience,
  previewAudienceLabel,
  previewAudienceValue,
} from "./preview-as.ts";

describe("preview audiences", () => {
  it("reads every spelling the pickers offer, and back", () => {
    for (const audience of PREVIEW_AUDIENCES) {
      expect(parsePreviewAudience(previewAudienceValue(audience))).toEqual(audience);
    }
  });

  it("refuses anything that names no reader", () => {
    for (const value of [null, "", "pro", "Legend", "role:", "role:Owner", "role:editor", "Visitor"]) {
      expect(parsePreviewAudience(value), String(value)).toBeNull();
    }
  });

  it("names the reader for the banner", () => {
    expect(previewAudienceLabel({ kind: "tier", tier: "Pro" })).toBe("a Pro reader");
    expect(previewAudienceLabel({ kind: "tier", tier: "Enterprise" })).toBe("an Enterprise reader");
    expect(previewAudienceLabel({ kind: "visitor" })).toBe("a visitor (not signed in)");
    expect(previewAudienceLabel({ kind: "role", role: "Editor" })).toBe("an editor (Free plan)");
  });
});
