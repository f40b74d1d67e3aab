/**
 * System settings and feature flags (issue 14, /super-admin/system-config): who may read and
 * change them, validation naming the key, the optimistic version, the audit rows, and a change
 * reaching a second app process on the same database without a restart (search turned off
 * there too). Each test leaves the flags as it found them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { parseEnv } from "../../server/env.ts";
import type { SettingsView } from "../../server/modules/settings/settings.service.ts";
import { type RunningServer, startServer } from "../../server/server.ts";
import { call, signInCookie } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/settings";
const PERSONAS = ["free", "basic", "pro", "enterprise", "business", "manager", "admin", "owner", "writer"];

describe.each(DIALECTS)("settings API (%s)", (dialect) => {
  let server: TestServer;
  let second: RunningServer | null = null;
  const cookies: Record<string, string> = {};
  let apiKey = "";

  const req = (path: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, body, opts);
  const read = async (who = "owner") => {
    const res = await req(API, undefined, { cookie: cookies[who] });
    expect(res.status, who).toBe(200);
    return (await res.json()) as SettingsView;
  };
  const patch = (body: unknown, who = "owner", base?: string) =>
    call(base ?? server.url, API, body, { method: "PATCH", cookie: cookies[who] });
  const settingOf = (view: SettingsView, key: string) => view.settings.find((s) => s.key === key)?.value;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const database = dialect === "postgres" ? server.runtime.env.DATABASE_URL : `${server.dataDir}/app.db`;
    second = await startServer(
      parseEnv({
        NODE_ENV: "production",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: server.dataDir,
        DATABASE_URL: database,
        LOG_LEVEL: "silent",
        SEED_DEMO: "0",
      }),
    );
    for (const who of PERSONAS) {
      cookies[who] = await signInCookie(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    }
    const key = await req(
      "/api/account/api-keys",
      { name: "CI", scopes: ["content:read"] },
      { cookie: cookies.owner },
    );
    expect(key.status).toBe(201);
    apiKey = ((await key.json()) as { key: string }).key;
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await server?.close();
  });

  describe("unauthorized access", () => {
    it("refuses visitors (401)", async () => {
      expect((await req(API)).status).toBe(401);
      expect((await call(server.url, API, { search: false, version: 0 }, { method: "PATCH" })).status).toBe(
        401,
      );
    });

    it("lets platform admins read; everyone else, organisation admins included, gets 403", async () => {
      for (const who of PERSONAS) {
        const res = await req(API, undefined, { cookie: cookies[who] });
        const expected = who === "admin" || who === "owner" ? 200 : 403;
        expect(res.status, who).toBe(expected);
      }
    });

    it("lets only the owner write: the admin and every other account get 403, before the body is read", async () => {
      const before = await read();
      for (const who of PERSONAS.filter((p) => p !== "owner")) {
        const res = await patch({ search: false, version: before.version }, who);
        expect(res.status, who).toBe(403);
        const bad = await call(server.url, API, "not json", { method: "PATCH", cookie: cookies[who] });
        expect(bad.status, who).toBe(403);
      }
      expect((await read()).version).toBe(before.version);
    });

    it("tells the admin it may read but not change", async () => {
      expect((await read("admin")).canManage).toBe(false);
      expect((await read("owner")).canManage).toBe(true);
    });

    it("refuses API keys (403), even the owner's", async () => {
      expect((await fetch(`${server.url}${API}`, { headers: { "x-api-key": apiKey } })).status).toBe(403);
      const res = await fetch(`${server.url}${API}`, {
        method: "PATCH",
        headers: { "x-api-key": apiKey, "content-type": "application/json" },
        body: JSON.stringify({ search: false, version: 0 }),
      });
      expect(res.status).toBe(403);
    });

    it("refuses a write from another origin (403)", async () => {
      const { version } = await read();
      const res = await call(
        server.url,
        API,
        { search: false, version },
        { method: "PATCH", cookie: cookies.owner, origin: "https://evil.example" },
      );
      expect(res.status).toBe(403);
      expect(settingOf(await read(), "search")).toBe(true);
    });
  });

  describe("reads", () => {
    it("lists the catalogue, the values with their defaults and the environment read-only, without secrets", async () => {
      const view = await read();
      expect(view.catalogue.map((s) => s.key)).toEqual(
        expect.arrayContaining(["search", "repositoryBrowser"]),
      );
      expect(view.settings.find((s) => s.key === "search")).toMatchObject({ value: true });
      const names = view.environment.map((r) => r.name);
      expect(names).toEqual(expect.arrayContaining(["environment", "debugMode", "database", "authSecret"]));
      const text = JSON.stringify(view.environment);
      expect(text).not.toContain(server.runtime.env.AUTH_SECRET ?? "no-secret-set");
      if (dialect === "postgres") expect(text).not.toContain(server.runtime.env.DATABASE_URL);
    });
  });

  describe("validation", () => {
    it("answers 400 naming the key for a wrong type, an unknown key or a missing version, and changes nothing", async () => {
      const { version } = await read();
      const wrongType = await patch({ search: "off", version });
      expect(wrongType.status).toBe(400);
      const body = (await wrongType.json()) as { error: { code: string; field: Record<string, string> } };
      expect(body.error.code).toBe("BAD_USER_INPUT");
      expect(Object.keys(body.error.field)).toEqual(["search"]);

      const unknown = await patch({ debugMode: false, version });
      expect(unknown.status).toBe(400);
      expect(
        ((await unknown.json()) as { error: { field: Record<string, string> } }).error.field,
      ).toHaveProperty("debugMode");

      const noVersion = await patch({ search: false });
      expect(noVersion.status).toBe(400);
      expect(
        ((await noVersion.json()) as { error: { field: Record<string, string> } }).error.field,
      ).toHaveProperty("version");

      const mixed = await patch({ search: false, repositoryBrowser: 3, version });
      expect(mixed.status).toBe(400);
      const after = await read();
      expect(after.version).toBe(version);
      expect(settingOf(after, "search")).toBe(true);
    });

    it("answers 400 for a body that is not a JSON object", async () => {
      const res = await call(server.url, API, "[1,2]", { method: "PATCH", cookie: cookies.owner });
      expect(res.status).toBe(400);
    });
  });

  describe("writes", () => {
    it("changes a flag, audits from/to with the actor, and refuses the stale version (409)", async () => {
      const { version } = await read();
      const res = await patch({ repositoryBrowser: false, version });
      expect(res.status).toBe(200);
      const after = (await res.json()) as SettingsView;
      expect(after.version).toBe(version + 1);
      expect(after.settings.find((s) => s.key === "repositoryBrowser")).toMatchObject({
        value: false,
        isDefault: false,
      });

      const owner = await server.runtime.database.db
        .selectFrom("user")
        .select("id")
        .where("email", "=", "owner@demo.local")
        .executeTakeFirstOrThrow();
      const audit = await server.runtime.database.db
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "setting_changed")
        .where("targetId", "=", "repositoryBrowser")
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]?.actorId).toBe(owner.id);
      expect(JSON.parse(audit[0]?.details ?? "{}")).toEqual({
        key: "repositoryBrowser",
        from: true,
        to: false,
      });

      // The same version again: someone else's change came first.
      const stale = await patch({ repositoryBrowser: true, version });
      expect(stale.status).toBe(409);
      expect(((await stale.json()) as { error: { code: string } }).error.code).toBe("STALE_VERSION");

      // The repository browser is off on this process: raw files and pages answer 404.
      expect((await fetch(`${server.url}/resources`)).status).toBe(404);
      const raw = await fetch(`${server.url}/api/repositories/anything/raw?path=README.md`);
      expect(raw.status).toBe(404);
      expect(((await raw.json()) as { error: { message: string } }).error.message).toMatch(/turned off/);
      // …and no page offers it any more: Resources leaves the sidebar.
      expect(await (await fetch(`${server.url}/ai-news`)).text()).not.toContain('href="/resources"');

      const restored = await patch({ repositoryBrowser: true, version: version + 1 });
      expect(restored.status).toBe(200);
      expect((await fetch(`${server.url}/resources`)).status).toBe(200);
      // Cached visitor pages follow the content revision the change moved (polled every second).
      await expect
        .poll(
          async () => (await (await fetch(`${server.url}/ai-news`)).text()).includes('href="/resources"'),
          {
            timeout: 10_000,
            interval: 200,
          },
        )
        .toBe(true);
    });

    it("turning search off through one process stops search on the other within seconds, then back on", async () => {
      const searchOn = async (base: string) =>
        (await fetch(`${base}/api/search?q=guide`, { headers: { "x-api-key": apiKey } })).status;
      expect(await searchOn(second!.url)).toBe(200);

      const { version } = await read();
      expect((await patch({ search: false, version })).status).toBe(200);
      expect(await searchOn(server.url)).toBe(404);

      // The other process polls the revision every second.
      await expect.poll(() => searchOn(second!.url), { timeout: 10_000, interval: 200 }).toBe(404);
      const off = await fetch(`${second!.url}/api/search?q=guide`, { headers: { "x-api-key": apiKey } });
      expect(((await off.json()) as { error: { message: string } }).error.message).toMatch(/turned off/);
      // Its pages drop the sidebar search box.
      const home = await (await fetch(`${second!.url}/`)).text();
      expect(home).not.toContain('type="search"');

      expect((await patch({ search: true, version: version + 1 })).status).toBe(200);
      await expect.poll(() => searchOn(second!.url), { timeout: 10_000, interval: 200 }).toBe(200);
      expect(await (await fetch(`${second!.url}/`)).text()).toContain('type="search"');
    });
  });
});
