/**
 * API keys and service credentials (issue 3 item 10, issue 5 auth modes, SECURITY.md §13, §18):
 * shown once, hashed at rest, public reads only, scoped, revocable, rate limited per key;
 * service credentials exchanged for scoped service tokens; the unauthorized-access suite for
 * every new endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { call } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET, TIER_LEVEL } from "../helpers/credentials.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const proItem = DEMO_CONTENT.find((c) => c.tier === "Pro" && !c.rolesRequired?.length)!;
const freeItem = DEMO_CONTENT.find((c) => c.tier === "Free" && !c.rolesRequired?.length)!;
const ROLE_GATED = DEMO_CONTENT.find((c) => c.rolesRequired?.length)!;

interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  scopes: string[];
}

describe.each(DIALECTS)("API keys and service credentials (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET });
    for (const who of ["free", "pro", "admin"])
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const createKey = async (who: string, body: unknown = { name: "CI", scopes: ["content:read"] }) => {
    const res = await call(server.url, "/api/account/api-keys", body, { cookie: cookies[who] });
    expect(res.status).toBe(201);
    return (await res.json()) as CreatedKey;
  };
  const withKey = (key: string, path = "/api/content?limit=100") =>
    fetch(`${server.url}${path}`, { headers: { "x-api-key": key } });
  const withBearer = (token: string, path = "/api/content?limit=100") =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  it("shows the key once; the list and the table hold no key", async () => {
    const created = await createKey("pro", {
      name: "Laptop script",
      scopes: ["content:read"],
      expiresInDays: 30,
    });
    expect(created.key).toMatch(/^lh_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(`lh_${created.prefix}_`)).toBe(true);
    const list = await (
      await call(server.url, "/api/account/api-keys", undefined, { cookie: cookies.pro })
    ).text();
    expect(list).toContain(created.id);
    expect(list).toContain("Laptop script");
    expect(list).not.toContain(created.key);
    expect(list).not.toContain("keyHash");
    const row = await server.runtime.database.db
      .selectFrom("api_key")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    const secret = created.key.split("_").slice(2).join("_");
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.prefix).toBe(created.prefix);
    const audit = await server.runtime.database.db.selectFrom("audit_log").selectAll().execute();
    expect(audit.some((a) => a.action === "api_key_created" && a.targetId === created.id)).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it("a key reads as a visitor: a Pro user's key still sees Pro items locked", async () => {
    const { key } = await createKey("pro");
    const res = await withKey(key);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: Array<{ slug: string; locked: boolean }> };
    expect(page.items.length).toBeGreaterThan(0);
    for (const item of page.items) {
      const demo = DEMO_CONTENT.find((c) => c.slug === item.slug)!;
      expect(item.locked, demo.slug).toBe(!(TIER_LEVEL[demo.tier] === 0 && !demo.rolesRequired?.length));
      expect(item).not.toHaveProperty("body");
    }
    const one = (await (await withKey(key, `/api/content/${proItem.slug}`)).json()) as { locked: boolean };
    expect(one.locked).toBe(true);
    const free = (await (await withKey(key, `/api/content/${freeItem.slug}`)).json()) as { locked: boolean };
    expect(free.locked).toBe(false);
    const row = await server.runtime.database.db
      .selectFrom("api_key")
      .select("lastUsedAt")
      .where("prefix", "=", key.split("_")[1]!)
      .executeTakeFirstOrThrow();
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("unknown, malformed, revoked and expired keys → 401 UNAUTHENTICATED; missing scope → 403", async () => {
    const { id, key } = await createKey("pro");
    for (const bad of [
      "nope",
      `lh_${"0".repeat(12)}_${"a".repeat(43)}`,
      `${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`,
    ]) {
      const res = await withKey(bad);
      expect(res.status, bad).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("UNAUTHENTICATED");
    }
    expect(
      (
        await call(server.url, `/api/account/api-keys/${id}`, undefined, {
          cookie: cookies.pro,
          method: "DELETE",
        })
      ).status,
    ).toBe(204);
    const revoked = await withKey(key);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { error: { code: string } }).error.code).toBe("UNAUTHENTICATED");
    const list = (await (
      await call(server.url, "/api/account/api-keys", undefined, { cookie: cookies.pro })
    ).json()) as Array<{ id: string }>;
    expect(list.some((k) => k.id === id)).toBe(false);
    const audit = await server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "api_key_revoked")
      .execute();
    expect(audit.some((a) => a.targetId === id)).toBe(true);

    const expiring = await createKey("pro", { name: "short", scopes: ["content:read"], expiresInDays: 1 });
    await server.runtime.database.db
      .updateTable("api_key")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", expiring.id)
      .execute();
    expect((await withKey(expiring.key)).status).toBe(401);

    const repoOnly = await createKey("pro", { name: "repos", scopes: ["repositories:read"] });
    expect((await withKey(repoOnly.key)).status).toBe(403);
  });

  it("rate limits per key with 429 and Retry-After", async () => {
    const { id, key } = await createKey("free");
    await server.runtime.database.db
      .updateTable("api_key")
      .set({ rateLimitPerMinute: 3 })
      .where("id", "=", id)
      .execute();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await withKey(key, `/api/content/${freeItem.slug}`);
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
    }
    // A minute boundary may fall inside the loop: at least one request is refused either way.
    expect(statuses.slice(0, 3).every((s) => s === 200) || statuses.includes(429)).toBe(true);
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Another key of the same user is not affected.
    const other = await createKey("free");
    expect((await withKey(other.key, `/api/content/${freeItem.slug}`)).status).toBe(200);
  });

  it("a user can neither list nor revoke another user's keys", async () => {
    const mine = await createKey("pro", { name: "pro-only", scopes: ["content:read"] });
    const theirs = (await (
      await call(server.url, "/api/account/api-keys", undefined, { cookie: cookies.free })
    ).json()) as Array<{ id: string }>;
    expect(theirs.some((k) => k.id === mine.id)).toBe(false);
    const res = await call(server.url, `/api/account/api-keys/${mine.id}`, undefined, {
      cookie: cookies.free,
      method: "DELETE",
    });
    expect(res.status).toBe(404);
    expect((await withKey(mine.key)).status).toBe(200);
  });

  it("unauthorized access and bad input on the key endpoints: 4xx, never 500", async () => {
    expect((await call(server.url, "/api/account/api-keys")).status).toBe(401);
    expect(
      (await call(server.url, "/api/account/api-keys", { name: "x", scopes: ["content:read"] })).status,
    ).toBe(401);
    expect(
      (await call(server.url, "/api/account/api-keys/whatever", undefined, { method: "DELETE" })).status,
    ).toBe(401);
    expect(
      (
        await call(
          server.url,
          "/api/account/api-keys",
          { name: "x", scopes: ["content:read"] },
          { cookie: cookies.pro, origin: "https://evil.example" },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await call(server.url, "/api/account/api-keys/x", undefined, {
          cookie: cookies.pro,
          origin: null,
          method: "DELETE",
        })
      ).status,
    ).toBe(403);
    const bad: unknown[] = [
      "{not json",
      "[]",
      "null",
      {},
      { name: "", scopes: ["content:read"] },
      { name: "x".repeat(101), scopes: ["content:read"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["admin:write"] },
      { name: "x", scopes: "content:read" },
      { name: "x", scopes: ["content:read"], expiresInDays: 0 },
      { name: "x", scopes: ["content:read"], expiresInDays: 1.5 },
      { name: "x", scopes: ["content:read"], expiresInDays: 10_000 },
      { name: "x", scopes: ["content:read"], extra: true },
      { name: 5, scopes: ["content:read"] },
    ];
    for (const body of bad) {
      const res = await call(server.url, "/api/account/api-keys", body, { cookie: cookies.pro });
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    // The one error envelope: a schema failure names its field in the message and the field map.
    const tooLong = await call(
      server.url,
      "/api/account/api-keys",
      { name: "x".repeat(101), scopes: ["content:read"] },
      { cookie: cookies.pro },
    );
    expect(await tooLong.json()).toEqual({
      error: {
        code: "BAD_USER_INPUT",
        message: "Invalid name: at most 100 characters",
        field: { name: "at most 100 characters" },
      },
    });
    const extra = await call(
      server.url,
      "/api/account/api-keys",
      { name: "x", scopes: ["content:read"], extra: true },
      { cookie: cookies.pro },
    );
    expect((await extra.json()).error).toEqual({
      code: "BAD_USER_INPUT",
      message: "Invalid body: unknown field extra",
      field: { extra: "unknown field extra" },
    });
    const text = await call(server.url, "/api/account/api-keys", "name=x", {
      cookie: cookies.pro,
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    const big = await call(
      server.url,
      "/api/account/api-keys",
      { name: "x", scopes: ["content:read"], pad: "x".repeat(70_000) },
      { cookie: cookies.pro },
    );
    expect(big.status).toBe(413);
    expect(
      (
        await call(server.url, "/api/account/api-keys/%E0%A4%A", undefined, {
          cookie: cookies.pro,
          method: "DELETE",
        })
      ).status,
    ).toBeLessThan(500);
    expect(
      (
        await call(server.url, "/api/account/api-keys/no-such-key", undefined, {
          cookie: cookies.pro,
          method: "DELETE",
        })
      ).status,
    ).toBe(404);
  });

  describe("service credentials", () => {
    const createCredential = async (scopes: string[]) => {
      const res = await call(
        server.url,
        "/api/admin/service-credentials",
        { name: `svc ${scopes.join(",")}`, scopes },
        { cookie: cookies.admin },
      );
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string; clientId: string; clientSecret: string; scopes: string[] };
    };
    const exchange = (body: unknown, headers: Record<string, string> = {}) =>
      call(server.url, "/api/auth/service-token", body, { origin: null, headers });
    const tokenFor = async (cred: { clientId: string; clientSecret: string }) => {
      const res = await exchange({
        grant_type: "client_credentials",
        client_id: cred.clientId,
        client_secret: cred.clientSecret,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        access_token: string;
        token_type: string;
        expires_in: number;
        scope: string;
      };
      expect(body.token_type).toBe("Bearer");
      expect(body.expires_in).toBe(900);
      return body.access_token;
    };

    it("only admins create, list and revoke; secrets are shown once", async () => {
      const cred = await createCredential(["content:read"]);
      expect(cred.clientId).toMatch(/^svc_/);
      expect(cred.clientSecret).toMatch(/^lhs_/);
      const list = await (
        await call(server.url, "/api/admin/service-credentials", undefined, { cookie: cookies.admin })
      ).text();
      expect(list).toContain(cred.clientId);
      expect(list).not.toContain(cred.clientSecret);
      const row = await server.runtime.database.db
        .selectFrom("service_credential")
        .selectAll()
        .where("id", "=", cred.id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(cred.clientSecret.slice(4));

      expect((await call(server.url, "/api/admin/service-credentials")).status).toBe(401);
      expect(
        (await call(server.url, "/api/admin/service-credentials", undefined, { cookie: cookies.pro })).status,
      ).toBe(403);
      expect(
        (await call(server.url, "/api/admin/service-credentials", { name: "x", scopes: ["content:read"] }))
          .status,
      ).toBe(401);
      expect(
        (
          await call(
            server.url,
            "/api/admin/service-credentials",
            { name: "x", scopes: ["content:read"] },
            { cookie: cookies.pro },
          )
        ).status,
      ).toBe(403);
      expect(
        (
          await call(
            server.url,
            "/api/admin/service-credentials",
            { name: "x", scopes: ["content:read"] },
            { cookie: cookies.admin, origin: "https://evil.example" },
          )
        ).status,
      ).toBe(403);
      expect(
        (
          await call(server.url, `/api/admin/service-credentials/${cred.id}`, undefined, {
            cookie: cookies.pro,
            method: "DELETE",
          })
        ).status,
      ).toBe(403);
      for (const body of [
        "{bad",
        "[]",
        { name: "x", scopes: ["user:manage"] },
        { name: "x" },
        { name: "x", scopes: ["content:read"], more: 1 },
      ]) {
        const res = await call(server.url, "/api/admin/service-credentials", body, { cookie: cookies.admin });
        expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
        expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      }
    });

    it("exchanges client credentials (JSON, form, Basic) for a scoped service token", async () => {
      const basic = await createCredential(["content:read"]);
      const all = await createCredential(["content:read:all"]);
      const repos = await createCredential(["repositories:read"]);

      const basicToken = await tokenFor(basic);
      const pro = (await (await withBearer(basicToken, `/api/content/${proItem.slug}`)).json()) as {
        locked: boolean;
      };
      expect(pro.locked).toBe(true);

      const allToken = await tokenFor(all);
      for (const item of [proItem, ROLE_GATED]) {
        const res = await withBearer(allToken, `/api/content/${item.slug}`);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { locked: boolean }).locked, item.slug).toBe(false);
      }
      expect((await withBearer(await tokenFor(repos))).status).toBe(403);

      const form = await call(
        server.url,
        "/api/auth/service-token",
        `grant_type=client_credentials&client_id=${basic.clientId}&client_secret=${basic.clientSecret}`,
        { origin: null, headers: { "content-type": "application/x-www-form-urlencoded" } },
      );
      expect(form.status).toBe(200);
      const viaBasic = await exchange(
        { grant_type: "client_credentials" },
        {
          authorization: `Basic ${Buffer.from(`${basic.clientId}:${basic.clientSecret}`).toString("base64")}`,
        },
      );
      expect(viaBasic.status).toBe(200);

      // A service token is not an ID token: it cannot mint user tokens or manage keys.
      expect(
        (
          await call(server.url, "/api/account/api-keys", undefined, {
            headers: { authorization: `Bearer ${allToken}` },
          })
        ).status,
      ).toBe(401);
      const audit = await server.runtime.database.db.selectFrom("audit_log").selectAll().execute();
      expect(audit.some((a) => a.action === "service_credential_created")).toBe(true);
      expect(audit.some((a) => a.action === "token_issued")).toBe(true);
      expect(JSON.stringify(audit)).not.toContain(basic.clientSecret);
      expect(JSON.stringify(audit)).not.toContain(allToken);
    });

    it("bad exchanges are 4xx; a revoked credential's token and secret stop working", async () => {
      const cred = await createCredential(["content:read"]);
      const token = await tokenFor(cred);
      const cases: Array<[unknown, Record<string, string>?]> = [
        [
          {
            grant_type: "client_credentials",
            client_id: cred.clientId,
            client_secret: `${cred.clientSecret.slice(0, -1)}${cred.clientSecret.endsWith("x") ? "y" : "x"}`,
          },
        ],
        [{ grant_type: "password", client_id: cred.clientId, client_secret: cred.clientSecret }],
        [{ grant_type: "client_credentials" }],
        ["{oops"],
        ["[]"],
        ["grant_type=client_credentials", { "content-type": "text/plain" }],
        [{ grant_type: "client_credentials", client_id: 1, client_secret: ["x"] }],
        [{ grant_type: "client_credentials" }, { authorization: "Basic %%%" }],
        [
          { grant_type: "client_credentials" },
          { authorization: `Basic ${Buffer.from("svc_x:%E0%A4%A").toString("base64")}` },
        ],
      ];
      for (const [body, headers] of cases) {
        const res = await exchange(body, headers);
        expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
        expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      }
      expect(
        (
          await call(server.url, `/api/admin/service-credentials/${cred.id}`, undefined, {
            cookie: cookies.admin,
            method: "DELETE",
          })
        ).status,
      ).toBe(204);
      expect(
        (
          await call(server.url, `/api/admin/service-credentials/${cred.id}`, undefined, {
            cookie: cookies.admin,
            method: "DELETE",
          })
        ).status,
      ).toBe(404);
      expect((await withBearer(token)).status).toBe(401);
      expect(
        (
          await exchange({
            grant_type: "client_credentials",
            client_id: cred.clientId,
            client_secret: cred.clientSecret,
          })
        ).status,
      ).toBe(401);
      const audit = await server.runtime.database.db
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "service_credential_revoked")
        .execute();
      expect(audit.some((a) => a.targetId === cred.id)).toBe(true);
    });
  });
});
