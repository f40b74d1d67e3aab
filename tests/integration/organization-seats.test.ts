/**
 * Organisations buying seats (issue 13): business sign-up creates the organisation with its
 * admin, `POST /api/org` for a signed-in individual (and its unauthorized-access suite), the seat
 * rules of the organisations service, and the organisation's plan as what its members read with
 * on every channel (page, REST, GraphQL) until it ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { call, latestCode, newAccount, signInCookie, TestClock } from "../helpers/auth.ts";
import { contextOf, createOrganization, latestInviteToken, userIdOf } from "../helpers/orgs.ts";
import { RAISED_RATE_LIMITS } from "../helpers/rate-limits.ts";
import { enrolTotp } from "../helpers/second-factor.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ENTERPRISE_ITEM = DEMO_CONTENT.find((c) => c.slug === "ai-risk-assessment-for-internal-tools")!;
/** A sentence near the end of the item's body: only a reader of the body gets it. */
const FINGERPRINT = "The assessment works best when teams run it early";

describe.each(DIALECTS)("organisations buying seats (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();

  const req = (urlPath: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, urlPath, body, opts);
  const db = () => server.runtime.database.db;

  /** Signs up (with extra body fields), confirms by the mailed code; returns the account. */
  async function signUp(prefix: string, extra: Record<string, unknown> = {}) {
    const account = newAccount(prefix);
    const res = await req("/api/auth/sign-up/email", { ...account, ...extra });
    expect(res.status, await res.clone().text()).toBe(200);
    const otp = await latestCode(server.dataDir, account.email);
    const verify = await req("/api/auth/email-otp/verify-email", { email: account.email, otp });
    expect(verify.status).toBe(200);
    return account;
  }

  /** A confirmed account signed in with an enrolled authenticator (org admin rights apply). */
  async function adminCookie(account: { email: string; password: string }) {
    const cookie = await signInCookie(server.url, account.email, account.password);
    return (await enrolTotp(server.url, cookie, account.password)).cookie;
  }

  async function groupsOf(email: string): Promise<string[]> {
    const id = await userIdOf(db(), email);
    const rows = await db().selectFrom("user_group").select("groupName").where("userId", "=", id).execute();
    return rows.map((r) => r.groupName).sort();
  }

  async function inviteAndToken(admin: string, slug: string, email: string) {
    const res = await req(`/api/orgs/${slug}/invitations`, { email }, { cookie: admin });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await latestInviteToken(server.dataDir, email))!;
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, RAISED_RATE_LIMITS, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("business sign-up", () => {
    it("creates the organisation with its admin: groups, account type, audit; no plan, so Free", async () => {
      const account = await signUp("bizsu", { account: "business", organizationName: "  Zenith Labs  " });
      const org = await db()
        .selectFrom("organization")
        .selectAll()
        .where("name", "=", "Zenith Labs")
        .executeTakeFirstOrThrow();
      expect(org.slug).toBe("zenith-labs");
      expect(await groupsOf(account.email)).toEqual(
        expect.arrayContaining(["Business", "org-zenith-labs", "org-zenith-labs-admin"]),
      );
      const user = await db()
        .selectFrom("user")
        .select(["id", "accountType"])
        .where("email", "=", account.email)
        .executeTakeFirstOrThrow();
      expect(user.accountType).toBe("business");
      const audit = await db()
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "org_created")
        .where("targetId", "=", org.id)
        .executeTakeFirstOrThrow();
      expect(audit.actorId).toBe(user.id);
      // The organisation has no subscription row: it starts with no plan.
      const orgRows = await db()
        .selectFrom("user_subscription")
        .select("id")
        .where("tenantId", "=", org.id)
        .execute();
      expect(orgRows).toEqual([]);

      // The spec's "any org- group gives Enterprise" fallback does not apply: the account has its
      // Free row, and the organisation gives nothing before it buys seats.
      const cookie = await signInCookie(server.url, account.email, account.password);
      const context = await contextOf(server.runtime, cookie);
      expect(context.pricingTier).toBe("Free");
      expect(context.accountType).toBe("business");
      const item = await (await req(`/api/content/${ENTERPRISE_ITEM.slug}`, undefined, { cookie })).json();
      expect(item.locked).toBe(true);

      // Until a second factor is enrolled the admin reads the organisation as a member (decision 012).
      const before = await (await req("/api/orgs/mine", undefined, { cookie })).json();
      expect(before.organization).toMatchObject({
        slug: "zenith-labs",
        plan: null,
        seats: { total: null, used: 1, pending: 0 },
        viewer: { role: "member", canManage: false },
      });
      const admin = (await enrolTotp(server.url, cookie, account.password)).cookie;
      const after = await (await req("/api/orgs/mine", undefined, { cookie: admin })).json();
      expect(after.organization.viewer).toMatchObject({ role: "admin", canManage: true, canEdit: true });

      // No plan: nobody can be invited until seats are bought, and the message says so.
      const invite = await req(
        "/api/orgs/zenith-labs/invitations",
        { email: "z1@example.test" },
        { cookie: admin },
      );
      expect(invite.status).toBe(409);
      const error = (await invite.json()).error;
      expect(error.code).toBe("NO_SEATS");
      expect(error.message).toMatch(/no plan yet: buy seats first/);
      // The dashboard offers the seat plans to buy.
      const page = await req("/business/dashboard", undefined, { cookie: admin });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Buy seats for your team");
      expect(html).toContain('action="/checkout"');
      expect(html).toContain("Team Pro");
    });

    it("makes the slug unique and never the shape of another organisation's admin group", async () => {
      await signUp("bizdup", { account: "business", organizationName: "Acme" });
      await signUp("bizadm", { account: "business", organizationName: "Acme Admin" });
      const slugs = (
        await db()
          .selectFrom("organization")
          .select("slug")
          .where("name", "in", ["Acme", "Acme Admin"])
          .execute()
      ).map((r) => r.slug);
      // "acme" is the demo organisation's; "org-acme-admin" is its admin group.
      expect(slugs.sort()).toEqual(["acme-2", "acme-admin-org"]);
      const acmeAdmins = await db()
        .selectFrom("user_group")
        .select("userId")
        .where("groupName", "=", "org-acme-admin")
        .execute();
      expect(acmeAdmins).toHaveLength(1);
    });

    it("refuses a missing or bad organisation name with a field error, and creates nothing", async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ account: "business" }, /organisation's name/],
        [{ account: "business", organizationName: "X" }, /at least 2 characters/],
        [{ account: "business", organizationName: "x".repeat(101) }, /at most 100 characters/],
        [{ account: "business", organizationName: 42 }, /must be text/],
      ];
      for (const [extra, message] of cases) {
        const account = newAccount("bizbad");
        const res = await req("/api/auth/sign-up/email", { ...account, ...extra });
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body.fields.organizationName).toMatch(message);
        const user = await db()
          .selectFrom("user")
          .select("id")
          .where("email", "=", account.email)
          .executeTakeFirst();
        expect(user).toBeUndefined();
      }
      const account = newAccount("bizacct");
      const odd = await req("/api/auth/sign-up/email", { ...account, account: "team" });
      expect(odd.status).toBe(400);
      expect((await odd.json()).fields.account).toMatch(/personal or business/);
    });

    it("a sign-up with an address already in use creates no organisation", async () => {
      const res = await req("/api/auth/sign-up/email", {
        ...newAccount("bizexist"),
        email: "free@demo.local",
        account: "business",
        organizationName: "Hijack Inc",
      });
      expect(res.status).toBe(200);
      const org = await db()
        .selectFrom("organization")
        .select("id")
        .where("name", "=", "Hijack Inc")
        .executeTakeFirst();
      expect(org).toBeUndefined();
      expect(await groupsOf("free@demo.local")).not.toEqual(expect.arrayContaining(["Business"]));
    });

    it("a personal sign-up stays individual", async () => {
      const account = await signUp("personal", { account: "personal", organizationName: "Ignored Ltd" });
      const user = await db()
        .selectFrom("user")
        .select("accountType")
        .where("email", "=", account.email)
        .executeTakeFirstOrThrow();
      expect(user.accountType).toBe("individual");
      const org = await db()
        .selectFrom("organization")
        .select("id")
        .where("name", "=", "Ignored Ltd")
        .executeTakeFirst();
      expect(org).toBeUndefined();
    });
  });

  describe("POST /api/org", () => {
    it("refuses visitors (401), API keys (403), other origins (403) and members of an organisation (409)", async () => {
      expect((await req("/api/org", { name: "Visitor Co" })).status).toBe(401);

      const owner = await signUp("keyowner");
      const ownerCookie = await signInCookie(server.url, owner.email, owner.password);
      const created = await req(
        "/api/account/api-keys",
        { name: "org test", scopes: ["content:read"] },
        { cookie: ownerCookie },
      );
      expect(created.status).toBe(201);
      const key = ((await created.json()) as { key: string }).key;
      const byKey = await req(
        "/api/org",
        { name: "Key Co" },
        { headers: { "x-api-key": key }, origin: null },
      );
      expect(byKey.status).toBe(403);
      expect((await byKey.json()).error.code).toBe("FORBIDDEN");

      const foreign = await req(
        "/api/org",
        { name: "Evil Co" },
        { cookie: ownerCookie, origin: "https://evil.example" },
      );
      expect(foreign.status).toBe(403);
      expect((await foreign.json()).error.code).toBe("FORBIDDEN_ORIGIN");

      // The demo organisation's admin, and a member of another organisation.
      const business = await signInCookie(server.url, "business@demo.local", DEMO_PASSWORD);
      const demo = await req("/api/org", { name: "Second Co" }, { cookie: business });
      expect(demo.status).toBe(409);
      expect((await demo.json()).error.message).toMatch(/already belong to an organisation/);
      const other = await signUp("othermember");
      const otherId = await userIdOf(db(), other.email);
      await createOrganization(db(), { slug: "globex", name: "Globex", seats: 3, adminId: otherId });
      const otherCookie = await signInCookie(server.url, other.email, other.password);
      expect((await req("/api/org", { name: "Third Co" }, { cookie: otherCookie })).status).toBe(409);

      const names = (await db().selectFrom("organization").select("name").execute()).map((r) => r.name);
      expect(names).not.toEqual(
        expect.arrayContaining(["Key Co", "Evil Co", "Second Co", "Third Co", "Visitor Co"]),
      );
    });

    it("validates the body, naming the field", async () => {
      const account = await signUp("orgbad");
      const cookie = await signInCookie(server.url, account.email, account.password);
      const short = await req("/api/org", { name: "x" }, { cookie });
      expect(short.status).toBe(400);
      expect((await short.json()).error.field.name).toMatch(/at least 2 characters/);
      const domain = await req("/api/org", { name: "Fine Co", domain: "https://fine.example/x" }, { cookie });
      expect(domain.status).toBe(400);
      expect((await domain.json()).error.field.domain).toMatch(/domain/);
      const json = await req("/api/org", "{nope", { cookie });
      expect(json.status).toBe(400);
      expect((await json.json()).error.code).toBe("INVALID_JSON");
    });

    it("a signed-in individual creates an organisation and becomes its admin; once only", async () => {
      const account = await signUp("starter");
      const cookie = await signInCookie(server.url, account.email, account.password);
      expect((await req("/business/start", undefined, { cookie })).status).toBe(200);
      const res = await req("/api/org", { name: "Starter Co", domain: "Starter.Example" }, { cookie });
      expect(res.status).toBe(201);
      const { organization } = await res.json();
      expect(organization).toMatchObject({
        name: "Starter Co",
        slug: "starter-co",
        domain: "starter.example",
        plan: null,
        seats: { total: null, used: 1, pending: 0 },
        // Admin rights wait for a second factor.
        viewer: { role: "member", canManage: false },
      });
      expect(await groupsOf(account.email)).toEqual(
        expect.arrayContaining(["Business", "org-starter-co", "org-starter-co-admin"]),
      );
      const audit = await db()
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "org_created")
        .where("targetId", "=", organization.id)
        .executeTakeFirstOrThrow();
      expect(audit.details).toContain("api");
      expect((await contextOf(server.runtime, cookie)).accountType).toBe("business");
      // Now a member: /business/start leads to the dashboard, and a second organisation is refused.
      const start = await fetch(`${server.url}/business/start`, { headers: { cookie }, redirect: "manual" });
      expect(start.status).toBe(302);
      expect(start.headers.get("location")).toBe("/business/dashboard");
      expect((await req("/api/org", { name: "Starter Two" }, { cookie })).status).toBe(409);
    });
  });

  describe("seat rules", () => {
    it("pending invitations count; removing a member frees a seat (full → remove → invite works)", async () => {
      const owner = await signUp("seatadm");
      const ownerId = await userIdOf(db(), owner.email);
      await createOrganization(db(), { slug: "seatco", name: "Seat Co", seats: 2, adminId: ownerId });
      const admin = await adminCookie(owner);

      const member = await signUp("seatmem");
      const token = await inviteAndToken(admin, "seatco", member.email);
      // 1 member + 1 pending = 2 seats: full.
      const full = await req(
        "/api/orgs/seatco/invitations",
        { email: "more@example.test" },
        { cookie: admin },
      );
      expect(full.status).toBe(409);
      expect((await full.json()).error.message).toMatch(/All 2 seats are taken \(1 members, 1 pending/);

      const memberCookie = await signInCookie(server.url, member.email, member.password);
      expect((await req("/api/account/invitations/accept", { token }, { cookie: memberCookie })).status).toBe(
        200,
      );
      expect(
        (await req("/api/orgs/seatco/invitations", { email: "more@example.test" }, { cookie: admin })).status,
      ).toBe(409);

      const memberId = await userIdOf(db(), member.email);
      const removed = await req(`/api/orgs/seatco/members/${memberId}`, undefined, {
        method: "DELETE",
        cookie: admin,
      });
      expect(removed.status).toBe(204);
      const again = await req(
        "/api/orgs/seatco/invitations",
        { email: "more@example.test" },
        { cookie: admin },
      );
      expect(again.status).toBe(201);
      const org = await (await req("/api/orgs/seatco", undefined, { cookie: admin })).json();
      expect(org.organization.seats).toMatchObject({ total: 2, used: 1, pending: 1 });
    });

    it("accepting is refused when the seats were reduced meanwhile, and works once a seat is free", async () => {
      const owner = await signUp("shrinkadm");
      const ownerId = await userIdOf(db(), owner.email);
      const orgId = await createOrganization(db(), {
        slug: "shrinkco",
        name: "Shrink Co",
        seats: 3,
        adminId: ownerId,
      });
      const admin = await adminCookie(owner);
      const first = await signUp("shrinka");
      const second = await signUp("shrinkb");
      const firstToken = await inviteAndToken(admin, "shrinkco", first.email);
      const secondToken = await inviteAndToken(admin, "shrinkco", second.email);

      // The seats go down to 2 (a reduction applied at the period end, for instance).
      await db().updateTable("user_subscription").set({ seats: 2 }).where("tenantId", "=", orgId).execute();

      const firstCookie = await signInCookie(server.url, first.email, first.password);
      expect(
        (await req("/api/account/invitations/accept", { token: firstToken }, { cookie: firstCookie })).status,
      ).toBe(200);
      const secondCookie = await signInCookie(server.url, second.email, second.password);
      const refused = await req(
        "/api/account/invitations/accept",
        { token: secondToken },
        { cookie: secondCookie },
      );
      expect(refused.status).toBe(409);
      const error = (await refused.json()).error;
      expect(error.code).toBe("NO_SEATS");
      expect(error.message).toMatch(/Shrink Co has no free seat for you: its seats were reduced/);
      expect((await contextOf(server.runtime, secondCookie)).groups).not.toContain("org-shrinkco");
      const invitation = await db()
        .selectFrom("organization_invitation")
        .select("acceptedAt")
        .where("email", "=", second.email)
        .executeTakeFirstOrThrow();
      expect(invitation.acceptedAt).toBeNull();

      // A seat is added: the same invitation works.
      await db().updateTable("user_subscription").set({ seats: 3 }).where("tenantId", "=", orgId).execute();
      expect(
        (await req("/api/account/invitations/accept", { token: secondToken }, { cookie: secondCookie }))
          .status,
      ).toBe(200);
    });

    it("an admin cancels a pending invitation: its seat is free and its link stops working", async () => {
      const owner = await signUp("canceladm");
      const ownerId = await userIdOf(db(), owner.email);
      await createOrganization(db(), { slug: "cancelco", name: "Cancel Co", seats: 2, adminId: ownerId });
      const admin = await adminCookie(owner);
      const invitee = await signUp("cancelmem");
      const token = await inviteAndToken(admin, "cancelco", invitee.email);
      const { invitations } = await (
        await req("/api/orgs/cancelco/members", undefined, { cookie: admin })
      ).json();
      const id = invitations[0].id as string;
      const path = `/api/orgs/cancelco/invitations/${id}`;

      // Visitors 401; someone outside 404; foreign origin 403.
      expect((await req(path, undefined, { method: "DELETE" })).status).toBe(401);
      const outsider = await signInCookie(server.url, "free@demo.local", DEMO_PASSWORD);
      expect((await req(path, undefined, { method: "DELETE", cookie: outsider })).status).toBe(404);
      expect(
        (await req(path, undefined, { method: "DELETE", cookie: admin, origin: "https://evil.example" }))
          .status,
      ).toBe(403);

      expect((await req(path, undefined, { method: "DELETE", cookie: admin })).status).toBe(204);
      expect((await req(path, undefined, { method: "DELETE", cookie: admin })).status).toBe(404);
      const cookie = await signInCookie(server.url, invitee.email, invitee.password);
      expect((await req("/api/account/invitations/accept", { token }, { cookie })).status).toBe(404);
      // The seat is free again.
      expect(
        (await req("/api/orgs/cancelco/invitations", { email: "next@example.test" }, { cookie: admin }))
          .status,
      ).toBe(201);
    });

    it("invitations sent at the same moment never take the same seat", async () => {
      const owner = await signUp("raceadm");
      const ownerId = await userIdOf(db(), owner.email);
      await createOrganization(db(), { slug: "raceco", name: "Race Co", seats: 3, adminId: ownerId });
      const admin = await adminCookie(owner);
      // Straight to the service, so that the five checks really overlap.
      const actor = await server.runtime.identity.resolveSessionActor(
        new Headers({ cookie: admin, "user-agent": "node", "accept-language": "*" }),
      );
      const answers = await Promise.allSettled(
        [1, 2, 3, 4, 5].map((n) =>
          server.runtime.services.organizations.invite(actor, "raceco", { email: `race${n}@example.test` }),
        ),
      );
      expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(2);
      for (const a of answers) {
        if (a.status === "rejected") expect((a.reason as { code: string }).code).toBe("NO_SEATS");
      }
      const org = await (await req("/api/orgs/raceco", undefined, { cookie: admin })).json();
      expect(org.organization.seats).toMatchObject({ total: 3, used: 1, pending: 2 });
    });

    it("seats bought through the billing API: never fewer than members + pending invitations", async () => {
      const owner = await signUp("growadm");
      const ownerId = await userIdOf(db(), owner.email);
      const orgId = await createOrganization(db(), {
        slug: "growco",
        name: "Grow Co",
        seats: 3,
        adminId: ownerId,
      });
      await db()
        .updateTable("user_subscription")
        .set({ planId: "business", billingInterval: "month", tier: "enterprise" })
        .where("tenantId", "=", orgId)
        .execute();
      const admin = await adminCookie(owner);
      await inviteAndToken(admin, "growco", "grow1@example.test");
      await inviteAndToken(admin, "growco", "grow2@example.test");
      const view = async () =>
        (await (await req("/api/orgs/growco", undefined, { cookie: admin })).json()).organization;
      const { plan } = await view();
      expect(plan).toMatchObject({
        planId: "business",
        interval: "month",
        seatPriceCents: 3900,
        currency: "usd",
      });

      // 1 member + 2 pending invitations: 2 seats are refused, with the reason.
      const fewer = await req("/api/billing/seats", { seats: 2, version: plan.version }, { cookie: admin });
      expect(fewer.status).toBe(409);
      const error = (await fewer.json()).error;
      expect(error.code).toBe("NO_SEATS");
      expect(error.message).toMatch(/at least 3 seats \(1 members, 2 pending invitations\)/);

      // Five seats: at once, and the next invitation fits.
      const more = await req("/api/billing/seats", { seats: 5, version: plan.version }, { cookie: admin });
      expect(more.status, await more.clone().text()).toBe(200);
      expect((await view()).seats).toMatchObject({ total: 5, used: 1, pending: 2 });
      expect(
        (await req("/api/orgs/growco/invitations", { email: "grow3@example.test" }, { cookie: admin }))
          .status,
      ).toBe(201);

      // Back to four seats: a reduction waits for the period end, but the seat it removes is not
      // offered any more (1 member + 3 pending = 4: the next invitation is refused).
      const fewerLater = await req(
        "/api/billing/seats",
        { seats: 4, version: (await view()).plan.version },
        { cookie: admin },
      );
      expect(fewerLater.status, await fewerLater.clone().text()).toBe(200);
      expect((await view()).seats).toMatchObject({ total: 5, used: 1, pending: 3, available: 0 });
      const refused = await req(
        "/api/orgs/growco/invitations",
        { email: "grow4@example.test" },
        { cookie: admin },
      );
      expect(refused.status).toBe(409);
      expect((await refused.json()).error.message).toMatch(/All 4 seats are taken/);
    });

    it("an organisation whose plan ended invites nobody and accepts nobody", async () => {
      const owner = await signUp("endedadm");
      const ownerId = await userIdOf(db(), owner.email);
      const orgId = await createOrganization(db(), {
        slug: "endedco",
        name: "Ended Co",
        seats: 5,
        adminId: ownerId,
      });
      const admin = await adminCookie(owner);
      const invitee = await signUp("endedmem");
      const token = await inviteAndToken(admin, "endedco", invitee.email);
      await db()
        .updateTable("user_subscription")
        .set({ status: "canceled" })
        .where("tenantId", "=", orgId)
        .execute();

      const invite = await req(
        "/api/orgs/endedco/invitations",
        { email: "late@example.test" },
        { cookie: admin },
      );
      expect(invite.status).toBe(409);
      expect((await invite.json()).error.message).toMatch(/buy seats first/);
      const cookie = await signInCookie(server.url, invitee.email, invitee.password);
      const accept = await req("/api/account/invitations/accept", { token }, { cookie });
      expect(accept.status).toBe(409);
      expect((await accept.json()).error.message).toMatch(/Ended Co has no active plan/);
    });
  });

  it("members read with the organisation's plan on page, REST and GraphQL, and with their own once it ends", async () => {
    const owner = await signUp("readadm");
    const ownerId = await userIdOf(db(), owner.email);
    const orgId = await createOrganization(db(), {
      slug: "readco",
      name: "Read Co",
      seats: 5,
      adminId: ownerId,
    });
    await db()
      .updateTable("user_subscription")
      .set({ planId: "business", tier: "enterprise" })
      .where("tenantId", "=", orgId)
      .execute();
    const admin = await adminCookie(owner);
    const member = await signUp("readmem");
    const token = await inviteAndToken(admin, "readco", member.email);
    const cookie = await signInCookie(server.url, member.email, member.password);

    async function reads(): Promise<{ page: boolean; rest: boolean; graphql: boolean }> {
      const page = await (await req(`/content/${ENTERPRISE_ITEM.slug}`, undefined, { cookie })).text();
      const rest = await (await req(`/api/content/${ENTERPRISE_ITEM.slug}`, undefined, { cookie })).json();
      const gql = await req(
        "/graphql",
        { query: "query ($id: ID!) { getContent(id: $id) { id locked } }", variables: { id: rest.id } },
        { cookie },
      );
      const data = (await gql.json()) as { data: { getContent: { locked: boolean } } };
      return { page: page.includes(FINGERPRINT), rest: !rest.locked, graphql: !data.data.getContent.locked };
    }

    // Before joining: Free, the Enterprise item is locked everywhere.
    expect(await reads()).toEqual({ page: false, rest: false, graphql: false });
    expect((await req("/api/account/invitations/accept", { token }, { cookie })).status).toBe(200);
    expect((await contextOf(server.runtime, cookie)).pricingTier).toBe("Enterprise");
    expect(await reads()).toEqual({ page: true, rest: true, graphql: true });
    const plan = (await (await req("/api/orgs/mine", undefined, { cookie })).json()).organization.plan;
    expect(plan).toMatchObject({ planId: "business", planName: "Business", tier: "enterprise" });

    // The organisation's plan ends (cancelled, effective a minute ago): the member is Free again.
    await db()
      .updateTable("user_subscription")
      .set({ canceledAt: new Date(clock.now() - 60_000).toISOString() })
      .where("tenantId", "=", orgId)
      .execute();
    expect((await contextOf(server.runtime, cookie)).pricingTier).toBe("Free");
    expect(await reads()).toEqual({ page: false, rest: false, graphql: false });
  });
});
