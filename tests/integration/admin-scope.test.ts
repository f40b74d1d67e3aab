/**
 * Admin scopes (decision 009, issue 10 point 1): the unauthorized-access suite over every admin
 * and credential API for the eight demo accounts and a visitor, with the expected statuses
 * written by hand; then the attack as it was found — business@ (an organisation admin) managing
 * platform service credentials, revoking owner@'s credential, a credential reading more than its
 * creator, and platform-wide counts on /admin — each refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUserContext, visitorContext } from "../../core/index.ts";
import { PERSONA_NAMES, type PersonaName } from "../../core/test-personas.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { actorOf, outcome } from "../factories/actors.ts";
import { call } from "../helpers/auth.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const PERSONAS = PERSONA_NAMES;
type Persona = PersonaName;

/** The ContentManager-only demo item (its body is for content managers, whatever the plan). */
const MANAGER_ONLY = DEMO_CONTENT.find((c) => c.rolesRequired?.includes("ContentManager"))!;

interface Fixtures {
  freeId: string;
  businessId: string;
}

interface Row {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string | ((f: Fixtures) => string);
  body?: unknown;
  /** visitor free basic pro enterprise business manager admin owner writer */
  expected: string;
}

// Bodies are chosen so that an allowed caller stops at validation or a missing id (400/404) and
// the shared server's state barely changes; a refused caller must be refused before that.
const TABLE: Record<string, Row> = {
  "list service credentials": {
    method: "GET",
    path: "/api/admin/service-credentials",
    expected: "401 403 403 403 403 403 403 200 200 403",
  },
  "create a content:read:all service credential": {
    method: "POST",
    path: "/api/admin/service-credentials",
    body: { name: "probe", scopes: ["content:read:all"] },
    expected: "401 403 403 403 403 403 403 201 201 403",
  },
  "create a service credential with a bad body": {
    method: "POST",
    path: "/api/admin/service-credentials",
    body: { name: "probe", scopes: ["user:manage"] },
    expected: "401 403 403 403 403 403 403 400 400 403",
  },
  "revoke a service credential": {
    method: "DELETE",
    path: "/api/admin/service-credentials/no-such-credential",
    expected: "401 403 403 403 403 403 403 404 404 403",
  },
  "unlock a member of Acme": {
    method: "POST",
    path: (f) => `/api/admin/users/${f.businessId}/unlock`,
    body: {},
    expected: "401 403 403 403 403 200 403 200 200 403",
  },
  "unlock someone outside Acme": {
    method: "POST",
    path: (f) => `/api/admin/users/${f.freeId}/unlock`,
    body: {},
    expected: "401 403 403 403 403 404 403 200 200 403",
  },
  "list repositories (admin)": {
    method: "GET",
    path: "/api/admin/repositories",
    expected: "401 403 403 403 403 403 403 200 200 403",
  },
  "add a repository": {
    method: "POST",
    path: "/api/admin/repositories",
    body: {},
    expected: "401 403 403 403 403 403 403 400 400 403",
  },
  "change a repository": {
    method: "PATCH",
    path: "/api/admin/repositories/no-such-repository",
    body: { version: 1 },
    expected: "401 403 403 403 403 403 403 404 404 403",
  },
  "sync a repository": {
    method: "POST",
    path: "/api/admin/repositories/no-such-repository/sync",
    body: {},
    expected: "401 403 403 403 403 403 403 404 404 403",
  },
  "delete a repository": {
    method: "DELETE",
    path: "/api/admin/repositories/no-such-repository",
    expected: "401 403 403 403 403 403 403 404 404 403",
  },
  "add a repository category": {
    method: "POST",
    path: "/api/admin/repository-categories",
    body: {},
    expected: "401 403 403 403 403 403 403 400 400 403",
  },
  "change a repository category": {
    method: "PATCH",
    path: "/api/admin/repository-categories/no-such-category",
    body: { version: 1 },
    expected: "401 403 403 403 403 403 403 404 404 403",
  },
  "mint an ID token": {
    method: "POST",
    path: "/api/account/token",
    body: {},
    expected: "401 200 200 200 200 200 200 200 200 200",
  },
  "list own API keys": {
    method: "GET",
    path: "/api/account/api-keys",
    expected: "401 200 200 200 200 200 200 200 200 200",
  },
  "create an API key": {
    method: "POST",
    path: "/api/account/api-keys",
    body: { name: "probe", scopes: ["content:read"] },
    expected: "401 201 201 201 201 201 201 201 201 201",
  },
  "revoke an API key that is not yours": {
    method: "DELETE",
    path: "/api/account/api-keys/no-such-key",
    expected: "401 404 404 404 404 404 404 404 404 404",
  },
  "exchange a wrong client secret": {
    method: "POST",
    path: "/api/auth/service-token",
    body: { grant_type: "client_credentials", client_id: "svc_000000000000000000000000", client_secret: "x" },
    expected: "401 401 401 401 401 401 401 401 401 401",
  },
  "read the public keys": {
    method: "GET",
    path: "/api/auth/jwks",
    expected: "200 200 200 200 200 200 200 200 200 200",
  },
  "read the public keys (well-known)": {
    method: "GET",
    path: "/.well-known/jwks.json",
    expected: "200 200 200 200 200 200 200 200 200 200",
  },
};

describe.each(DIALECTS)("admin scopes (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Persona, string>> = {};
  const fixtures: Fixtures = { freeId: "", businessId: "" };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const account of DEMO_ACCOUNTS) {
      cookies[account.key] = await signIn(server.url, account.email, DEMO_PASSWORD);
    }
    const idOf = async (email: string) =>
      (
        await server.runtime.database.db
          .selectFrom("user")
          .select("id")
          .where("email", "=", email)
          .executeTakeFirstOrThrow()
      ).id;
    fixtures.freeId = await idOf("free@demo.local");
    fixtures.businessId = await idOf("business@demo.local");
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const as = (persona: Persona, path: string, body?: unknown, method?: string) =>
    call(server.url, path, body, {
      method: method ?? (body === undefined ? "GET" : "POST"),
      ...(persona === "visitor" ? {} : { cookie: cookies[persona] }),
    });
  const page = (persona: Persona, path: string) =>
    fetch(`${server.url}${path}`, {
      redirect: "manual",
      headers: persona === "visitor" ? {} : { cookie: cookies[persona]! },
    });
  const createCredential = async (persona: Persona, scopes: string[]) => {
    const res = await as(persona, "/api/admin/service-credentials", { name: `${persona} svc`, scopes });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; clientId: string; clientSecret: string };
  };
  const exchange = (cred: { clientId: string; clientSecret: string }) =>
    call(
      server.url,
      "/api/auth/service-token",
      { grant_type: "client_credentials", client_id: cred.clientId, client_secret: cred.clientSecret },
      { origin: null },
    );
  const tokenFor = async (cred: { clientId: string; clientSecret: string }) => {
    const res = await exchange(cred);
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const managerOnlyLocked = async (headers: Record<string, string>) => {
    const res = await fetch(`${server.url}/api/content/${MANAGER_ONLY.slug}`, { headers });
    return { status: res.status, locked: res.ok ? ((await res.json()) as { locked: boolean }).locked : null };
  };

  for (const [index, persona] of PERSONAS.entries()) {
    it(`answers every admin and credential API for ${persona} as the table says`, async () => {
      const failures: string[] = [];
      for (const [name, row] of Object.entries(TABLE)) {
        const path = typeof row.path === "function" ? row.path(fixtures) : row.path;
        const res = await as(persona, path, row.body, row.method);
        const want = Number(row.expected.split(" ")[index]);
        const text = await res.text();
        if (res.status !== want)
          failures.push(`${name} (${row.method} ${path}): ${res.status}, want ${want}`);
        if (res.status === 403 && persona === "business" && path.startsWith("/api/admin/")) {
          if (!/platform administrator/i.test(text)) failures.push(`${name}: 403 without the reason`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it("the operations themselves refuse anyone without the platform scope, whatever the transport", async () => {
    const { serviceCredentials } = server.runtime;
    const { diagnostics } = server.runtime.services;
    const contextOf = (userId: string, groups: string[]) =>
      buildUserContext({ sub: userId, email: `${userId}@demo.local`, "cognito:groups": groups });
    const people = {
      visitor: visitorContext(),
      business: contextOf(fixtures.businessId, ["org-acme", "org-acme-admin", "Business"]),
      manager: contextOf("manager-1", ["individual-pro", "ContentManager"]),
      admin: contextOf("admin-1", ["app-admin"]),
    };
    // Written by hand: list, create, revoke (an unknown id → false, still "ok"), diagnostics.
    const expected = {
      visitor: ["UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED"],
      business: ["FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN"],
      manager: ["FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN"],
      admin: ["ok", "ok", "ok", "ok"],
    };
    for (const [who, context] of Object.entries(people)) {
      const actor = actorOf(context);
      const got = [
        await outcome(() => serviceCredentials.list(actor)),
        await outcome(() => serviceCredentials.create(actor, { name: "direct", scopes: ["content:read"] })),
        await outcome(() => serviceCredentials.revoke(actor, "no-such-credential")),
        await outcome(() => diagnostics.adminDiagnostics(actor)),
      ];
      expect(got, who).toEqual(expected[who as keyof typeof expected]);
    }
  });

  it("business@ cannot list, create or revoke service credentials, nor revoke owner@'s", async () => {
    const ownerCred = await createCredential("owner", ["content:read:all"]);
    const countRows = async () =>
      (await server.runtime.database.db.selectFrom("service_credential").select("id").execute()).length;
    const before = await countRows();

    const list = await as("business", "/api/admin/service-credentials");
    expect(list.status).toBe(403);
    const listBody = await list.text();
    expect(listBody).not.toContain(ownerCred.clientId);
    expect(JSON.parse(listBody)).toMatchObject({
      error: { code: "FORBIDDEN", message: expect.stringMatching(/platform administrator/) },
    });

    const create = await as("business", "/api/admin/service-credentials", {
      name: "backdoor",
      scopes: ["content:read:all"],
    });
    expect(create.status).toBe(403);
    expect(await create.text()).not.toContain("clientSecret");
    expect(await countRows()).toBe(before);

    const revoke = await as(
      "business",
      `/api/admin/service-credentials/${ownerCred.id}`,
      undefined,
      "DELETE",
    );
    expect(revoke.status).toBe(403);
    const row = await server.runtime.database.db
      .selectFrom("service_credential")
      .select("revokedAt")
      .where("id", "=", ownerCred.id)
      .executeTakeFirstOrThrow();
    expect(row.revokedAt).toBeNull();

    // owner@'s credential still works: its token reads what business@'s own session cannot.
    const token = await tokenFor(ownerCred);
    expect(await managerOnlyLocked({ authorization: `Bearer ${token}` })).toEqual({
      status: 200,
      locked: false,
    });
    expect(await managerOnlyLocked({ cookie: cookies.business! })).toEqual({ status: 200, locked: true });

    // Credentials are platform-wide: another platform admin may revoke owner@'s.
    expect(
      (await as("admin", `/api/admin/service-credentials/${ownerCred.id}`, undefined, "DELETE")).status,
    ).toBe(204);
    expect((await exchange(ownerCred)).status).toBe(401);
  });

  it("only a signed-in user's session or ID token manages credentials; keys and service tokens are refused", async () => {
    const idToken = async (persona: Persona) =>
      ((await (await as(persona, "/api/account/token", {})).json()) as { idToken: string }).idToken;
    const withHeaders = (headers: Record<string, string>) =>
      call(server.url, "/api/admin/service-credentials", undefined, { headers });
    expect((await withHeaders({ authorization: `Bearer ${await idToken("business")}` })).status).toBe(403);
    expect((await withHeaders({ authorization: `Bearer ${await idToken("admin")}` })).status).toBe(200);
    const svc = await tokenFor(await createCredential("admin", ["content:read:all"]));
    expect((await withHeaders({ authorization: `Bearer ${svc}` })).status).toBe(403);
    const key = (await (
      await as("owner", "/api/account/api-keys", { name: "owner key", scopes: ["content:read"] })
    ).json()) as { key: string };
    expect((await withHeaders({ "x-api-key": key.key })).status).toBe(403);
  });

  it("a credential's token never reads more than its creator may grant", async () => {
    const cred = await createCredential("admin", ["content:read:all"]);
    const token = await tokenFor(cred);
    const bearer = { authorization: `Bearer ${token}` };
    expect(await managerOnlyLocked(bearer)).toEqual({ status: 200, locked: false });

    // A credential whose creator is an organisation admin (as the attack left them before this
    // rule): the token already issued and the secret stop working at once.
    await server.runtime.database.db
      .updateTable("service_credential")
      .set({ createdBy: fixtures.businessId })
      .where("id", "=", cred.id)
      .execute();
    expect((await fetch(`${server.url}/api/content/${MANAGER_ONLY.slug}`, { headers: bearer })).status).toBe(
      401,
    );
    expect((await exchange(cred)).status).toBe(401);

    // A creator that is gone counts the same.
    await server.runtime.database.db
      .updateTable("service_credential")
      .set({ createdBy: null })
      .where("id", "=", cred.id)
      .execute();
    expect((await exchange(cred)).status).toBe(401);
  });

  it("business@ gets no platform-wide counts or diagnostics from /admin pages or their .data requests", async () => {
    // Keys of the installation's diagnostics, as the page's and the .data stream's JSON carry them.
    const PLATFORM_FIELDS = /"counts"|"configuration"|"routeCount"|"uptimeS"/;
    const text = async (res: Response) => (await res.text()).replace(/\\/g, "");
    // /admin/users lists people, not counts: business@ sees Acme's members, never free@.
    for (const path of ["/admin/users", "/admin/users.data"]) {
      const body = await text(await page("business", path));
      expect(body, path).toContain("Acme Learning Co.");
      expect(body, path).toContain("business@demo.local");
      expect(body, path).not.toContain("free@demo.local");
      expect(await text(await page("admin", path)), path).toContain("free@demo.local");
    }
    for (const path of ["/admin", "/admin.data"]) {
      const res = await page("business", path);
      const body = await text(res);
      expect(res.status, path).toBe(200);
      expect(body, path).not.toMatch(PLATFORM_FIELDS);
      expect(body, path).toContain("Acme Learning Co.");
      // The same page for a platform admin does carry them, so this check can fail.
      const admin = await text(await page("admin", path));
      expect(admin, path).toMatch(/"counts"/);
    }
    for (const screen of [
      "/admin/overview",
      "/admin/content",
      "/admin/subscriptions",
      "/admin/analytics",
      "/admin/logs",
    ]) {
      for (const path of [screen, `${screen}.data`]) {
        const res = await page("business", path);
        const body = await text(res);
        expect(res.status, path).toBe(403);
        expect(body, path).not.toMatch(PLATFORM_FIELDS);
        if (!path.endsWith(".data")) expect(body, path).toMatch(/platform administrator/);
      }
      expect((await page("admin", screen)).status, screen).toBe(200);
    }
    // The sidebar and the landing page offer business@ only what it may open.
    const landing = await (await page("business", "/admin")).text();
    expect(landing).toContain('href="/admin/users"');
    expect(landing).not.toContain("/admin/users/:userId");
    expect(landing).not.toContain('href="/admin/overview"');
    expect(await (await page("admin", "/admin")).text()).toContain('href="/admin/overview"');
  });
});
