/**
 * Claims → user context for each demo account, built on the server from database rows
 * (groups, subscriptions, account type) through core's mapping. Expectations written out per
 * spec §3/§6, not computed by the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ORGANIZATION, DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createSubscriptionsRepo } from "../../server/modules/subscriptions/subscriptions.repo.ts";
import { buildSubscription } from "../factories/index.ts";
import { createConfirmedAccount, STRONG_PASSWORD } from "../helpers/auth.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

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

  describe("the effective subscription (core/effective-subscription.ts) sets the tier", () => {
    /** A new confirmed account, signed in: its id, its cookie and a reader of its context. */
    async function newMember() {
      const account = await createConfirmedAccount(server.url, server.dataDir, "effsub");
      const cookie = await signIn(server.url, account.email, STRONG_PASSWORD);
      const db = server.runtime.database.db;
      const { id } = await db
        .selectFrom("user")
        .select("id")
        .where("email", "=", account.email)
        .executeTakeFirstOrThrow();
      const me = async () => {
        const res = await fetch(`${server.url}/api/account/me`, { headers: { cookie } });
        expect(res.status).toBe(200);
        return res.json();
      };
      return { id, db, me, subs: createSubscriptionsRepo(db) };
    }

    it("an expired Pro and an active Basic → Basic (expired rows never grant)", async () => {
      const { id, subs, me } = await newMember();
      await subs.create(buildSubscription(id, { tier: "pro", expiresAt: inDays(-1) }));
      expect((await me()).pricingTier).toBe("Free"); // the sign-up Free row
      await subs.create(buildSubscription(id, { tier: "basic", status: "trialing", expiresAt: inDays(30) }));
      const ctx = await me();
      expect(ctx.pricingTier).toBe("Basic");
      expect(ctx.customAttributes.subscriptionStatus).toBe("trialing");
    });

    it("an organisation member with an own Pro gets the organisation's Enterprise seat plan (highest tier wins, seats count like own rows)", async () => {
      const { id, db, subs, me } = await newMember();
      await subs.create(buildSubscription(id, { tier: "pro", expiresAt: inDays(30) }));
      expect((await me()).pricingTier).toBe("Pro");

      // Acme's plan is the "business" (Enterprise) seat subscription held by its admin.
      await db
        .insertInto("user_group")
        .values({
          userId: id,
          groupName: `org-${DEMO_ORGANIZATION.slug}`,
          createdAt: new Date().toISOString(),
        })
        .execute();
      const member = await me();
      expect(member.pricingTier).toBe("Enterprise");
      expect(member.customAttributes.orgName).toBe(DEMO_ORGANIZATION.name);

      // leaving the organisation: back to the own Pro
      await db
        .deleteFrom("user_group")
        .where("userId", "=", id)
        .where("groupName", "=", `org-${DEMO_ORGANIZATION.slug}`)
        .execute();
      expect((await me()).pricingTier).toBe("Pro");
    });

    it("a subscription canceled at period end still counts until the cancellation date; one canceled already does not", async () => {
      const { id, subs, me } = await newMember();
      const pro = await subs.create(
        buildSubscription(id, { tier: "pro", expiresAt: inDays(10), canceledAt: inDays(10) }),
      );
      expect((await me()).pricingTier).toBe("Pro");
      await subs.update(pro.id, { canceledAt: inDays(-1) });
      expect((await me()).pricingTier).toBe("Free");
    });
  });
});
