import { describe, expect, it } from "vitest";
import { hasPreviewMarker, PREVIEW_MARKER, publicPreviewSource } from "./content-preview.ts";

describe("publicPreviewSource", () => {
  it("keeps what comes before the marker line", () => {
    const body = `# Title\n\nThe opening paragraph.\n\n${PREVIEW_MARKER}\n\nThe secret part.`;
    expect(publicPreviewSource(body)).toBe("# Title\n\nThe opening paragraph.");
  });

  it("tolerates white space and any case, and CRLF line ends", () => {
    for (const marker of ["<!--more-->", "  <!--   MORE  -->  ", "\t<!-- More -->"]) {
      expect(publicPreviewSource(`Intro\r\n${marker}\r\nSecret`), marker).toBe("Intro");
    }
  });

  it("has no preview without a marker, or with nothing before it", () => {
    expect(publicPreviewSource("Just a body.\n\nMore of it.")).toBeNull();
    expect(publicPreviewSource(`${PREVIEW_MARKER}\nSecret`)).toBeNull();
    expect(publicPreviewSource("")).toBeNull();
  });

  it("needs the marker on a line of its own", () => {
    expect(publicPreviewSource("Intro <!-- more --> secret")).toBeNull();
    expect(publicPreviewSource("Intro\n<!-- more --> secret")).toBeNull();
    expect(publicPreviewSource("Intro\n<!-- read more -->\nsecret")).toBeNull();
  });

  it("ignores a marker inside a fenced code block and uses the first real one", () => {
    const body =
      "Intro\n\n```html\n<!-- more -->\n```\n\nStill public.\n<!-- more -->\nSecret\n<!-- more -->\nMore secret";
    expect(publicPreviewSource(body)).toBe("Intro\n\n```html\n<!-- more -->\n```\n\nStill public.");
    expect(publicPreviewSource("Intro\n~~~\n<!-- more -->\n")).toBeNull();
  });

  it("hasPreviewMarker", () => {
    expect(hasPreviewMarker(`a\n${PREVIEW_MARKER}\nb`)).toBe(true);
    expect(hasPreviewMarker("a\nb")).toBe(false);
  });
});
