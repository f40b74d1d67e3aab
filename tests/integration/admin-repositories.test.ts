/**
 * Repository administration API (issue 6 item 5): who may use it, adding a local repository that
 * appears for visitors after a sync, enable/disable, order, stale versions, a GitHub repository
 * whose API cannot be reached, and localPath traversal.
 */
import fs from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { visitorActor } from "../../server/modules/actor.ts";
import { call, signInCookie } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/repositories";

/** A one-commit git repository (working copy) with a README and a script, under `dir`. */
async function createGitRepository(dir: string): Promise<void> {
  await mkdir(path.join(dir, "src"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "README.md"),
    "# Handbook scripts\n\nSmall scripts for the team handbook.\n",
  );
  fs.writeFileSync(path.join(dir, "src", "count.ts"), "export const count = (xs: string[]) => xs.length;\n");
  await git.init({ fs, dir, defaultBranch: "main" });
  await git.add({ fs, dir, filepath: "README.md" });
  await git.add({ fs, dir, filepath: "src/count.ts" });
  const author = {
    name: "Test Author",
    email: "author@example.test",
    timestamp: 1_760_000_000,
    timezoneOffset: 0,
  };
  await git.commit({ fs, dir, message: "First version\n", author, committer: author });
}

describe.each(DIALECTS)("admin repositories API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  const req = (urlPath: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, urlPath, body, opts);
  const asAdmin = (urlPath: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    req(urlPath, body, { cookie: cookies.admin, ...opts });
  const visitorSees = async (slug: string) => {
    const page = await server.runtime.services.repositories.listGitHubRepositories(visitorActor(), {
      filter: { slug: { eq: slug } },
    });
    return page.items.length === 1;
  };

  beforeAll(async () => {
    // Port 9 on loopback: nothing listens, so every GitHub call fails at once.
    server = await startTestServer(dialect, { GITHUB_API_URL: "http://127.0.0.1:9" });
    for (const who of ["admin", "owner", "pro", "business", "manager"]) {
      cookies[who] = await signInCookie(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    }
    await createGitRepository(path.join(server.dataDir, "repositories", "team", "handbook-scripts"));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("unauthorized access", () => {
    it("refuses visitors (401) and everyone but platform admins (403), organisation admins included", async () => {
      expect((await req(API)).status).toBe(401);
      const visitorAdd = await req(API, { source: "local", localPath: "team/handbook-scripts" });
      expect(visitorAdd.status).toBe(401);
      for (const who of ["pro", "business", "manager"]) {
        const list = await req(API, undefined, { cookie: cookies[who] });
        expect(list.status, who).toBe(403);
        expect((await list.json()).error.code).toBe("FORBIDDEN");
        const add = await req(
          API,
          { source: "local", localPath: "team/handbook-scripts" },
          { cookie: cookies[who] },
        );
        expect(add.status, who).toBe(403);
        const sync = await req(`${API}/any-id/sync`, {}, { cookie: cookies[who] });
        expect(sync.status, who).toBe(403);
        const del = await req(`${API}/any-id`, undefined, { cookie: cookies[who], method: "DELETE" });
        expect(del.status, who).toBe(403);
      }
    });

    it("refuses API keys and bearer tokens, even an admin's", async () => {
      const created = await asAdmin("/api/account/api-keys", { name: "Script", scopes: ["content:read"] });
      expect(created.status).toBe(201);
      const { key } = (await created.json()) as { key: string };
      const withKey = await fetch(`${server.url}${API}`, { headers: { "x-api-key": key } });
      expect(withKey.status).toBe(403);
      const keyAndCookie = await asAdmin(API, undefined, { headers: { "x-api-key": key } });
      expect(keyAndCookie.status).toBe(403);
      const bearer = await fetch(`${server.url}${API}`, { headers: { authorization: "Bearer abc" } });
      expect(bearer.status).toBe(403);
    });

    it("refuses state changes from another site (403) or without an Origin", async () => {
      const body = { source: "local", localPath: "team/handbook-scripts" };
      const foreign = await asAdmin(API, body, { origin: "https://evil.example" });
      expect(foreign.status).toBe(403);
      expect((await foreign.json()).error.code).toBe("FORBIDDEN_ORIGIN");
      expect((await asAdmin(API, body, { origin: null })).status).toBe(403);
      expect(await visitorSees("handbook-scripts")).toBe(false);
    });

    it("refuses bodies over 64 KB (413)", async () => {
      const big = { source: "local", localPath: "team/handbook-scripts", description: "x".repeat(70_000) };
      expect((await asAdmin(API, big)).status).toBe(413);
    });
  });

  it("adds a local repository that visitors see after a sync", async () => {
    const add = await asAdmin(API, {
      source: "local",
      localPath: "team/handbook-scripts",
      displayName: "Handbook scripts",
      tags: ["typescript", "handbook", "typescript"],
    });
    expect(add.status).toBe(201);
    const { repository } = await add.json();
    expect(repository).toMatchObject({
      slug: "team-handbook-scripts",
      sourceType: "local",
      localPath: "team/handbook-scripts",
      displayName: "Handbook scripts",
      tags: ["typescript", "handbook"],
      status: "never-synced",
      lastSyncAt: null,
    });

    const sync = await asAdmin(`${API}/${repository.id}/sync`, {});
    expect(sync.status).toBe(200);
    const synced = await sync.json();
    expect(synced.outcome).toMatchObject({ ok: true, branches: 1 });
    expect(synced.repository.status).toBe("synced");
    expect(Date.parse(synced.repository.lastSyncAt)).not.toBeNaN();
    expect(synced.repository.lastSyncError).toBeNull();

    expect(await visitorSees("team-handbook-scripts")).toBe(true);
    const overview = await server.runtime.services.repositories.getRepositoryOverview(
      visitorActor(),
      "team-handbook-scripts",
    );
    expect(overview.readme?.text).toContain("Small scripts for the team handbook.");

    const list = await asAdmin(API);
    expect(list.status).toBe(200);
    const body = await list.json();
    const row = body.repositories.find((r: { id: string }) => r.id === repository.id);
    expect(row).toMatchObject({ status: "synced", lastSyncError: null });
    expect(body.repositories.at(-1).id).toBe(repository.id); // added at the end of the order
    expect(Array.isArray(body.categories)).toBe(true);
  });

  it("disabling hides a repository from visitors; the admin list still shows it", async () => {
    const { repositories } = await (await asAdmin(API)).json();
    const row = repositories.find((r: { slug: string }) => r.slug === "team-handbook-scripts");
    const off = await asAdmin(
      `${API}/${row.id}`,
      { version: row.version, isEnabled: false },
      { method: "PATCH" },
    );
    expect(off.status).toBe(200);
    const updated = (await off.json()).repository;
    expect(updated.isEnabled).toBe(false);
    expect(await visitorSees("team-handbook-scripts")).toBe(false);
    const after = await (await asAdmin(API)).json();
    expect(after.repositories.some((r: { slug: string }) => r.slug === "team-handbook-scripts")).toBe(true);

    const on = await asAdmin(
      `${API}/${row.id}`,
      { version: updated.version, isEnabled: true },
      { method: "PATCH" },
    );
    expect(on.status).toBe(200);
    expect(await visitorSees("team-handbook-scripts")).toBe(true);
  });

  it("reordering changes the list order; a stale version is a 409", async () => {
    const before = (await (await asAdmin(API)).json()).repositories as Array<{
      id: string;
      slug: string;
      version: number;
      sortOrder: number;
    }>;
    expect(before.length).toBeGreaterThan(1);
    const last = before.at(-1)!;
    const first = before[0]!;
    const moved = await asAdmin(
      `${API}/${last.id}`,
      { version: last.version, sortOrder: first.sortOrder - 1 },
      { method: "PATCH" },
    );
    expect(moved.status).toBe(200);
    const after = (await (await asAdmin(API)).json()).repositories as Array<{ id: string }>;
    expect(after[0]!.id).toBe(last.id);

    const stale = await asAdmin(
      `${API}/${last.id}`,
      { version: last.version, sortOrder: 5 },
      { method: "PATCH" },
    );
    expect(stale.status).toBe(409);
    expect((await stale.json()).error.code).toBe("CONFLICT");
  });

  it("assigns a category and tags; an unknown category is a 400 naming the field", async () => {
    const created = await asAdmin("/api/admin/repository-categories", {
      slug: "handbooks",
      name: "Handbooks",
      sortOrder: 50,
    });
    expect(created.status).toBe(201);
    const { repositories } = await (await asAdmin(API)).json();
    const row = repositories.find((r: { slug: string }) => r.slug === "team-handbook-scripts");
    const ok = await asAdmin(
      `${API}/${row.id}`,
      { version: row.version, category: "handbooks", tags: ["scripts"] },
      { method: "PATCH" },
    );
    expect(ok.status).toBe(200);
    expect((await ok.json()).repository).toMatchObject({ category: "handbooks", tags: ["scripts"] });

    const unknown = await asAdmin(
      `${API}/${row.id}`,
      { version: row.version + 1, category: "no-such-category" },
      { method: "PATCH" },
    );
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatchObject({
      code: "BAD_USER_INPUT",
      field: { category: "no category 'no-such-category'" },
    });
  });

  it("validates bodies with clear messages naming the field", async () => {
    const noSource = await asAdmin(API, { localPath: "x" });
    expect(noSource.status).toBe(400);
    expect(Object.keys((await noSource.json()).error.field)).toEqual(["source"]);
    const badOwner = await asAdmin(API, { source: "github", owner: "bad owner!", name: "repo" });
    expect(badOwner.status).toBe(400);
    expect((await badOwner.json()).error).toMatchObject({
      code: "BAD_USER_INPUT",
      field: { owner: "a GitHub user or organisation name" },
    });
    const extra = await asAdmin(API, { source: "local", localPath: "team/handbook-scripts", secret: 1 });
    expect(extra.status).toBe(400);
    expect((await extra.json()).error.field).toEqual({ secret: "cannot be set here" });
    const noVersion = await asAdmin(`${API}/whatever`, { isEnabled: false }, { method: "PATCH" });
    expect(noVersion.status).toBe(400);
    expect(Object.keys((await noVersion.json()).error.field)).toEqual(["version"]);
    const notJson = await asAdmin(API, "{not json");
    expect(notJson.status).toBe(400);
    const duplicate = await asAdmin(API, { source: "local", localPath: "team/handbook-scripts" });
    expect(duplicate.status).toBe(409);
  });

  it("refuses a localPath that leaves the repositories folder (400)", async () => {
    for (const localPath of [
      "../outside",
      "team/../../etc",
      "/etc",
      "..",
      "team\\..\\x",
      "%2e%2e/x",
      "C:/x",
    ]) {
      const res = await asAdmin(API, { source: "local", localPath });
      expect(res.status, localPath).toBe(400);
      expect(Object.keys((await res.json()).error.field), localPath).toEqual(["localPath"]);
    }
  });

  it("a GitHub repository whose API cannot be reached records a visible sync error", async () => {
    const add = await asAdmin(API, { source: "github", owner: "octo-org", name: "unreachable-repo" });
    expect(add.status).toBe(201);
    const { repository } = await add.json();
    const sync = await asAdmin(`${API}/${repository.id}/sync`, {});
    expect(sync.status).toBe(200);
    const result = await sync.json();
    expect(result.outcome.ok).toBe(false);
    expect(result.outcome.error).toEqual(expect.any(String));
    expect(result.repository.status).toBe("failed");
    expect(result.repository.lastSyncError).toEqual(expect.any(String));
    const list = await (await asAdmin(API)).json();
    const row = list.repositories.find((r: { id: string }) => r.id === repository.id);
    expect(row).toMatchObject({ status: "failed", lastSyncError: result.repository.lastSyncError });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it("deletes a repository (204); an unknown id is a 404", async () => {
    const add = await asAdmin(API, { source: "github", owner: "octo-org", name: "to-delete" });
    const { repository } = await add.json();
    expect((await asAdmin(`${API}/${repository.id}`, undefined, { method: "DELETE" })).status).toBe(204);
    expect((await asAdmin(`${API}/${repository.id}`, undefined, { method: "DELETE" })).status).toBe(404);
    expect((await asAdmin(`${API}/${repository.id}/sync`, {})).status).toBe(404);
  });

  it("the app owner is a platform admin too", async () => {
    expect((await req(API, undefined, { cookie: cookies.owner })).status).toBe(200);
  });
});
