import { describe, expect, it } from "vitest";
import { resolveSymlinkTarget, safeBranchName, safeDirectory, safeRepositoryPath } from "./paths.ts";

describe("repository path safety", () => {
  it.each([
    "../etc/passwd",
    "src/../../secret",
    "..",
    "./src",
    "/etc/passwd",
    "C:/Windows/win.ini",
    "src\\index.ts",
    "src/\0index.ts",
    "src//index.ts",
    "%2e%2e/secret",
    "src/%2E%2E/x",
    "src%2f..%2fx",
    "a/%5c..",
    "src/\u0007bell",
  ])("refuses %j", (p) => {
    expect(() => safeRepositoryPath(p)).toThrow(expect.objectContaining({ code: "BAD_USER_INPUT" }));
  });

  it("accepts ordinary paths and folders", () => {
    expect(safeRepositoryPath("src/index.ts")).toBe("src/index.ts");
    expect(safeRepositoryPath(".github/workflows/ci.yml")).toBe(".github/workflows/ci.yml");
    expect(safeRepositoryPath("notes/50% done.md")).toBe("notes/50% done.md");
    expect(safeDirectory("")).toBe("");
    expect(safeDirectory("/")).toBe("");
    expect(safeDirectory("src/")).toBe("src");
    expect(() => safeRepositoryPath("")).toThrow();
  });

  it.each([
    "",
    "-rf",
    "a..b",
    "feature//x",
    "x.lock",
    "refs/../x",
    "a b",
    "a~1",
    "a:b",
    "HEAD@{1}",
    ".hidden",
    "x/",
  ])("refuses the branch name %j", (b) => {
    expect(() => safeBranchName(b)).toThrow(expect.objectContaining({ code: "BAD_USER_INPUT" }));
  });

  it("accepts branch names git accepts", () => {
    for (const b of ["main", "feature/json-keys", "release-1.2", "draft/product-manager"]) {
      expect(safeBranchName(b)).toBe(b);
    }
  });

  it("resolves symlink targets inside the repository only", () => {
    expect(resolveSymlinkTarget("docs/link.md", "../README.md")).toBe("README.md");
    expect(resolveSymlinkTarget("docs", "guide")).toBe("guide");
    expect(resolveSymlinkTarget("a/b/link", "./c")).toBe("a/b/c");
    expect(resolveSymlinkTarget("link", "../outside")).toBeNull();
    expect(resolveSymlinkTarget("a/link", "../../etc/passwd")).toBeNull();
    expect(resolveSymlinkTarget("link", "/etc/passwd")).toBeNull();
    expect(resolveSymlinkTarget("link", "..\\x")).toBeNull();
  });
});
