/**
 * Claims → user context for each demo account, built on the server from database rows
 * (groups, subscriptions, account type) through core's mapping. Expectations written out per
 * spec §3/§6, not computed by the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const EXPECTED = {
  free: { authStatus: "authenticated", pricingTier: "Free", roles: ["User"], accountType: "individual" },
  basic: { authStatus: "authenticated", pricingTier: "Basic", roles: ["User"], accountType: "individual" },
  pro: { authStatus: "authenticated", pricingTier: "Pro", roles: ["User"], accountType: "individual" },
  enterprise: {
    authStatus: "authenticated",
    pricingTier: "Enterprise",
    roles: ["User"],
    accountType: "individual",
  },
  business: {
    authStatus: "admin",
    pricingTier: "Enterprise",
    roles: ["User", "Admin"],
    accountType: "business",
  },
  manager: {
    authStatus: "authenticated",
    pricingTier: "Pro",
    roles: ["User", "ContentManager"],
    accountType: "individual",
  },
  admin: {
    authStatus: "admin",
    pricingTier: "Enterprise",
    roles: ["User", "Admin"],
    accountType: "individual",
  },
  owner: {
    authStatus: "admin",
    pricingTier: "Enterprise",
    roles: ["User", "Admin", "SuperAdmin"],
    accountType: "individual",
  },
} as const;

describe.each(DIALECTS)("user context from database rows (%s)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  for (const [key, expected] of Object.entries(EXPECTED)) {
    it(`${key}@demo.local`, async () => {
      const cookie = await signIn(server.url, `${key}@demo.local`, DEMO_PASSWORD);
      const res = await fetch(`${server.url}/api/account/me`, { headers: { cookie } });
      expect(res.status).toBe(200);
      const ctx = await res.json();
      expect(ctx.authStatus).toBe(expected.authStatus);
      expect(ctx.pricingTier).toBe(expected.pricingTier);
      expect([...ctx.roles].sort()).toEqual([...expected.roles].sort());
      expect(ctx.accountType).toBe(expected.accountType);
      expect(ctx.email).toBe(`${key}@demo.local`);
      expect(ctx.session.absoluteTimeoutMs).toBe(86_400_000);
      expect(ctx.session.idleTimeoutMs).toBe(1_800_000);
      expect(ctx.session.rotationIntervalMs).toBe(21_600_000);
      if (key === "owner") expect(ctx.permissions).toContain("*");
      if (key === "free") expect(ctx.permissions).toEqual([]);
      if (key === "business") {
        expect(ctx.groups).toEqual(expect.arrayContaining(["org-acme", "org-acme-admin", "Business"]));
        expect(ctx.customAttributes.orgName).toBe("Acme Learning Co.");
      }
      expect(JSON.stringify(ctx)).not.toMatch(/session_token|password|secret/i);
    });
  }

  it("a visitor gets 401 from /api/account/me", async () => {
    const res = await fetch(`${server.url}/api/account/me`);
    expect(res.status).toBe(401);
  });
});
