import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { call, createConfirmedAccount, mailsTo, signInCookie, TestClock } from "../helpers/auth.ts";
import { contextOf, createOrganization, latestInviteToken, userIdOf } from "../helpers/orgs.ts";
import { enrolTotp } from "../helpers/second-factor.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const DAY = 86_400_000;

describe.each(DIALECTS)("organisations (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();
  let admin: string; // business@demo.local, admin of acme
  let appAdmin: string;
  let outsider: string; // free@demo.local, in no organisation
  let otherOrgAdmin: { cookie: string; email: string; id: string };

  const signInDemo = (key: string) => signInCookie(server.url, `${key}@demo.local`, DEMO_PASSWORD);
  const req = (path: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, body, opts);

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
    admin = await signInDemo("business");
    appAdmin = await signInDemo("admin");
    outsider = await signInDemo("free");
    const other = await createConfirmedAccount(server.url, server.dataDir, "globex");
    const id = await userIdOf(server.runtime.database.db, other.email);
    await createOrganization(server.runtime.database.db, {
      slug: "globex",
      name: "Globex",
      seats: 2,
      adminId: id,
    });
    // An organisation admin's rights need a second factor (decision 012).
    const signedIn = await signInCookie(server.url, other.email, other.password);
    otherOrgAdmin = {
      cookie: (await enrolTotp(server.url, signedIn, other.password)).cookie,
      email: other.email,
      id,
    };
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("an org admin sees the organisation, plan and seats, and its members", async () => {
    const res = await req("/api/orgs/mine", undefined, { cookie: admin });
    expect(res.status).toBe(200);
    const { organization } = await res.json();
    expect(organization).toMatchObject({
      slug: "acme",
      name: "Acme Learning Co.",
      plan: { tier: "business", status: "active" },
      seats: { total: 10, used: 1, available: 9 },
      viewer: { role: "admin", canManage: true, canEdit: true },
    });
    const members = await (await req("/api/orgs/acme/members", undefined, { cookie: admin })).json();
    expect(members.members).toHaveLength(1);
    expect(members.members[0]).toMatchObject({ email: "business@demo.local", role: "admin" });
    expect(Date.parse(members.members[0].joinedAt)).not.toBeNaN();
  });

  describe("unauthorized access", () => {
    const endpoints: Array<[string, string, unknown?]> = [
      ["GET", "/api/orgs/acme"],
      ["GET", "/api/orgs/acme/members"],
      ["POST", "/api/orgs/acme/invitations", { email: "x@example.test" }],
      ["PATCH", "/api/orgs/acme", { name: "Hacked" }],
      ["DELETE", "/api/orgs/acme/members/someone"],
    ];

    it("a visitor gets 401 everywhere", async () => {
      for (const [method, path, body] of endpoints) {
        const res = await req(path, body ?? (method === "GET" ? undefined : {}), { method });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect((await res.json()).error.code).toBe("UNAUTHENTICATED");
      }
      expect((await req("/api/orgs/mine")).status).toBe(401);
      expect((await req("/api/account/invitations/accept", { token: "a".repeat(43) })).status).toBe(401);
    });

    it("a user outside the organisation and an admin of another org get 404 (no existence leak)", async () => {
      for (const cookie of [outsider, otherOrgAdmin.cookie]) {
        for (const [method, path, body] of endpoints) {
          const res = await req(path, body ?? (method === "GET" ? undefined : {}), { method, cookie });
          expect(res.status, `${method} ${path}`).toBe(404);
        }
      }
      expect((await req("/api/orgs/mine", undefined, { cookie: outsider })).status).toBe(404);
      expect((await req("/api/orgs/no-such-org", undefined, { cookie: admin })).status).toBe(404);
      expect((await req("/api/orgs/..%2F..", undefined, { cookie: admin })).status).toBe(404);
    });

    it("app-admin may read and manage but not edit an organisation's details", async () => {
      expect((await req("/api/orgs/acme", undefined, { cookie: appAdmin })).status).toBe(200);
      expect((await req("/api/orgs/acme/members", undefined, { cookie: appAdmin })).status).toBe(200);
      const patch = await req(
        "/api/orgs/acme",
        { name: "Admin Rename" },
        { method: "PATCH", cookie: appAdmin },
      );
      expect(patch.status).toBe(403);
    });

    it("state changes from another Origin, or with none, are refused", async () => {
      for (const origin of ["https://evil.example", null]) {
        const res = await req(
          "/api/orgs/acme/invitations",
          { email: "o@example.test" },
          { cookie: admin, origin },
        );
        expect(res.status).toBe(403);
        expect((await res.json()).error.code).toBe("FORBIDDEN_ORIGIN");
      }
      const del = await req("/api/orgs/acme/members/x", undefined, {
        method: "DELETE",
        cookie: admin,
        origin: "https://evil.example",
      });
      expect(del.status).toBe(403);
      const accept = await req(
        "/api/account/invitations/accept",
        { token: "a".repeat(43) },
        {
          cookie: outsider,
          origin: "https://evil.example",
        },
      );
      expect(accept.status).toBe(403);
    });

    it("malformed and oversized bodies get 4xx with a clear message per field", async () => {
      const bad = await req("/api/orgs/acme/invitations", "{not json", { cookie: admin });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.code).toBe("INVALID_JSON");
      expect((await req("/api/orgs/acme/invitations", "[1,2]", { cookie: admin })).status).toBe(400);
      const big = await req("/api/orgs/acme/invitations", { email: "a".repeat(70_000) }, { cookie: admin });
      expect(big.status).toBe(413);
      const email = await req("/api/orgs/acme/invitations", { email: "not-an-email" }, { cookie: admin });
      expect(email.status).toBe(400);
      expect((await email.json()).error.field.email).toMatch(/valid e-mail/);
      const role = await req(
        "/api/orgs/acme/invitations",
        { email: "r@example.test", role: "owner" },
        { cookie: admin },
      );
      expect((await role.json()).error.field.role).toMatch(/member or admin/);
      const domain = await req(
        "/api/orgs/acme",
        { name: "Acme", domain: "https://x/y" },
        { method: "PATCH", cookie: admin },
      );
      expect(domain.status).toBe(400);
      expect((await domain.json()).error.field.domain).toMatch(/domain/);
      const name = await req("/api/orgs/acme", { name: 5 }, { method: "PATCH", cookie: admin });
      expect((await name.json()).error.field.name).toBeTruthy();
      const token = await req("/api/account/invitations/accept", { token: "../../x" }, { cookie: outsider });
      expect(token.status).toBe(400);
    });
  });

  it("invite → accept: the member shares the org tier; single use; a plain member cannot manage; removal drops the tier", async () => {
    const invitee = await createConfirmedAccount(server.url, server.dataDir, "invitee");
    const cookie = await signInCookie(server.url, invitee.email, invitee.password);
    const before = await contextOf(server.runtime, cookie);
    expect(before.pricingTier).toBe("Free");
    expect(before.accountType).toBe("individual");

    const sent = await req(
      "/api/orgs/acme/invitations",
      { email: invitee.email.toUpperCase() },
      { cookie: admin },
    );
    expect(sent.status).toBe(201);
    const { invitation } = await sent.json();
    expect(invitation.email).toBe(invitee.email);
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * DAY);
    expect(JSON.stringify(invitation)).not.toMatch(/token/i);
    const token = await latestInviteToken(server.dataDir, invitee.email);
    expect(token).toBeTruthy();
    const mail = (await mailsTo(server.dataDir, invitee.email))[0]!;
    expect(mail).toContain("individual/dashboard");

    // The token is stored hashed only.
    const stored = await server.runtime.database.db
      .selectFrom("organization_invitation")
      .selectAll()
      .execute();
    expect(JSON.stringify(stored)).not.toContain(token);

    // A pending invitation to the same address is not sent twice.
    expect(
      (await req("/api/orgs/acme/invitations", { email: invitee.email }, { cookie: admin })).status,
    ).toBe(409);

    const mine = await (await req("/api/account/invitations", undefined, { cookie })).json();
    expect(mine.invitations).toEqual([
      expect.objectContaining({ organizationName: "Acme Learning Co.", role: "member" }),
    ]);
    const preview = await (
      await req(`/api/account/invitations/preview?token=${token}`, undefined, { cookie })
    ).json();
    expect(preview.state).toBe("open");

    // Someone else cannot use it.
    const wrong = await req("/api/account/invitations/accept", { token }, { cookie: outsider });
    expect(wrong.status).toBe(403);

    const accepted = await req("/api/account/invitations/accept", { token }, { cookie });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ organization: { slug: "acme" }, role: "member" });
    const again = await req("/api/account/invitations/accept", { token }, { cookie });
    expect(again.status).toBe(409);

    const after = await contextOf(server.runtime, cookie);
    expect(after.accountType).toBe("business");
    expect(after.groups).toEqual(expect.arrayContaining(["org-acme", "Business"]));
    expect(after.pricingTier).not.toBe("Free");
    expect(after.pricingTier).toBe((await contextOf(server.runtime, admin)).pricingTier);
    expect((await req("/business/dashboard", undefined, { cookie })).status).toBe(200);

    // A plain member sees the organisation but cannot manage it.
    const org = await (await req("/api/orgs/mine", undefined, { cookie })).json();
    expect(org.organization).toMatchObject({
      slug: "acme",
      seats: { used: 2 },
      viewer: { role: "member", canManage: false },
    });
    expect((await req("/api/orgs/acme/members", undefined, { cookie })).status).toBe(403);
    expect((await req("/api/orgs/acme/invitations", { email: "z@example.test" }, { cookie })).status).toBe(
      403,
    );
    expect((await req("/api/orgs/acme", { name: "Mine now" }, { method: "PATCH", cookie })).status).toBe(403);
    const adminId = await userIdOf(server.runtime.database.db, "business@demo.local");
    expect(
      (await req(`/api/orgs/acme/members/${adminId}`, undefined, { method: "DELETE", cookie })).status,
    ).toBe(403);

    // Removal: the shared tier is gone on the next request.
    const memberId = await userIdOf(server.runtime.database.db, invitee.email);
    const removed = await req(`/api/orgs/acme/members/${memberId}`, undefined, {
      method: "DELETE",
      cookie: admin,
    });
    expect(removed.status).toBe(204);
    const gone = await contextOf(server.runtime, cookie);
    expect(gone.pricingTier).toBe("Free");
    expect(gone.accountType).toBe("individual");
    expect(gone.groups).not.toContain("org-acme");
    expect((await req("/api/orgs/acme", undefined, { cookie })).status).toBe(404);
    expect((await req("/business/dashboard", undefined, { cookie })).status).toBe(403);
    expect(
      (await req(`/api/orgs/acme/members/${memberId}`, undefined, { method: "DELETE", cookie: admin }))
        .status,
    ).toBe(404);

    const actions = (
      await server.runtime.database.db
        .selectFrom("audit_log")
        .select("action")
        .where("action", "like", "org_%")
        .execute()
    ).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(["org_invite_sent", "org_member_joined", "org_member_removed"]),
    );
  });

  it("the last admin cannot remove themselves", async () => {
    const adminId = await userIdOf(server.runtime.database.db, "business@demo.local");
    const res = await req(`/api/orgs/acme/members/${adminId}`, undefined, {
      method: "DELETE",
      cookie: admin,
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toMatch(/last administrator/);
  });

  it("seat limit: no invitation when pending + members fill the seats", async () => {
    // globex: 2 seats, 1 member (its admin).
    const first = await req(
      "/api/orgs/globex/invitations",
      { email: "g1@example.test" },
      { cookie: otherOrgAdmin.cookie },
    );
    expect(first.status).toBe(201);
    const second = await req(
      "/api/orgs/globex/invitations",
      { email: "g2@example.test" },
      { cookie: otherOrgAdmin.cookie },
    );
    expect(second.status).toBe(409);
    expect((await second.json()).error.code).toBe("NO_SEATS");
    const org = await (await req("/api/orgs/globex", undefined, { cookie: otherOrgAdmin.cookie })).json();
    expect(org.organization.seats).toMatchObject({ total: 2, used: 1, pending: 1, available: 0 });
  });

  it("an invitation expires after 7 days", async () => {
    const late = await createConfirmedAccount(server.url, server.dataDir, "late");
    expect((await req("/api/orgs/acme/invitations", { email: late.email }, { cookie: admin })).status).toBe(
      201,
    );
    const token = await latestInviteToken(server.dataDir, late.email);
    clock.advance(7 * DAY + 60_000);
    const cookie = await signInCookie(server.url, late.email, late.password);
    const res = await req("/api/account/invitations/accept", { token }, { cookie });
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toMatch(/expired/);
    expect((await contextOf(server.runtime, cookie)).groups).not.toContain("org-acme");
    admin = await signInDemo("business");
  });

  it("an org admin updates the name and domain (audited)", async () => {
    const res = await req(
      "/api/orgs/acme",
      { name: "Acme Learning Ltd", domain: "Acme.Example" },
      { method: "PATCH", cookie: admin },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).organization).toMatchObject({
      name: "Acme Learning Ltd",
      domain: "acme.example",
    });
    const row = await server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "org_updated")
      .executeTakeFirstOrThrow();
    expect(row.actorId).toBe(await userIdOf(server.runtime.database.db, "business@demo.local"));
    const cleared = await req(
      "/api/orgs/acme",
      { name: "Acme Learning Co.", domain: "" },
      { method: "PATCH", cookie: admin },
    );
    expect((await cleared.json()).organization.domain).toBeNull();
  });
});
