import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitHubReplay, startGitHubReplay } from "../../../../tests/helpers/github-replay.ts";
import { RateLimitedError } from "./errors.ts";
import { createGitHubClient } from "./github-client.ts";
import { createGitHubSource } from "./github-source.ts";

describe("GitHub source against recorded responses", () => {
  let replay: GitHubReplay;
  beforeAll(async () => {
    replay = await startGitHubReplay();
  });
  afterAll(() => replay.close());

  const make = (options: { token?: string; now?: () => number } = {}) => {
    const client = createGitHubClient({ baseUrl: replay.url, ...options });
    return { client, source: createGitHubSource({ client, owner: "lumen-labs", name: "eval-harness" }) };
  };

  it("maps repository metadata, sending the token and API version", async () => {
    const { source } = make({ token: "ghp_test_token" });
    expect(await source.metadata()).toEqual({
      githubId: 812345678,
      name: "eval-harness",
      fullName: "lumen-labs/eval-harness",
      owner: "lumen-labs",
      htmlUrl: "https://github.com/lumen-labs/eval-harness",
      description: "Run prompt test suites in CI and fail the build on regressions.",
      defaultBranch: "main",
      isPrivate: false,
      language: "TypeScript",
      stargazersCount: 342,
      forksCount: 27,
      size: 184,
    });
    expect(replay.requests.at(-1)?.authorization).toBe("Bearer ghp_test_token");
  });

  it("reuses the cached body on 304 Not Modified", async () => {
    const { client } = make();
    const first = await client.get<{ stargazers_count: number }>("/repos/lumen-labs/eval-harness");
    expect(first.notModified).toBe(false);
    const before = replay.requests.length;
    const second = await client.get<{ stargazers_count: number }>("/repos/lumen-labs/eval-harness");
    expect(second.notModified).toBe(true);
    expect(second.data.stargazers_count).toBe(342);
    expect(replay.requests.length).toBe(before + 1);
    expect(replay.requests.at(-1)?.ifNoneMatch).toBe('W/"5f1c0e2a9d3b7f41e2c8a6b0d4f9e713"');
  });

  it("lists branches, the tree (no submodules) and reads files and the README", async () => {
    const { source } = make();
    expect((await source.listBranches()).map((b) => [b.name, b.sha.slice(0, 7)])).toEqual([
      ["feature/junit-report", "9c2f4e1"],
      ["main", "3e5d7c9"],
    ]);
    expect((await source.listTree("main")).map((e) => `${e.type}:${e.path}`)).toEqual([
      "dir:.github",
      "dir:src",
      "file:README.md",
      "file:docs",
    ]);
    expect((await source.listTree("main", "src")).map((e) => [e.name, e.size])).toEqual([
      ["index.ts", 208],
      ["suite.ts", 1822],
    ]);
    const blob = await source.readBlob("main", "src/index.ts");
    expect(blob).toMatchObject({
      isBinary: false,
      size: 208,
      sha: "3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e",
    });
    expect(new TextDecoder().decode(blob.bytes)).toContain("export async function main");
    expect((await source.readme("main"))?.text).toMatch(/^# eval-harness/);
    expect(await source.listCommits("main", 1)).toEqual([
      {
        sha: "3e5d7c9b1a2f4e6d8c0b1a3f5e7d9c2b4a6f8e0d",
        message:
          "Fail the run when a suite file cannot be parsed (#41)\n\nA broken suite used to be skipped silently.",
        author: "Mara Okafor",
        date: "2026-02-27T17:40:11.000Z",
      },
    ]);
  });

  it("maps issues (pull requests left out) and workflows with their last run", async () => {
    const { source } = make();
    expect(await source.listIssues()).toEqual([
      {
        githubIssueId: 2876543210,
        number: 43,
        title: "Support YAML suite files",
        state: "open",
        body: "JSON suites are noisy to review. YAML with comments would help.",
        labels: ["enhancement"],
      },
      {
        githubIssueId: 2865432109,
        number: 40,
        title: "Broken suite files are skipped silently",
        state: "closed",
        body: "A suite with a trailing comma is ignored and the run passes.",
        labels: ["bug", "good first issue"],
      },
    ]);
    expect(await source.listWorkflows()).toEqual([
      {
        githubWorkflowId: 91234567,
        name: "CI",
        path: ".github/workflows/ci.yml",
        state: "active",
        lastRunStatus: "success",
        lastRunDate: "2026-02-27T17:40:20.000Z",
      },
      {
        githubWorkflowId: 91234568,
        name: "Nightly evals",
        path: ".github/workflows/nightly.yml",
        state: "disabled_manually",
        lastRunStatus: "cancelled",
        lastRunDate: "2026-01-14T03:00:11.000Z",
      },
    ]);
  });

  it("unknown branch or path → NOT_FOUND; traversal refused before any request", async () => {
    const { source } = make();
    await expect(source.listTree("no-such-branch")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(source.readBlob("main", "src/missing.ts")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(source.listTree("main", "lib")).rejects.toMatchObject({ code: "NOT_FOUND" });
    const before = replay.requests.length;
    await expect(source.readBlob("main", "../../etc/passwd")).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
    });
    await expect(source.readBlob("main", "%2e%2e/x")).rejects.toMatchObject({ code: "BAD_USER_INPUT" });
    expect(replay.requests.length).toBe(before);
    expect(() => createGitHubSource({ client: make().client, owner: "../x", name: "y" })).toThrow();
  });

  it("a rate-limited 403 → RateLimitedError with the reset time, and no request until then", async () => {
    let clock = 1_775_000_000_000;
    const client = createGitHubClient({ baseUrl: replay.url, now: () => clock });
    const busy = createGitHubSource({ client, owner: "lumen-labs", name: "busy-repo" });
    const error = await busy.metadata().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).resetAt.toISOString()).toBe(new Date(1_775_003_600_000).toISOString());
    const before = replay.requests.length;
    const other = createGitHubSource({ client, owner: "lumen-labs", name: "eval-harness" });
    await expect(other.metadata()).rejects.toBeInstanceOf(RateLimitedError);
    expect(replay.requests.length).toBe(before);
    clock = 1_775_003_600_001;
    expect((await other.metadata()).name).toBe("eval-harness");
    expect(replay.requests.length).toBe(before + 1);
  });

  it("an unreachable server → SourceUnavailableError", async () => {
    const client = createGitHubClient({ baseUrl: "http://127.0.0.1:9", timeoutMs: 2000 });
    const source = createGitHubSource({ client, owner: "lumen-labs", name: "eval-harness" });
    await expect(source.metadata()).rejects.toMatchObject({ code: "SOURCE_UNAVAILABLE" });
  });
});
