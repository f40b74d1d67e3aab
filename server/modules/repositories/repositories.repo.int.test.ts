import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError, ConflictError, NotFoundError } from "../../errors.ts";
import { createRepositoriesRepo } from "./repositories.repo.ts";

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe.each(testDialects())("repositories repository on %s", (dialect) => {
  let t: TestDatabase;
  let repos: ReturnType<typeof createRepositoriesRepo>;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    repos = createRepositoriesRepo(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("round-trips a repository and looks it up by slug, owner and category + sortOrder", async () => {
    const owner = unique("owner");
    const category = unique("tools");
    const slug = unique("lumen-cli");
    const created = await repos.createRepository({
      githubId: 9_007_199_254,
      name: "lumen-cli",
      fullName: `${owner}/lumen-cli`,
      owner,
      htmlUrl: `https://github.com/${owner}/lumen-cli`,
      slug,
      description: "CLI",
      defaultBranch: "main",
      isPrivate: true,
      language: "TypeScript",
      stargazersCount: 42,
      forksCount: 3,
      size: 1024,
      displayName: "Lumen CLI",
      category,
      tags: ["cli", "tools"],
      sortOrder: 2,
      lastSyncAt: "2026-01-01T00:00:00.000Z",
      cacheExpiry: "2026-01-01T01:00:00.000Z",
    });
    expect(created).toMatchObject({
      githubId: 9_007_199_254,
      isPrivate: true,
      isEnabled: true,
      tags: ["cli", "tools"],
      stargazersCount: 42,
      lastSyncAt: "2026-01-01T00:00:00.000Z",
    });
    expect(await repos.getRepository(created.id)).toEqual(created);
    expect(await repos.getRepositoryBySlug(slug)).toEqual(created);

    const first = await repos.createRepository({ slug: unique("a"), owner, category, sortOrder: 1 });
    const hidden = await repos.createRepository({
      slug: unique("b"),
      owner,
      category,
      sortOrder: 3,
      isEnabled: false,
    });
    expect((await repos.listRepositoriesByOwner(owner)).map((r) => r.id)).toEqual([
      first.id,
      created.id,
      hidden.id,
    ]);
    expect((await repos.listRepositoriesByCategory(category)).map((r) => r.id)).toEqual([
      first.id,
      created.id,
      hidden.id,
    ]);
    expect(
      (await repos.listRepositoriesByCategory(category, { enabledOnly: true })).map((r) => r.id),
    ).toEqual([first.id, created.id]);
    expect((await repos.listRepositories({ enabledOnly: true })).map((r) => r.id)).not.toContain(hidden.id);

    await expect(repos.createRepository({ slug })).rejects.toThrow(ConflictError);
    await expect(repos.createRepository({ slug: unique("x"), tags: [""] })).rejects.toThrow(BadInputError);
    const updated = await repos.updateRepository(created.id, {
      stargazersCount: 43,
      tags: [],
      isPrivate: false,
    });
    expect(updated).toMatchObject({ stargazersCount: 43, tags: [], isPrivate: false });
    await expect(repos.updateRepository("missing", { name: "x" })).rejects.toThrow(NotFoundError);
  });

  it("manages repository categories", async () => {
    const slug = unique("rc");
    const c = await repos.createCategory({ slug, name: "Tools", icon: "Wrench", sortOrder: 5 });
    expect(c).toMatchObject({ slug, name: "Tools", isVisible: true, sortOrder: 5 });
    expect(await repos.getCategoryBySlug(slug)).toEqual(c);
    const hidden = await repos.createCategory({ slug: unique("rc"), isVisible: false });
    expect((await repos.listCategories()).map((x) => x.id)).not.toContain(hidden.id);
    expect((await repos.listCategories({ includeHidden: true })).map((x) => x.id)).toContain(hidden.id);
    await expect(repos.createCategory({ slug })).rejects.toThrow(ConflictError);
    expect(await repos.updateCategory(c.id, { isVisible: false })).toMatchObject({ isVisible: false });
    expect(await repos.updateCategory(c.id, {})).toMatchObject({ isVisible: false });
    await expect(repos.updateCategory("missing", { name: "x" })).rejects.toThrow(NotFoundError);
    expect(await repos.deleteCategory(c.id)).toBe(true);
    expect(await repos.getCategory(c.id)).toBeNull();
  });

  it("caches files, branches, issues and workflows, and cascades them with the repository", async () => {
    const r = await repos.createRepository({ slug: unique("files") });

    const readme = await repos.upsertFile(r.id, {
      path: "README.md",
      type: "file",
      isReadme: true,
      content: "# Hi",
      size: 4,
    });
    expect(readme).toMatchObject({ name: "README.md", isReadme: true, content: "# Hi", size: 4 });
    await repos.upsertFile(r.id, { path: "docs/README.md", type: "file", isReadme: true });
    await repos.upsertFile(r.id, { path: "src", type: "dir" });
    await repos.upsertFile(r.id, { path: "src/a_b.ts", type: "file", extension: "ts" });
    await repos.upsertFile(r.id, { path: "src/lib/deep.ts", type: "file" });
    await repos.upsertFile(r.id, { path: "srcx/other.ts", type: "file" });
    const again = await repos.upsertFile(r.id, {
      path: "README.md",
      type: "file",
      isReadme: true,
      content: "# Hello",
    });
    expect(again.id).toBe(readme.id);
    expect((await repos.getFile(r.id, "README.md"))?.content).toBe("# Hello");
    expect((await repos.getReadme(r.id))?.path).toBe("README.md");

    expect((await repos.listDirectory(r.id)).map((f) => f.path)).toEqual(["src", "README.md"]);
    expect((await repos.listDirectory(r.id, "src")).map((f) => f.path)).toEqual(["src/a_b.ts"]);
    expect((await repos.listDirectory(r.id, "src/")).map((f) => f.path)).toEqual(["src/a_b.ts"]);
    expect((await repos.listDirectory(r.id, "sr_")).map((f) => f.path)).toEqual([]); // LIKE wildcard escaped
    for (const bad of ["../etc/passwd", "/abs", "a/../b", "a//b", "a\\b"]) {
      await expect(repos.getFile(r.id, bad), bad).rejects.toThrow(BadInputError);
    }
    await expect(repos.upsertFile("missing", { path: "x", type: "file" })).rejects.toThrow(NotFoundError);
    expect(await repos.deleteFiles(r.id, ["srcx/other.ts"])).toBe(1);
    expect(await repos.deleteFiles(r.id, [])).toBe(0);

    await repos.upsertBranch(r.id, { name: "feature", sha: "aaa" });
    const main = await repos.upsertBranch(r.id, {
      name: "main",
      sha: "bbb",
      isDefault: true,
      lastCommitMessage: "init",
      lastCommitDate: "2026-01-01T00:00:00Z",
    });
    expect(main).toMatchObject({ isDefault: true, lastCommitDate: "2026-01-01T00:00:00.000Z" });
    await repos.upsertBranch(r.id, { name: "feature", sha: "ccc" });
    expect((await repos.listBranches(r.id)).map((b) => [b.name, b.sha])).toEqual([
      ["main", "bbb"],
      ["feature", "ccc"],
    ]);
    expect(await repos.deleteBranch(r.id, "feature")).toBe(true);
    expect(await repos.getBranch(r.id, "feature")).toBeNull();

    const issue = await repos.createIssue(r.id, {
      state: "open",
      number: 1,
      title: "Bug",
      labels: ["bug", "p1"],
    });
    expect(issue).toMatchObject({ state: "open", labels: ["bug", "p1"] });
    expect(await repos.updateIssue(issue.id, { state: "closed", labels: [] })).toMatchObject({
      state: "closed",
      labels: [],
    });
    await repos.replaceIssues(r.id, [
      { state: "open", number: 2, githubIssueId: 200 },
      { state: "closed", number: 3, labels: ["done"] },
    ]);
    expect((await repos.listIssues(r.id)).map((i) => i.number)).toEqual([3, 2]);
    expect((await repos.listIssues(r.id, { state: "open" })).map((i) => i.githubIssueId)).toEqual([200]);
    await expect(
      repos.createIssue(r.id, { state: "open", labels: [7] as unknown as string[] }),
    ).rejects.toThrow(BadInputError);

    const wf = await repos.createWorkflow(r.id, {
      state: "active",
      name: "CI",
      path: ".github/workflows/ci.yml",
    });
    expect(
      await repos.updateWorkflow(wf.id, { lastRunStatus: "success", lastRunDate: "2026-01-02T00:00:00Z" }),
    ).toMatchObject({
      lastRunStatus: "success",
      lastRunDate: "2026-01-02T00:00:00.000Z",
    });
    await repos.replaceWorkflows(r.id, [
      { state: "active", name: "Deploy" },
      { state: "disabled", name: "Build" },
    ]);
    expect((await repos.listWorkflows(r.id)).map((w) => w.name)).toEqual(["Build", "Deploy"]);

    expect(await repos.deleteRepository(r.id)).toBe(true);
    for (const table of [
      "repository_file",
      "repository_branch",
      "repository_issue",
      "repository_workflow",
    ] as const) {
      const rows = await t.db.selectFrom(table).select("id").where("repositoryId", "=", r.id).execute();
      expect(rows, table).toEqual([]);
    }
  });
  it("gives every child table the same by-id writes: create, read, update, delete", async () => {
    const r = await repos.createRepository({ slug: unique("children") });
    const kinds = [
      {
        create: (id: string) => repos.createFile(id, { path: "a/b.txt", type: "file" }),
        get: repos.getFileById,
        update: (id: string) => repos.updateFileById(id, { sha: "s2" }),
        empty: (id: string) => repos.updateFileById(id, {}),
        remove: repos.deleteFileById,
        changed: { sha: "s2", name: "b.txt" },
      },
      {
        create: (id: string) => repos.createBranch(id, { name: "dev", sha: "s1" }),
        get: repos.getBranchById,
        update: (id: string) => repos.updateBranchById(id, { sha: "s2" }),
        empty: (id: string) => repos.updateBranchById(id, {}),
        remove: repos.deleteBranchById,
        changed: { sha: "s2", isDefault: false },
      },
      {
        create: (id: string) => repos.createIssue(id, { state: "open", number: 9 }),
        get: repos.getIssue,
        update: (id: string) => repos.updateIssue(id, { state: "closed" }),
        empty: (id: string) => repos.updateIssue(id, {}),
        remove: repos.deleteIssue,
        changed: { state: "closed", labels: [] },
      },
      {
        create: (id: string) => repos.createWorkflow(id, { state: "active", name: "CI" }),
        get: repos.getWorkflow,
        update: (id: string) => repos.updateWorkflow(id, { state: "disabled" }),
        empty: (id: string) => repos.updateWorkflow(id, {}),
        remove: repos.deleteWorkflow,
        changed: { state: "disabled", name: "CI" },
      },
    ];
    for (const [i, kind] of kinds.entries()) {
      await expect(kind.create("missing"), `kind ${i}`).rejects.toThrow(NotFoundError);
      const created = await kind.create(r.id);
      expect(created.repositoryId).toBe(r.id);
      expect(await kind.get(created.id)).toEqual(created);
      const updated = await kind.update(created.id);
      expect(updated, `kind ${i}`).toMatchObject({ id: created.id, ...kind.changed });
      expect(await kind.empty(created.id)).toEqual(updated);
      await expect(kind.update("missing"), `kind ${i}`).rejects.toThrow(NotFoundError);
      expect(await kind.remove(created.id)).toBe(true);
      expect(await kind.remove(created.id)).toBe(false);
      expect(await kind.get(created.id)).toBeNull();
    }

    await repos.createFile(r.id, { path: "taken.md", type: "file" });
    await expect(repos.createFile(r.id, { path: "taken.md", type: "file" })).rejects.toThrow(ConflictError);
    await expect(repos.createFile(r.id, { path: "../x", type: "file" })).rejects.toThrow(BadInputError);
    await repos.createBranch(r.id, { name: "taken", sha: "s" });
    await expect(repos.createBranch(r.id, { name: "taken", sha: "t" })).rejects.toThrow(ConflictError);
    await expect(repos.replaceIssues("missing", [])).rejects.toThrow(NotFoundError);
    await expect(repos.replaceWorkflows("missing", [])).rejects.toThrow(NotFoundError);
  });

  it("lists the first rows of several repositories in one call", async () => {
    const a = await repos.createRepository({ slug: unique("many-a") });
    const b = await repos.createRepository({ slug: unique("many-b") });
    const c = await repos.createRepository({ slug: unique("many-c") });
    await repos.replaceIssues(
      a.id,
      [1, 2, 3].map((number) => ({ state: "open", number })),
    );
    await repos.replaceIssues(b.id, [{ state: "closed", number: 1 }]);
    await repos.replaceIssues(c.id, [{ state: "open", number: 1 }]);

    const rows = await repos.listChildrenByRepositoryIds("issues", [a.id, b.id], [], 2);
    const expected = [
      ...(await repos.listIssues(a.id)).sort((x, y) => x.id.localeCompare(y.id)).slice(0, 2),
      ...(await repos.listIssues(b.id)),
    ].sort((x, y) => x.repositoryId.localeCompare(y.repositoryId) || x.id.localeCompare(y.id));
    expect(rows).toEqual(expected);
    expect(await repos.listChildrenByRepositoryIds("workflows", [], [], 2)).toEqual([]);
  });
});
