import fs, { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_REPOSITORIES } from "../../../db/seed/demo-repositories/catalog.ts";
import { generateDemoRepositories } from "../../../db/seed/demo-repositories/generate.ts";
import { createLocalSource } from "./local-source.ts";

const author = { name: "Test", email: "test@example.com", timestamp: 1_767_225_600, timezoneOffset: 0 };

describe("local git source", () => {
  let root: string;
  let outside: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "lumen-repos-"));
    outside = mkdtempSync(path.join(tmpdir(), "lumen-outside-"));
    await generateDemoRepositories(root);

    // A working copy (not bare) with a branch whose tree holds symlinks in and out of the repository.
    const dir = path.join(root, "working-copy");
    fs.mkdirSync(dir);
    await git.init({ fs, dir, defaultBranch: "main" });
    writeFileSync(path.join(dir, "README.md"), "# Working copy\n");
    await git.add({ fs, dir, filepath: "README.md" });
    const first = await git.commit({ fs, dir, message: "First", author });
    const gitdir = path.join(dir, ".git");
    const blob = (text: string) => git.writeBlob({ fs, gitdir, blob: new TextEncoder().encode(text) });
    const tree = await git.writeTree({
      fs,
      gitdir,
      tree: [
        { mode: "100644", path: "README.md", oid: await blob("# Working copy\n"), type: "blob" },
        { mode: "120000", path: "inside", oid: await blob("README.md"), type: "blob" },
        { mode: "120000", path: "escape", oid: await blob("../../../etc/passwd"), type: "blob" },
        { mode: "120000", path: "absolute", oid: await blob("/etc/passwd"), type: "blob" },
      ],
    });
    await git.commit({
      fs,
      gitdir,
      message: "Links",
      author,
      tree,
      parent: [first],
      ref: "refs/heads/links",
    });

    // A repository folder that is a symlink to a repository outside the root.
    await generateDemoRepositories(outside);
    symlinkSync(path.join(outside, "tidy-csv"), path.join(root, "linked-outside"));
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const source = (name: string) => createLocalSource({ root, path: name });

  it("lists branches with their last commit, default branch first in HEAD", async () => {
    const s = source("prompt-eval-kit");
    expect(await s.defaultBranch()).toBe("main");
    const branches = await s.listBranches();
    expect(branches.map((b) => b.name)).toEqual(["feature/json-keys", "main"]);
    expect(branches[1]?.lastCommit).toMatchObject({
      message: "Add the project logo",
      author: "Lumen Hub Demo",
      date: "2026-01-20T16:10:00.000Z",
    });
  });

  it("every demo repository has a README, several commits and at least two branches", async () => {
    expect(DEMO_REPOSITORIES.length).toBeGreaterThanOrEqual(4);
    for (const r of DEMO_REPOSITORIES) {
      const s = source(r.slug);
      expect((await s.readme("main"))?.text).toMatch(/^# /);
      expect((await s.listCommits("main", 50)).length).toBeGreaterThanOrEqual(2);
      expect((await s.listBranches()).length).toBeGreaterThanOrEqual(2);
    }
  });

  it("lists a folder: folders first, then files, with sizes", async () => {
    const s = source("prompt-eval-kit");
    const root = await s.listTree("main");
    expect(root.map((e) => `${e.type}:${e.name}`)).toEqual([
      "dir:assets",
      "dir:examples",
      "dir:src",
      "file:.gitignore",
      "file:README.md",
      "file:package.json",
    ]);
    const src = await s.listTree("main", "src");
    expect(src.map((e) => e.path)).toEqual(["src/checks.ts", "src/run.ts"]);
    expect(src[0]?.size).toBeGreaterThan(100);
    // The feature branch has the extra file.
    expect((await s.listTree("feature/json-keys", "src/")).map((e) => e.name)).toContain("json-keys.ts");
  });

  it("reads text and binary blobs", async () => {
    const s = source("prompt-eval-kit");
    const checks = await s.readBlob("main", "src/checks.ts");
    expect(checks.isBinary).toBe(false);
    expect(checks.mimeType).toMatch(/^text\/typescript/);
    expect(new TextDecoder().decode(checks.bytes)).toContain("export function runCheck");
    const logo = await s.readBlob("main", "assets/logo.png");
    expect(logo).toMatchObject({ isBinary: true, mimeType: "image/png" });
    expect(Array.from(logo.bytes.subarray(1, 4))).toEqual([0x50, 0x4e, 0x47]);
    const csv = await source("tidy-csv").readBlob("main", "sample/customers.csv");
    expect(csv).toMatchObject({ isBinary: false, size: csv.bytes.length });
  });

  it("lists commits newest first with real messages", async () => {
    const commits = await source("tidy-csv").listCommits("main", 2);
    expect(commits.map((c) => c.message)).toEqual([
      "Test header, date and duplicate handling",
      "Add a messy sample export to try it on",
    ]);
    expect(commits[0]?.sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it("lists every file of a branch and names the main language", async () => {
    const files = await source("rag-starter").listAllFiles("feature/chunk-overlap");
    expect(files.filter((f) => f.type === "file").map((f) => f.path)).toContain("chunk_overlap.py");
    expect((await source("rag-starter").metadata()).language).toBe("Python");
    expect((await source("skills-matrix").metadata()).language).toBe("Markdown");
  });

  it("is deterministic: generating again gives the same commit ids", async () => {
    const other = mkdtempSync(path.join(tmpdir(), "lumen-repos-"));
    try {
      await generateDemoRepositories(other);
      const a = await source("skills-matrix").listBranches();
      const b = await createLocalSource({ root: other, path: "skills-matrix" }).listBranches();
      expect(b.map((x) => x.sha)).toEqual(a.map((x) => x.sha));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("refuses traversal, and unknown branches or paths are NOT_FOUND", async () => {
    const s = source("prompt-eval-kit");
    for (const p of ["../tidy-csv/README.md", "/etc/passwd", "src/..%2f..%2fx", "src\\checks.ts", "a\0b"]) {
      await expect(s.readBlob("main", p)).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    }
    await expect(s.listTree("main", "../..")).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    await expect(s.readBlob("no-such-branch", "README.md")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(s.listTree("no-such-branch")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(s.readBlob("main", "src/missing.ts")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(s.readBlob("main", "src")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(s.listTree("main", "src/checks.ts")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(s.listCommits("../main")).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
  });

  it("reads a working copy and follows symlinks only inside the repository", async () => {
    const s = source("working-copy");
    expect(await s.defaultBranch()).toBe("main");
    const links = await s.listTree("links");
    expect(links.map((e) => e.name).sort()).toEqual(["README.md", "inside"]);
    expect(new TextDecoder().decode((await s.readBlob("links", "inside")).bytes)).toBe("# Working copy\n");
    await expect(s.readBlob("links", "escape")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(s.readBlob("links", "absolute")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses repository folders outside the root", async () => {
    await expect(source("linked-outside").listBranches()).rejects.toMatchObject({
      code: "SOURCE_UNAVAILABLE",
    });
    await expect(source("../outside").listBranches()).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    await expect(source("missing-repo").listBranches()).rejects.toMatchObject({ code: "SOURCE_UNAVAILABLE" });
  });
});
