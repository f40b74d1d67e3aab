import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiKeyActor,
  type Outcome,
  outcome,
  serviceCredentialActor,
  userActor,
  visitor,
} from "../../../tests/factories/actors.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError, ConflictError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createRepositoriesRepo, type GitHubRepository } from "./repositories.repo.ts";
import { createRepositoriesService, type RepositoriesService } from "./repositories.service.ts";

const tag = randomUUID().slice(0, 8);

const actors: Record<string, () => Actor> = {
  visitor: () => visitor(),
  free: () => userActor({ userId: `free-${tag}`, groups: ["individual-free"], tier: "free" }),
  pro: () => userActor({ userId: `pro-${tag}`, groups: ["individual-pro"], tier: "pro" }),
  orgAdmin: () => userActor({ userId: `org-${tag}`, groups: ["org-acme", "org-acme-admin"] }),
  otherOrgAdmin: () => userActor({ userId: `org2-${tag}`, groups: ["org-globex", "org-globex-admin"] }),
  manager: () => userActor({ userId: `mgr-${tag}`, groups: ["ContentManager"] }),
  admin: () => userActor({ userId: `admin-${tag}`, groups: ["app-admin"] }),
  owner: () => userActor({ userId: `owner-${tag}`, groups: ["app-owner"] }, "bearer"),
  apiKey: () => apiKeyActor(),
  apiKeyContentOnly: () => apiKeyActor(["content:read"]),
  service: () => serviceCredentialActor(),
};

const isAdmin = (who: string) => who === "admin" || who === "owner";

describe.each(testDialects())("repositories service on %s", (dialect) => {
  let t: TestDatabase;
  let service: RepositoriesService;
  let on: GitHubRepository;
  let off: GitHubRepository;
  const child: Record<string, { on: string; off: string }> = {};

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    service = createRepositoriesService({ db: t.db });
    const repo = createRepositoriesRepo(t.db);
    on = await repo.createRepository({ slug: `on-${tag}`, owner: `owner-${tag}`, category: `cat-${tag}` });
    off = await repo.createRepository({ slug: `off-${tag}`, owner: `owner-${tag}`, isEnabled: false });
    const make = async (r: GitHubRepository) => ({
      file: (
        await repo.upsertFile(r.id, { path: "README.md", type: "file", isReadme: true, content: "# Hi" })
      ).id,
      branch: (await repo.upsertBranch(r.id, { name: "main", sha: "abc", isDefault: true })).id,
      issue: (await repo.createIssue(r.id, { state: "open", number: 1, title: "Bug" })).id,
      workflow: (await repo.createWorkflow(r.id, { state: "active", name: "CI" })).id,
    });
    const a = await make(on);
    const b = await make(off);
    for (const k of Object.keys(a) as (keyof typeof a)[]) child[k] = { on: a[k], off: b[k] };
    child.category = {
      on: (await repo.createCategory({ slug: `vis-${tag}`, isVisible: true })).id,
      off: (await repo.createCategory({ slug: `hid-${tag}`, isVisible: false })).id,
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  const readers: Record<string, Outcome> = {
    visitor: "ok",
    free: "ok",
    pro: "ok",
    orgAdmin: "ok",
    otherOrgAdmin: "ok",
    manager: "ok",
    admin: "ok",
    owner: "ok",
    apiKey: "ok",
    apiKeyContentOnly: "FORBIDDEN",
    service: "ok",
  };

  it.each(Object.entries(readers))(
    "reads as %s: enabled for all, disabled for platform admins",
    async (who, base) => {
      const actor = actors[who]!();
      const hidden = base === "ok" ? (isAdmin(who) ? "ok" : "NOT_FOUND") : base;
      expect(await outcome(() => service.getGitHubRepository(actor, on.id))).toBe(base);
      expect(await outcome(() => service.getGitHubRepository(actor, off.id))).toBe(hidden);
      const getters = {
        file: service.getRepositoryFile,
        branch: service.getRepositoryBranch,
        issue: service.getRepositoryIssue,
        workflow: service.getRepositoryWorkflow,
        category: service.getRepositoryCategory,
      };
      for (const [kind, get] of Object.entries(getters)) {
        expect(await outcome(() => get(actor, child[kind]!.on)), `${kind} on`).toBe(base);
        expect(await outcome(() => get(actor, child[kind]!.off)), `${kind} off`).toBe(hidden);
      }
      if (base !== "ok") {
        expect(await outcome(() => service.listGitHubRepositories(actor))).toBe(base);
        return;
      }
      const wanted = isAdmin(who) ? [on.id, off.id].sort() : [on.id];
      const byOwner = await service.listGitHubRepositoryByOwner(actor, `owner-${tag}`);
      expect(byOwner.items.map((r) => r.id).sort()).toEqual(wanted);
      const all = await service.listGitHubRepositories(actor, { filter: { owner: { eq: `owner-${tag}` } } });
      expect(all.items.map((r) => r.id).sort()).toEqual(wanted);
      const bySlug = await service.listGitHubRepositoryBySlug(actor, `off-${tag}`);
      expect(bySlug.items.length).toBe(isAdmin(who) ? 1 : 0);
      const lists = {
        file: service.listRepositoryFiles,
        branch: service.listRepositoryBranches,
        issue: service.listRepositoryIssues,
        workflow: service.listRepositoryWorkflows,
        category: service.listRepositoryCategories,
      };
      for (const [kind, list] of Object.entries(lists)) {
        const ids = (await list(actor, { limit: 100 })).items.map((x) => x.id);
        expect(ids, kind).toContain(child[kind]!.on);
        expect(ids.includes(child[kind]!.off), kind).toBe(isAdmin(who));
      }
    },
  );

  const writers: Record<string, Outcome> = {
    visitor: "UNAUTHENTICATED",
    free: "FORBIDDEN",
    pro: "FORBIDDEN",
    orgAdmin: "FORBIDDEN",
    otherOrgAdmin: "FORBIDDEN",
    manager: "FORBIDDEN",
    admin: "ok",
    owner: "ok",
    apiKey: "FORBIDDEN",
    service: "FORBIDDEN",
  };

  it.each(Object.entries(writers))("writes as %s", async (who, expected) => {
    const actor = actors[who]!();
    const n = randomUUID().slice(0, 6);
    const repo = createRepositoriesRepo(t.db);
    const target = await repo.createRepository({ slug: `w-${n}` });
    expect(await outcome(() => service.createGitHubRepository(actor, { slug: `c-${n}` }))).toBe(expected);
    expect(
      await outcome(() =>
        service.updateGitHubRepository(actor, target.id, target.version, { description: "x" }),
      ),
    ).toBe(expected);
    expect(await outcome(() => service.createRepositoryCategory(actor, { slug: `k-${n}` }))).toBe(expected);
    expect(
      await outcome(() =>
        service.createRepositoryFile(actor, { repositoryId: target.id, path: "a.ts", type: "file" }),
      ),
    ).toBe(expected);
    expect(
      await outcome(() =>
        service.createRepositoryBranch(actor, { repositoryId: target.id, name: "dev", sha: "1" }),
      ),
    ).toBe(expected);
    expect(
      await outcome(() => service.createRepositoryIssue(actor, { repositoryId: target.id, state: "open" })),
    ).toBe(expected);
    expect(
      await outcome(() =>
        service.createRepositoryWorkflow(actor, { repositoryId: target.id, state: "active" }),
      ),
    ).toBe(expected);
    expect(await outcome(() => service.deleteGitHubRepository(actor, target.id))).toBe(expected);
    expect((await repo.getRepository(target.id)) === null).toBe(expected === "ok");
  });

  it("updates and deletes children by id (platform admins)", async () => {
    const admin = actors.admin!();
    const r = await service.createGitHubRepository(admin, { slug: `kids-${tag}` });
    const file = await service.createRepositoryFile(admin, {
      repositoryId: r.id,
      path: "src/a.ts",
      type: "file",
    });
    expect((await service.updateRepositoryFile(admin, file.id, { size: 10 })).size).toBe(10);
    const branch = await service.createRepositoryBranch(admin, { repositoryId: r.id, name: "dev", sha: "1" });
    expect((await service.updateRepositoryBranch(admin, branch.id, { sha: "2" })).sha).toBe("2");
    const issue = await service.createRepositoryIssue(admin, {
      repositoryId: r.id,
      state: "open",
      labels: ["bug"],
    });
    expect((await service.updateRepositoryIssue(admin, issue.id, { state: "closed" })).state).toBe("closed");
    const wf = await service.createRepositoryWorkflow(admin, { repositoryId: r.id, state: "active" });
    expect(
      (await service.updateRepositoryWorkflow(admin, wf.id, { lastRunStatus: "success" })).lastRunStatus,
    ).toBe("success");
    expect(await outcome(() => service.updateRepositoryFile(actors.free!(), file.id, { size: 1 }))).toBe(
      "FORBIDDEN",
    );
    await service.deleteRepositoryFile(admin, file.id);
    await service.deleteRepositoryBranch(admin, branch.id);
    await service.deleteRepositoryIssue(admin, issue.id);
    await service.deleteRepositoryWorkflow(admin, wf.id);
    expect(await outcome(() => service.getRepositoryFile(admin, file.id))).toBe("NOT_FOUND");
    await expect(
      service.createRepositoryFile(admin, { repositoryId: r.id, path: "../etc/passwd", type: "file" }),
    ).rejects.toThrow(/input\.path/);
    await expect(service.createGitHubRepository(admin, { slug: `x-${tag}`, version: 3 })).rejects.toThrow(
      /input\.version/,
    );
    await expect(
      service.createGitHubRepository(admin, { slug: `y-${tag}`, htmlUrl: "javascript:alert(1)" }),
    ).rejects.toThrow(/input\.htmlUrl/);
  });

  it("refuses a stale version and keeps the stored write", async () => {
    const admin = actors.admin!();
    const r = await service.createGitHubRepository(admin, { slug: `v-${tag}` });
    await service.updateGitHubRepository(admin, r.id, 1, { description: "first" });
    await expect(service.updateGitHubRepository(admin, r.id, 1, { description: "second" })).rejects.toThrow(
      ConflictError,
    );
    expect(await service.getGitHubRepository(admin, r.id)).toMatchObject({
      description: "first",
      version: 2,
    });
    const c = await service.createRepositoryCategory(admin, { slug: `vc-${tag}` });
    await service.updateRepositoryCategory(admin, c.id, 1, { name: "first" });
    await expect(service.updateRepositoryCategory(admin, c.id, 1, { name: "second" })).rejects.toThrow(
      ConflictError,
    );
    expect(await service.getRepositoryCategory(admin, c.id)).toMatchObject({ name: "first", version: 2 });
  });

  describe("listGitHubRepositoryByCategoryAndSortOrder", () => {
    const category = `sorted-${tag}`;

    beforeAll(async () => {
      const repo = createRepositoriesRepo(t.db);
      for (let i = 0; i < 17; i++) {
        await repo.createRepository({
          slug: `s${i}-${tag}`,
          category,
          sortOrder: i % 6,
          isEnabled: i !== 16,
        });
      }
    });

    it("pages in sortOrder then id, both directions, each row once", async () => {
      for (const sortDirection of ["ASC", "DESC"] as const) {
        const seen: GitHubRepository[] = [];
        let nextToken: string | null = null;
        do {
          const page: Awaited<ReturnType<RepositoriesService["listGitHubRepositoryByCategoryAndSortOrder"]>> =
            await service.listGitHubRepositoryByCategoryAndSortOrder(actors.visitor!(), category, {
              limit: 5,
              nextToken,
              sortDirection,
            });
          seen.push(...page.items);
          nextToken = page.nextToken;
        } while (nextToken);
        expect(new Set(seen.map((r) => r.id)).size).toBe(16); // the disabled one is left out
        const keys = seen.map((r) => [r.sortOrder, r.id] as const);
        const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
        expect(keys).toEqual(sortDirection === "ASC" ? sorted : sorted.reverse());
      }
    });

    it("applies sortOrder conditions", async () => {
      const orders = async (sortKey: object) =>
        (
          await service.listGitHubRepositoryByCategoryAndSortOrder(actors.admin!(), category, {
            sortKey,
            limit: 100,
          })
        ).items.map((r) => r.sortOrder);
      expect(new Set(await orders({ eq: 2 }))).toEqual(new Set([2]));
      expect(new Set(await orders({ lt: 2 }))).toEqual(new Set([0, 1]));
      expect(new Set(await orders({ le: 1 }))).toEqual(new Set([0, 1]));
      expect(new Set(await orders({ gt: 3 }))).toEqual(new Set([4, 5]));
      expect(new Set(await orders({ ge: 5 }))).toEqual(new Set([5]));
      expect(new Set(await orders({ between: [2, 3] }))).toEqual(new Set([2, 3]));
      expect(await orders({ between: [2, 3] })).toHaveLength(6);
      await expect(orders({ beginsWith: "1" })).rejects.toThrow(BadInputError);
      await expect(orders({ eq: "2" })).rejects.toThrow(BadInputError);
    });
  });
});
