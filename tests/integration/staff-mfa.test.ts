/**
 * Staff rights need a second factor (issue 10 point 5, decision 012): an account in a staff group
 * without a verified authenticator app signs in, but pages, `.data`, REST, GraphQL, bearer ID
 * tokens and service-credential creation treat it as a plain user until it enrols TOTP; the
 * enrolling session gets the rights at once, other password-only sessions end; turning TOTP off
 * takes the rights away again, also from tokens issued meanwhile. A demo staff sign-in without
 * the code gets no session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { call, cookiesOf, createConfirmedAccount, signInCookie, withCookies } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { secretOf, totpCode } from "../helpers/totp.ts";

const CREATE_CATEGORY =
  "mutation ($input: CreateContentCategoryInput!) { createContentCategory(input: $input) { id slug } }";

describe.each(DIALECTS)("staff rights need a second factor (%s)", (dialect) => {
  let server: TestServer;
  let n = 0;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A confirmed account put into `groups` through the database (as an operator would). */
  async function staffAccount(groups: string[]) {
    const account = await createConfirmedAccount(server.url, server.dataDir, "staff");
    const db = server.runtime.database.db;
    const user = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    await db
      .insertInto("user_group")
      .values(
        groups.map((groupName) => ({ userId: user.id, groupName, createdAt: new Date().toISOString() })),
      )
      .execute();
    return { ...account, id: user.id };
  }

  const page = (path: string, cookie: string) => call(server.url, path, undefined, { cookie });
  const gql = (query: string, variables: unknown, headers: Record<string, string>) =>
    fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...headers },
      body: JSON.stringify({ query, variables }),
    }).then(
      async (r) => (await r.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] },
    );
  const idToken = async (cookie: string) => {
    const res = await call(server.url, "/api/account/token", {}, { cookie });
    expect(res.status).toBe(200);
    return ((await res.json()) as { idToken: string }).idToken;
  };

  /** What an admin can do, tried on every channel: [page, .data, REST admin API, credential, GraphQL cookie, GraphQL bearer]. */
  async function adminChannels(cookie: string, token: string) {
    const slug = `staff-mfa-${dialect}-${++n}`;
    const cookieWrite = await gql(
      CREATE_CATEGORY,
      { input: { slug: `${slug}-c`, label: "Staff" } },
      { cookie },
    );
    const bearerWrite = await gql(
      CREATE_CATEGORY,
      { input: { slug: `${slug}-b`, label: "Staff" } },
      { authorization: `Bearer ${token}` },
    );
    return {
      adminPage: (await page("/admin/overview", cookie)).status,
      contentPage: (await page("/content", cookie)).status,
      adminData: (await page("/admin/overview.data", cookie)).status,
      adminApi: (await page("/api/admin/repositories", cookie)).status,
      credential: (
        await call(
          server.url,
          "/api/admin/service-credentials",
          { name: `${slug}-svc`, scopes: ["content:read:all"] },
          { cookie },
        )
      ).status,
      graphqlCookie: cookieWrite.errors?.[0]?.extensions?.code ?? "ok",
      graphqlBearer: bearerWrite.errors?.[0]?.extensions?.code ?? "ok",
    };
  }

  const DENIED = {
    adminPage: 403,
    contentPage: 403,
    adminData: 403,
    adminApi: 403,
    credential: 403,
    graphqlCookie: "FORBIDDEN",
    graphqlBearer: "FORBIDDEN",
  };
  const ALLOWED = {
    adminPage: 200,
    contentPage: 200,
    adminData: 200,
    adminApi: 200,
    credential: 201,
    graphqlCookie: "ok",
    graphqlBearer: "ok",
  };

  it("an app-admin without TOTP is a plain user on every channel until it enrols; enrolling upgrades that session and ends the others; turning TOTP off takes the rights back", async () => {
    const staff = await staffAccount(["app-admin"]);
    let cookie = await signInCookie(server.url, staff.email, staff.password);
    const elsewhere = await signInCookie(server.url, staff.email, staff.password);

    const me = (await (await page("/api/account/me", cookie)).json()) as Record<string, unknown>;
    expect(me.roles).toEqual(["User"]);
    expect(me.groups).toEqual(expect.not.arrayContaining(["app-admin"]));
    expect(me.mfaPendingRoles).toEqual(["AdminUser", "Admin"]);
    const graceToken = await idToken(cookie);
    expect(await adminChannels(cookie, graceToken)).toEqual(DENIED);
    // The staff page explains: the 403 leads to enrolment.
    expect(await (await page("/admin/overview", cookie)).text()).toContain("/settings?enrol-mfa=1");

    // Enrol: password → secret → a code verified in this session.
    const enable = await call(
      server.url,
      "/api/auth/two-factor/enable",
      { password: staff.password },
      { cookie },
    );
    expect(enable.status).toBe(200);
    cookie = withCookies(cookie, enable);
    const secret = secretOf(((await enable.json()) as { totpURI: string }).totpURI);
    const verify = await call(
      server.url,
      "/api/auth/two-factor/verify-totp",
      { code: totpCode(secret) },
      { cookie },
    );
    expect(verify.status).toBe(200);
    cookie = withCookies(cookie, verify);

    expect(await adminChannels(cookie, await idToken(cookie))).toEqual(ALLOWED);
    // A token issued during the grace sign-in never carries the rights: enrolling replaced the
    // session it was minted from, and a token ends with its sign-in (decision 013).
    const stale = await gql(
      CREATE_CATEGORY,
      { input: { slug: `grace-${dialect}-${n}`, label: "X" } },
      { authorization: `Bearer ${graceToken}` },
    );
    expect(stale.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    // The password-only session on the other device ended.
    expect((await page("/api/account/security-check", elsewhere)).status).toBe(401);

    // Turning TOTP off: the rights go, in this session and for tokens.
    const enrolledToken = await idToken(cookie);
    const disable = await call(
      server.url,
      "/api/auth/two-factor/disable",
      { password: staff.password },
      { cookie },
    );
    expect(disable.status).toBe(200);
    cookie = withCookies(cookie, disable);
    // Turning it off replaced the session, so the token minted while enrolled ended with it
    // (decision 013); a token minted now is a plain user's.
    expect(await adminChannels(cookie, enrolledToken)).toEqual({
      ...DENIED,
      graphqlBearer: "UNAUTHENTICATED",
    });
    expect(await adminChannels(cookie, await idToken(cookie))).toEqual(DENIED);
  });

  it("a content manager and an organisation admin without TOTP lose their staff rights, not their plan or membership", async () => {
    const manager = await staffAccount(["individual-pro", "ContentManager"]);
    const cookie = await signInCookie(server.url, manager.email, manager.password);
    expect((await page("/content", cookie)).status).toBe(403);
    const write = await gql(
      "mutation ($input: CreateContentInput!) { createContent(input: $input) { id } }",
      { input: { title: "Grace", slug: `grace-manager-${dialect}` } },
      { cookie },
    );
    expect(write.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const mfa = (await (await page("/api/account/mfa", cookie)).json()) as Record<string, unknown>;
    expect(mfa).toMatchObject({ enabled: false, totp: false, pendingStaffRoles: ["ContentManager"] });

    // business@ without its second factor: still a member of Acme on the Business plan, not its admin.
    const db = server.runtime.database.db;
    const business = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "business@demo.local")
      .executeTakeFirstOrThrow();
    await db.updateTable("user").set({ twoFactorEnabled: false }).where("id", "=", business.id).execute();
    await db.deleteFrom("twoFactor").where("userId", "=", business.id).execute();
    const orgCookie = await signInCookie(server.url, "business@demo.local", DEMO_PASSWORD);
    const me = (await (await page("/api/account/me", orgCookie)).json()) as Record<string, unknown>;
    expect(me.pricingTier).toBe("Enterprise");
    expect(me.groups).toEqual(expect.arrayContaining(["org-acme", "Business"]));
    expect(me.roles).toEqual(["User"]);
    expect((await page("/business/dashboard", orgCookie)).status).toBe(200);
    expect((await page("/api/orgs/acme/members", orgCookie)).status).toBe(403);
  });

  it("a demo staff account's password alone gives no session; its published code does", async () => {
    for (const email of ["manager@demo.local", "admin@demo.local", "owner@demo.local"]) {
      const res = await call(server.url, "/api/auth/sign-in/email", { email, password: DEMO_PASSWORD });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
      const challenge = cookiesOf(res);
      expect(challenge).not.toContain("session_token=");
      expect((await page("/api/account/security-check", challenge)).status).toBe(401);
      const admin = await fetch(`${server.url}/admin`, {
        headers: { cookie: challenge },
        redirect: "manual",
      });
      expect(admin.status).toBe(302);
      expect(admin.headers.get("location")).toMatch(/^\/auth\/signin\?/);
    }
    const owner = await signInCookie(server.url, "owner@demo.local", DEMO_PASSWORD);
    expect((await page("/super-admin", owner)).status).toBe(200);
  });
});
