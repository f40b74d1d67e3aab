import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userActor, visitor } from "../../../tests/factories/actors.ts";
import { type GitHubReplay, startGitHubReplay } from "../../../tests/helpers/github-replay.ts";
import {
  DEMO_REPOSITORIES,
  repositoriesRoot,
  seedDemoRepositories,
} from "../../db/seed/demo-repositories/index.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { createRepositoriesRepo } from "./repositories.repo.ts";
import { createRepositoriesService, type RepositoriesService } from "./repositories.service.ts";
import { createRepositorySync, type RepositorySync } from "./repository-sync.ts";
import { createRepositorySources } from "./sources/index.ts";

const admin = () => userActor({ userId: "admin-sync", groups: ["app-admin"] });

describe.each(testDialects())("repository sources and sync on %s", (dialect) => {
  let t: TestDatabase;
  let dataDir: string;
  let replay: GitHubReplay;
  let clock = Date.parse("2026-03-01T12:00:00Z");
  let service: RepositoriesService;
  let sync: RepositorySync;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    dataDir = mkdtempSync(path.join(tmpdir(), "lumen-sync-"));
    replay = await startGitHubReplay();
    const sources = createRepositorySources({
      localRoot: repositoriesRoot(dataDir),
      github: { baseUrl: replay.url, now: () => clock, timeoutMs: 2000 },
    });
    sync = createRepositorySync({ db: t.db, sources, now: () => clock });
    service = createRepositoriesService({ db: t.db, sources, sync, now: () => clock });
  });
  afterAll(async () => {
    await replay.close();
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const snapshot = async () => ({
    repositories: await t.db.selectFrom("github_repository").selectAll().orderBy("slug").execute(),
    categories: await t.db.selectFrom("repository_category").selectAll().orderBy("slug").execute(),
    branches: await t.db
      .selectFrom("repository_branch")
      .select(["repositoryId", "name", "sha", "isDefault", "lastCommitMessage", "lastCommitDate"])
      .orderBy("repositoryId")
      .orderBy("name")
      .execute(),
    files: await t.db
      .selectFrom("repository_file")
      .select(["repositoryId", "path", "sha", "size", "type", "content"])
      .orderBy("repositoryId")
      .orderBy("path")
      .execute(),
  });

  it("seeds the demo repositories, synced, and a second seed changes nothing", async () => {
    const started = performance.now();
    const first = await seedDemoRepositories({ db: t.db, dataDir });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(first).toEqual({
      generated: DEMO_REPOSITORIES.length,
      categories: 3,
      repositories: DEMO_REPOSITORIES.length,
    });
    const before = await snapshot();
    expect(await seedDemoRepositories({ db: t.db, dataDir })).toEqual({
      generated: 0,
      categories: 0,
      repositories: 0,
    });
    expect(await snapshot()).toEqual(before);

    const repo = createRepositoriesRepo(t.db);
    for (const r of DEMO_REPOSITORIES) {
      const row = await repo.getRepositoryBySlug(r.slug);
      expect(row).toMatchObject({
        sourceType: "local",
        localPath: r.slug,
        defaultBranch: "main",
        language: r.language,
        lastSyncError: null,
      });
      expect(row?.lastSyncAt).not.toBeNull();
      expect(Date.parse(row!.cacheExpiry!)).toBeGreaterThan(Date.parse(row!.lastSyncAt!));
      const branches = await repo.listBranches(row!.id);
      expect(branches.length).toBeGreaterThanOrEqual(2);
      expect(branches[0]).toMatchObject({ name: "main", isDefault: true });
      expect(branches[0]?.lastCommitMessage).toBeTruthy();
      expect((await repo.getReadme(row!.id))?.content).toMatch(/^# /);
    }
  });

  it("serves tree, files, README and commits of any branch to visitors", async () => {
    const v = visitor();
    const overview = await service.getRepositoryOverview(v, "prompt-eval-kit");
    expect(overview.repository.displayName).toBe("Prompt Eval Kit");
    expect(overview.category?.slug).toBe("ai-tooling");
    expect(overview.branches.map((b) => b.name)).toEqual(["main", "feature/json-keys"]);
    expect(overview.readme?.path).toBe("README.md");

    const tree = await service.listRepositoryTree(v, "prompt-eval-kit", { dir: "src" });
    expect(tree.entries.map((e) => e.name)).toEqual(["checks.ts", "run.ts"]);
    const feature = await service.listRepositoryTree(v, "prompt-eval-kit", {
      branch: "feature/json-keys",
      dir: "src",
    });
    expect(feature.entries.map((e) => e.name)).toEqual(["checks.ts", "json-keys.ts", "run.ts"]);

    const file = await service.readRepositoryFile(v, "prompt-eval-kit", { path: "src/run.ts" });
    expect(file).toMatchObject({
      language: "typescript",
      isBinary: false,
      stale: false,
      downloadOnly: false,
    });
    expect(file.text).toContain("runCases");
    const logo = await service.readRepositoryFile(v, "prompt-eval-kit", { path: "assets/logo.png" });
    expect(logo).toMatchObject({ isBinary: true, mimeType: "image/png", text: null });
    const featureFile = await service.readRepositoryFile(v, "prompt-eval-kit", {
      branch: "feature/json-keys",
      path: "src/json-keys.ts",
    });
    expect(featureFile.text).toContain("checkJsonKeys");

    const commits = await service.listRepositoryCommits(v, "tidy-csv", { limit: 10 });
    expect(commits.commits.map((c) => c.message)).toContain("Add a messy sample export to try it on");
    expect(
      (await service.readRepositoryReadme(v, "rag-starter", { branch: "feature/chunk-overlap" }))?.text,
    ).toMatch(/^# rag-starter/);
  });

  it("refuses traversal; unknown repository, branch or path → NOT_FOUND", async () => {
    const v = visitor();
    for (const p of ["../tidy-csv/README.md", "/etc/passwd", "%2e%2e/secret", "src\\run.ts"]) {
      await expect(service.readRepositoryFile(v, "prompt-eval-kit", { path: p })).rejects.toMatchObject({
        code: "BAD_USER_INPUT",
      });
    }
    await expect(service.readRepositoryFile(v, "nope", { path: "README.md" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      service.readRepositoryFile(v, "prompt-eval-kit", { branch: "gone", path: "README.md" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      service.readRepositoryFile(v, "prompt-eval-kit", { path: "src/nope.ts" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(service.listRepositoryTree(v, "prompt-eval-kit", { dir: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("a disabled repository is NOT_FOUND except for platform admins; sync is for platform admins", async () => {
    const repo = createRepositoriesRepo(t.db);
    const row = (await repo.getRepositoryBySlug("skills-matrix"))!;
    await repo.updateRepository(row.id, { isEnabled: false });
    try {
      await expect(service.getRepositoryOverview(visitor(), "skills-matrix")).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      expect((await service.getRepositoryOverview(admin(), "skills-matrix")).repository.slug).toBe(
        "skills-matrix",
      );
    } finally {
      await repo.updateRepository(row.id, { isEnabled: true });
    }
    await expect(service.syncRepository(visitor(), row.id)).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    await expect(
      service.syncRepository(userActor({ userId: "pro-sync", groups: ["individual-pro"] }), row.id),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      service.addRepository(userActor({ userId: "pro-sync", groups: ["individual-pro"] }), {
        source: "local",
        localPath: "x",
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const { outcome } = await service.syncRepository(admin(), row.id);
    expect(outcome.ok).toBe(true);
  });

  it("a local repository whose folder is gone keeps its cached data and records the error", async () => {
    const created = await service.addRepository(admin(), {
      source: "local",
      localPath: "not-there",
      slug: "ghost",
    });
    const { outcome, repository } = await service.syncRepository(admin(), created.id);
    expect(outcome).toMatchObject({ ok: false, error: "local repository folder not found" });
    expect(repository.lastSyncError).toBe("local repository folder not found");
    await expect(
      service.addRepository(admin(), { source: "local", localPath: "../etc" }),
    ).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
    });
  });

  it("syncs a GitHub repository from recorded responses, then keeps it when GitHub is unreachable", async () => {
    const created = await service.addRepository(admin(), {
      source: "github",
      owner: "lumen-labs",
      name: "eval-harness",
      category: "ai-tooling",
      tags: ["ci"],
    });
    expect(created).toMatchObject({ slug: "lumen-labs-eval-harness", sourceType: "github" });
    const { outcome, repository } = await service.syncRepository(admin(), created.id);
    expect(outcome).toMatchObject({ ok: true, branches: 2, issues: 2, workflows: 2 });
    expect(repository).toMatchObject({
      githubId: 812345678,
      fullName: "lumen-labs/eval-harness",
      stargazersCount: 342,
      forksCount: 27,
      language: "TypeScript",
      defaultBranch: "main",
      description: "Run prompt test suites in CI and fail the build on regressions.",
      lastSyncError: null,
    });
    const repo = createRepositoriesRepo(t.db);
    const branches = await repo.listBranches(created.id);
    expect(branches[0]).toMatchObject({
      name: "main",
      isDefault: true,
      lastCommitDate: "2026-02-27T17:40:11.000Z",
    });
    expect((await repo.listIssues(created.id)).map((i) => [i.number, i.state, i.labels])).toEqual([
      [43, "open", ["enhancement"]],
      [40, "closed", ["bug", "good first issue"]],
    ]);
    expect((await repo.listWorkflows(created.id)).map((w) => [w.name, w.state, w.lastRunStatus])).toEqual([
      ["CI", "active", "success"],
      ["Nightly evals", "disabled_manually", "cancelled"],
    ]);

    // A file read on demand is cached in its repository_file row until cacheExpiry.
    const v = visitor();
    const file = await service.readRepositoryFile(v, created.slug, { path: "src/index.ts" });
    expect(file.text).toContain("runSuite");
    const cachedRow = await repo.getFile(created.id, "src/index.ts");
    expect(cachedRow?.content).toContain("runSuite");
    expect(Date.parse(cachedRow!.cacheExpiry!)).toBeGreaterThan(clock);

    // Background refresh: nothing is due before cacheExpiry.
    expect(await sync.refreshDue()).toEqual([]);

    // GitHub goes away: the sync records the error, every cached row stays.
    await replay.close();
    const before = await snapshot();
    clock += 2 * 60 * 60 * 1000;
    const failed = await service.syncRepository(admin(), created.id);
    expect(failed.outcome).toMatchObject({ ok: false, error: "GitHub could not be reached" });
    expect(failed.repository).toMatchObject({
      stargazersCount: 342,
      lastSyncError: "GitHub could not be reached",
    });
    const after = await snapshot();
    expect(after.branches).toEqual(before.branches);
    expect(after.files).toEqual(before.files);
    expect((await repo.listIssues(created.id)).length).toBe(2);

    // The expired cached file is still served, marked stale; the README and tree too.
    const stale = await service.readRepositoryFile(v, created.slug, { path: "src/index.ts" });
    expect(stale).toMatchObject({ stale: true });
    expect(stale.text).toContain("runSuite");
    expect((await service.getRepositoryOverview(v, created.slug)).readme?.text).toMatch(/^# eval-harness/);
    expect((await service.listRepositoryTree(v, created.slug)).entries.length).toBeGreaterThan(0);
    // Not cached and unreachable: a typed error, never a crash.
    await expect(
      service.readRepositoryFile(v, created.slug, { branch: "feature/junit-report", path: "README.md" }),
    ).rejects.toMatchObject({ code: "SOURCE_UNAVAILABLE" });
    replay = await startGitHubReplay();
  });

  it("a rate-limited repository records the reset as its next refresh", async () => {
    const sources = createRepositorySources({
      localRoot: repositoriesRoot(dataDir),
      github: { baseUrl: replay.url, now: () => clock },
    });
    const localSync = createRepositorySync({ db: t.db, sources, now: () => clock });
    const own = createRepositoriesService({ db: t.db, sources, sync: localSync, now: () => clock });
    const created = await own.addRepository(admin(), {
      source: "github",
      owner: "lumen-labs",
      name: "busy-repo",
    });
    const { outcome, repository } = await own.syncRepository(admin(), created.id);
    const reset = new Date(1_775_003_600_000).toISOString(); // the fixture's x-ratelimit-reset
    expect(outcome).toMatchObject({ ok: false, retryAt: reset });
    expect(repository.lastSyncError).toMatch(/rate limit/);
    expect(repository.cacheExpiry).toBe(reset);
  });

  it("the background refresh syncs expired repositories only, and its timer is unref'd", async () => {
    // The seed synced with the real clock: move past its expiry.
    clock = Math.max(clock, Date.now()) + 24 * 60 * 60 * 1000;
    const outcomes = await sync.refreshDue();
    const slugs = new Set(DEMO_REPOSITORIES.map((r) => r.slug));
    const repo = createRepositoriesRepo(t.db);
    const demoIds = new Set<string>();
    for (const slug of slugs) demoIds.add((await repo.getRepositoryBySlug(slug))!.id);
    expect(outcomes.filter((o) => demoIds.has(o.repositoryId)).every((o) => o.ok)).toBe(true);
    expect(outcomes.filter((o) => demoIds.has(o.repositoryId)).length).toBe(DEMO_REPOSITORIES.length);
    // Just synced: nothing of the demo set is due again.
    expect((await sync.refreshDue()).filter((o) => demoIds.has(o.repositoryId))).toEqual([]);
    const timer = sync.start(60_000);
    await timer.stop();
  });
});
