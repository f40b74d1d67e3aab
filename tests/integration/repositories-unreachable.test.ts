/**
 * A GitHub repository synced once, whose source then goes away: its pages keep showing the cached
 * data with when it was last synced, and nothing answers 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { call, signInCookie } from "../helpers/auth.ts";
import { type GitHubReplay, startGitHubReplay } from "../helpers/github-replay.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/repositories";

describe.each(DIALECTS)("an unreachable repository source (%s)", (dialect) => {
  let server: TestServer;
  let replay: GitHubReplay | null = null;
  let slug = "";
  // Signed-in pages are never served from the visitors' page cache: each request renders.
  let cookie = "";

  beforeAll(async () => {
    replay = await startGitHubReplay();
    server = await startTestServer(dialect, { GITHUB_API_URL: replay.url });
    cookie = await signInCookie(server.url, "admin@demo.local", DEMO_PASSWORD);
    const add = await call(
      server.url,
      API,
      { source: "github", owner: "lumen-labs", name: "eval-harness" },
      { cookie },
    );
    expect(add.status).toBe(201);
    const { repository } = (await add.json()) as { repository: { id: string; slug: string } };
    slug = repository.slug;
    const sync = await call(server.url, `${API}/${repository.id}/sync`, {}, { cookie });
    expect(((await sync.json()) as { outcome: { ok: boolean } }).outcome.ok).toBe(true);
    // The file is read once while GitHub answers, so it is cached.
    expect((await fetch(`${server.url}/resources/${slug}?path=src/index.ts`)).status).toBe(200);
    await replay.close();
    replay = null;
  }, 120_000);
  afterAll(async () => {
    await replay?.close();
    await server?.close();
  });

  it("the repository page and a cached file still render from the cache, with the last sync shown", async () => {
    const overview = await fetch(`${server.url}/resources/${slug}`, { headers: { cookie } });
    expect(overview.status).toBe(200);
    const html = await overview.text();
    expect(html).toContain("eval-harness");
    expect(html).toMatch(/synced/i);
    const file = await fetch(`${server.url}/resources/${slug}?path=src/index.ts`, { headers: { cookie } });
    expect(file.status).toBe(200);
    expect(await file.text()).toContain("runSuite");
  });

  it("a file that was never cached gives an explanation, not a 500", async () => {
    const res = await fetch(`${server.url}/resources/${slug}?branch=feature/junit-report&path=README.md`, {
      headers: { cookie },
    });
    expect(res.status).toBeLessThan(500);
    const html = await res.text();
    expect(html).not.toMatch(/Something went wrong/);
  });
});
