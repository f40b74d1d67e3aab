import { describe, expect, it } from "vitest";
import {
  breadcrumbs,
  fileDisplay,
  formatBytes,
  formatLineRange,
  parentDir,
  parseLineRange,
  parseView,
  rawHref,
  repositoryHref,
  resolveReadmeUrl,
  selectLine,
} from "./view-model.ts";

const text = { isBinary: false, mimeType: "text/typescript; charset=utf-8", language: "typescript" };

describe("repository browser view model", () => {
  it("parses and formats line anchors", () => {
    expect(parseLineRange("#L10")).toEqual({ start: 10, end: 10 });
    expect(parseLineRange("#L10-L20")).toEqual({ start: 10, end: 20 });
    expect(parseLineRange("#L20-L10")).toEqual({ start: 10, end: 20 });
    expect(parseLineRange("L7")).toEqual({ start: 7, end: 7 });
    for (const bad of ["", "#", "#L0", "#L-1", "#Lx", "#L10-", "#readme", "#L1-L2-L3"]) {
      expect(parseLineRange(bad)).toBeNull();
    }
    expect(formatLineRange({ start: 3, end: 3 })).toBe("#L3");
    expect(formatLineRange({ start: 3, end: 9 })).toBe("#L3-L9");
  });

  it("a click selects a line, a shift-click extends from the anchor", () => {
    expect(selectLine(null, 5, false)).toEqual({ start: 5, end: 5 });
    expect(selectLine(null, 5, true)).toEqual({ start: 5, end: 5 });
    expect(selectLine({ start: 5, end: 5 }, 12, true)).toEqual({ start: 5, end: 12 });
    expect(selectLine({ start: 5, end: 5 }, 2, true)).toEqual({ start: 2, end: 5 });
    expect(selectLine({ start: 5, end: 9 }, 7, false)).toEqual({ start: 7, end: 7 });
  });

  it("shows files by kind and size: highlighted, plain above 1 MiB, download only above 8 MiB", () => {
    const base = { ...text, tooLargeToHighlight: false, downloadOnly: false };
    expect(fileDisplay(base)).toEqual({ kind: "highlighted" });
    expect(fileDisplay({ ...base, language: null })).toEqual({ kind: "plain", reason: "no-language" });
    expect(fileDisplay({ ...base, tooLargeToHighlight: true })).toEqual({
      kind: "plain",
      reason: "too-large",
    });
    expect(fileDisplay({ ...base, tooLargeToHighlight: true, downloadOnly: true })).toEqual({
      kind: "download-only",
    });
    expect(fileDisplay({ ...base, isBinary: true, mimeType: "image/png", language: null })).toEqual({
      kind: "image",
    });
    expect(fileDisplay({ ...base, isBinary: true, mimeType: "application/zip", language: null })).toEqual({
      kind: "binary",
    });
    // a huge image is still download only
    expect(
      fileDisplay({ ...base, isBinary: true, mimeType: "image/png", language: null, downloadOnly: true }),
    ).toEqual({ kind: "download-only" });
  });

  it("builds page and raw URLs with query parameters", () => {
    expect(repositoryHref("tidy-csv")).toBe("/resources/tidy-csv");
    expect(repositoryHref("tidy-csv", { branch: "feature/x", path: "a b.py", view: "files" }, "L3")).toBe(
      "/resources/tidy-csv?branch=feature%2Fx&path=a+b.py#L3",
    );
    expect(repositoryHref("r", { view: "search", q: "x&y" })).toBe("/resources/r?view=search&q=x%26y");
    expect(rawHref("r", "main", "src/a.ts", true)).toBe(
      "/api/repositories/r/raw?branch=main&path=src%2Fa.ts&download=1",
    );
    expect(parseView("issues")).toBe("issues");
    expect(parseView("raw")).toBe("files");
    expect(parseView(null)).toBe("files");
  });

  it("resolves README links and images inside the repository, never above its root", () => {
    const ctx = { slug: "r", branch: "main", baseDir: "" };
    expect(resolveReadmeUrl("src/run.ts", "link", ctx)).toBe("/resources/r?branch=main&path=src%2Frun.ts");
    expect(resolveReadmeUrl("./docs/a.md#usage", "link", ctx)).toBe(
      "/resources/r?branch=main&path=docs%2Fa.md#usage",
    );
    expect(resolveReadmeUrl("assets/logo.png", "image", ctx)).toBe(
      "/api/repositories/r/raw?branch=main&path=assets%2Flogo.png",
    );
    expect(resolveReadmeUrl("../../../etc/passwd", "link", ctx)).toBe(
      "/resources/r?branch=main&path=etc%2Fpasswd",
    );
    expect(resolveReadmeUrl("../b.md", "link", { ...ctx, baseDir: "docs/x" })).toBe(
      "/resources/r?branch=main&path=docs%2Fb.md",
    );
    expect(resolveReadmeUrl("/README.md", "link", { ...ctx, baseDir: "docs" })).toBe(
      "/resources/r?branch=main&path=README.md",
    );
  });

  it("splits paths and formats sizes", () => {
    expect(breadcrumbs("src/lib/a.ts")).toEqual([
      { name: "src", path: "src" },
      { name: "lib", path: "src/lib" },
      { name: "a.ts", path: "src/lib/a.ts" },
    ]);
    expect(breadcrumbs("")).toEqual([]);
    expect(parentDir("src/lib/a.ts")).toBe("src/lib");
    expect(parentDir("a.ts")).toBe("");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(2048)).toBe("2.0 KB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.0 MB");
    expect(formatBytes(null)).toBe("");
  });
});
