/**
 * The platform owner's security console (issue 14, /super-admin/security): who may use every
 * endpoint (visitor, every demo account, an API key, a foreign Origin), sessions across the
 * platform (a revoked session's cookie is signed out on its next request), lockouts produced by
 * failed sign-ins and cleared (account, login name and address keys), MFA adoption against the
 * stored state, service credential rotation (old secret and its tokens refused, new one works),
 * and the audit rows of every write.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBool } from "../../server/db/values.ts";
import type {
  Lockout,
  SecurityOverview,
  SessionsPage,
} from "../../server/modules/security-admin/security-admin.service.ts";
import { DEMO_ACCOUNTS, signInAdminPersonas } from "../helpers/admin-personas.ts";
import { call, createConfirmedAccount, signInCookie } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

describe.each(DIALECTS)("security admin API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let apiKey = "";

  const req = (path: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, body, opts);
  const asOwner = (path: string, body?: unknown) => req(path, body, { cookie: cookies.owner });
  const db = () => server.runtime.database.db;
  const audit = (action: string) =>
    db().selectFrom("audit_log").selectAll().where("action", "=", action).orderBy("at", "desc").execute();
  const userId = async (email: string) =>
    (await db().selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  const signedIn = async (cookie: string) => (await req("/api/account/me", undefined, { cookie })).status;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const personas = await signInAdminPersonas(server.url, DEMO_ACCOUNTS, "owner");
    Object.assign(cookies, personas.cookies);
    apiKey = personas.apiKey;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("unauthorized access", () => {
    const reads = [
      "/api/admin/security",
      "/api/admin/security/sessions",
      "/api/admin/security/lockouts",
      "/api/admin/security/credentials",
    ];
    const writes: [string, unknown][] = [
      ["/api/admin/security/sessions/some-session/revoke", {}],
      ["/api/admin/security/users/some-user/sessions/revoke", { note: "x" }],
      ["/api/admin/security/lockouts/clear", { key: "ip:203.0.113.9" }],
      ["/api/admin/service-credentials/some-id/rotate", {}],
    ];
    const attempts = (cookie?: string, extra: Parameters<typeof call>[3] = {}) => [
      ...reads.map((path) => () => req(path, undefined, { cookie, ...extra })),
      ...writes.map(
        ([path, body]) =>
          () =>
            req(path, body, { cookie, ...extra }),
      ),
    ];

    it("refuses visitors (401)", async () => {
      for (const attempt of attempts()) {
        const res = await attempt();
        expect(res.status).toBe(401);
        expect((await res.json()).error.code).toBe("UNAUTHENTICATED");
      }
    });

    it("refuses every demo account but owner@ (403), app-admin and business@ included", async () => {
      for (const who of DEMO_ACCOUNTS.filter((a) => a !== "owner")) {
        for (const attempt of attempts(cookies[who])) {
          const res = await attempt();
          expect(res.status, who).toBe(403);
          expect((await res.json()).error.code).toBe("FORBIDDEN");
        }
      }
      for (const path of reads) expect((await asOwner(path)).status, path).toBe(200);
    });

    it("refuses API keys (403) and writes from another site (403), and writes nothing", async () => {
      for (const attempt of attempts(undefined, { headers: { "x-api-key": apiKey }, origin: null })) {
        expect((await attempt()).status).toBe(403);
      }
      for (const [path, body] of writes) {
        const res = await req(path, body, { cookie: cookies.owner, origin: "https://evil.example" });
        expect(res.status, path).toBe(403);
        expect((await res.json()).error.code).toBe("FORBIDDEN_ORIGIN");
      }
      // No Origin at all (nor Referer) on a cookie write is refused too.
      const bare = await req(writes[0]![0], {}, { cookie: cookies.owner, origin: null });
      expect(bare.status).toBe(403);
      for (const action of ["admin_session_revoked", "admin_lockout_cleared", "service_credential_rotated"]) {
        expect(await audit(action), action).toHaveLength(0);
      }
    });

    it("answers 400 naming the field for bad bodies and queries, 404 for unknown ids", async () => {
      const badKey = await asOwner("/api/admin/security/lockouts/clear", { key: "nope" });
      expect(badKey.status).toBe(400);
      expect((await badKey.json()).error.field).toHaveProperty("key");
      const extra = await asOwner("/api/admin/security/lockouts/clear", { key: "ip:1.2.3.4", role: "x" });
      expect(extra.status).toBe(400);
      const longNote = await asOwner("/api/admin/security/users/x/sessions/revoke", {
        note: "n".repeat(501),
      });
      expect(longNote.status).toBe(400);
      expect((await longNote.json()).error.field).toHaveProperty("note");
      const badPage = await asOwner("/api/admin/security/sessions?page=0");
      expect(badPage.status).toBe(400);
      expect((await badPage.json()).error.field).toHaveProperty("page");
      const notJson = await asOwner("/api/admin/security/sessions/x/revoke", "{not json");
      expect(notJson.status).toBe(400);
      expect((await asOwner("/api/admin/security/sessions/no-such-session/revoke", {})).status).toBe(404);
      expect((await asOwner("/api/admin/security/users/no-such-user/sessions/revoke", {})).status).toBe(404);
      expect((await asOwner("/api/admin/service-credentials/no-such-id/rotate", {})).status).toBe(404);
      const noLock = await asOwner("/api/admin/security/lockouts/clear", {
        key: "name:nobody-ever@example.test",
      });
      expect(noLock.status).toBe(404);
    });
  });

  describe("sessions", () => {
    it("lists active sessions with their user, filters by e-mail, and a revoked cookie is signed out at once on every process", async () => {
      // A second app process on the same database: revocation reaches it on its next request.
      const second = await startTestServer(dialect, {}, { shareWith: server });
      const onSecond = async (cookie: string) =>
        (await call(second.url, "/api/account/me", undefined, { cookie })).status;
      try {
        const account = await createConfirmedAccount(server.url, server.dataDir, "sess");
        const first = await signInCookie(server.url, account.email, account.password);
        const secondCookie = await signInCookie(server.url, account.email, account.password);
        expect(await signedIn(first)).toBe(200);
        expect(await signedIn(secondCookie)).toBe(200);
        expect(await onSecond(first)).toBe(200);

        const all = (await (await asOwner("/api/admin/security/sessions")).json()) as SessionsPage;
        expect(all.total).toBeGreaterThanOrEqual(DEMO_ACCOUNTS.length + 2);
        expect(all.items.some((s) => s.user.email === "free@demo.local")).toBe(true);

        const res = await asOwner(
          `/api/admin/security/sessions?email=${encodeURIComponent(account.email.toUpperCase())}`,
        );
        expect(res.status).toBe(200);
        const mine = (await res.json()) as SessionsPage;
        expect(mine.total).toBe(2);
        expect(mine.items).toHaveLength(2);
        for (const s of mine.items) {
          expect(s.user.email).toBe(account.email);
          expect(Date.parse(s.expiresAt)).toBeGreaterThan(Date.now());
          expect(s.device).toBeTruthy();
          expect(s).not.toHaveProperty("token");
        }
        expect(mine.items.every((s) => !s.current)).toBe(true);
        const owners = (await (
          await asOwner("/api/admin/security/sessions?email=owner%40demo.local")
        ).json()) as SessionsPage;
        expect(owners.items.filter((s) => s.current)).toHaveLength(1);
        // A LIKE wildcard in the filter is taken literally.
        const wild = (await (await asOwner("/api/admin/security/sessions?email=%25")).json()) as SessionsPage;
        expect(wild.total).toBe(0);

        const revoke = await asOwner(`/api/admin/security/sessions/${mine.items[0]!.id}/revoke`, {
          note: "lost laptop",
        });
        expect(revoke.status).toBe(200);
        const statuses = [await signedIn(first), await signedIn(secondCookie)].sort();
        expect(statuses).toEqual([200, 401]);
        // The other process answers the same for each cookie.
        expect([await onSecond(first), await onSecond(secondCookie)]).toEqual([
          await signedIn(first),
          await signedIn(secondCookie),
        ]);
        const row = (await audit("admin_session_revoked"))[0]!;
        expect(row.actorId).toBe(await userId("owner@demo.local"));
        expect(row.targetId).toBe(await userId(account.email));
        expect(JSON.parse(String(row.details))).toMatchObject({
          scope: "one",
          note: "lost laptop",
          sessionId: mine.items[0]!.id,
        });

        const all2 = await asOwner(
          `/api/admin/security/users/${await userId(account.email)}/sessions/revoke`,
          {},
        );
        expect(all2.status).toBe(200);
        expect(await all2.json()).toMatchObject({ revoked: 1 });
        expect(await signedIn(first)).toBe(401);
        expect(await signedIn(secondCookie)).toBe(401);
        expect(await onSecond(first)).toBe(401);
        const after = (await (
          await asOwner(`/api/admin/security/sessions?email=${encodeURIComponent(account.email)}`)
        ).json()) as SessionsPage;
        expect(after.total).toBe(0);
        const allRow = (await audit("admin_session_revoked"))[0]!;
        expect(JSON.parse(String(allRow.details))).toMatchObject({ scope: "all", count: 1 });
      } finally {
        await second.close();
      }
    });
  });

  describe("lockouts", () => {
    it("lists locks from failed sign-ins with their account and clears them (audited)", async () => {
      const account = await createConfirmedAccount(server.url, server.dataDir, "locked");
      const unknown = `nobody-${Date.now()}@example.test`;
      for (let i = 0; i < 5; i++) {
        expect(
          (await req("/api/auth/sign-in/email", { email: account.email, password: "Wrong-Passw0rd!" }))
            .status,
        ).toBe(401);
        expect(
          (await req("/api/auth/sign-in/email", { email: unknown, password: "Wrong-Passw0rd!" })).status,
        ).toBe(401);
      }
      expect(
        (await req("/api/auth/sign-in/email", { email: account.email, password: account.password })).status,
      ).toBe(429);

      const list = (await (await asOwner("/api/admin/security/lockouts")).json()) as Lockout[];
      const id = await userId(account.email);
      const acct = list.find((l) => l.key === `acct:${id}`);
      expect(acct).toMatchObject({
        kind: "account",
        subject: account.email,
        user: { id, email: account.email },
        limit: 5,
      });
      expect(Date.parse(acct!.lockedUntil)).toBeGreaterThan(Date.now());
      const name = list.find((l) => l.key === `name:email:${unknown}`);
      expect(name).toMatchObject({ kind: "login name", subject: unknown, user: null });
      const overview = (await (await asOwner("/api/admin/security")).json()) as SecurityOverview;
      expect(overview.lockouts).toBe(list.length);
      expect(overview.events.some((e) => e.action === "lockout")).toBe(true);
      expect(
        overview.events.some((e) => e.action === "sign_in_failure" && e.summary === "no such account"),
      ).toBe(true);

      const clearAcct = await asOwner("/api/admin/security/lockouts/clear", {
        key: acct!.key,
        note: "called support",
      });
      expect(clearAcct.status).toBe(200);
      expect(
        (await req("/api/auth/sign-in/email", { email: account.email, password: account.password })).status,
      ).toBe(200);
      const unlockRow = (await audit("admin_unlock"))[0]!;
      expect(unlockRow).toMatchObject({ actorId: await userId("owner@demo.local"), targetId: id });
      expect(JSON.parse(String(unlockRow.details))).toMatchObject({
        wasLocked: true,
        note: "called support",
      });

      const clearName = await asOwner("/api/admin/security/lockouts/clear", { key: name!.key });
      expect(clearName.status).toBe(200);
      const cleared = (await audit("admin_lockout_cleared"))[0]!;
      expect(cleared).toMatchObject({ actorId: await userId("owner@demo.local"), targetId: name!.key });
      const remaining = (await (await asOwner("/api/admin/security/lockouts")).json()) as Lockout[];
      expect(remaining.map((l) => l.key)).not.toContain(name!.key);
      expect(remaining.map((l) => l.key)).not.toContain(acct!.key);

      // The address counter (10 failures here, 20 lock it) is a key too: clearing it resets it.
      const ipRow = await db()
        .selectFrom("login_throttle")
        .select("key")
        .where("key", "like", "ip:%")
        .executeTakeFirst();
      expect(ipRow).toBeDefined();
      expect((await asOwner("/api/admin/security/lockouts/clear", { key: ipRow!.key })).status).toBe(200);
      expect(
        await db().selectFrom("login_throttle").select("key").where("key", "=", ipRow!.key).execute(),
      ).toHaveLength(0);
    });
  });

  describe("MFA adoption", () => {
    it("equals the stored state and lists staff without a second factor by name", async () => {
      const users = await db().selectFrom("user").select(["id", "isActive", "twoFactorEnabled"]).execute();
      const active = users.filter((u) => toBool(u.isActive as never));
      const expected = {
        accounts: active.length,
        withMfa: active.filter((u) => toBool(u.twoFactorEnabled as never)).length,
      };
      const first = (await (await asOwner("/api/admin/security")).json()) as SecurityOverview;
      expect(first.mfa).toMatchObject(expected);
      expect(first.mfa.percent).toBe(Math.round((expected.withMfa / expected.accounts) * 100));
      // The seeded staff (owner, admin, manager, writer, business) all enrolled an authenticator app.
      expect(first.mfa.staff.total).toBeGreaterThanOrEqual(5);
      for (const email of ["owner@demo.local", "admin@demo.local", "writer@demo.local"]) {
        expect(first.mfa.staff.withoutMfa.map((s) => s.email)).not.toContain(email);
      }

      // A new writer without MFA shows up by name; the share of accounts goes down.
      const account = await createConfirmedAccount(server.url, server.dataDir, "nomfa");
      await db()
        .insertInto("user_group")
        .values({
          userId: await userId(account.email),
          groupName: "ContentCreator",
          createdAt: new Date().toISOString(),
        })
        .execute();
      const second = (await (await asOwner("/api/admin/security")).json()) as SecurityOverview;
      expect(second.mfa.accounts).toBe(expected.accounts + 1);
      expect(second.mfa.withMfa).toBe(expected.withMfa);
      expect(second.mfa.staff.total).toBe(first.mfa.staff.total + 1);
      expect(second.mfa.staff.withoutMfa.find((s) => s.email === account.email)).toMatchObject({
        name: account.name,
        groups: ["ContentCreator"],
      });
      expect(second.policy).toMatchObject({
        minLength: 8,
        lockout: { accountAttempts: 5, lockoutMinutes: 5 },
      });
      expect(second.policy.commonPasswords).toBeGreaterThan(10_000);
    });
  });

  describe("service credentials", () => {
    const exchange = (clientId: string, clientSecret: string) =>
      req(
        "/api/auth/service-token",
        { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
        { origin: null },
      );

    it("rotate: the old secret and its tokens are refused, the new secret works; audited", async () => {
      const created = await asOwner("/api/admin/service-credentials", {
        name: "Rotating",
        scopes: ["content:read"],
      });
      expect(created.status).toBe(201);
      const cred = (await created.json()) as { id: string; clientId: string; clientSecret: string };
      const oldToken = await exchange(cred.clientId, cred.clientSecret);
      expect(oldToken.status).toBe(200);
      const { access_token } = (await oldToken.json()) as { access_token: string };
      const useToken = (token: string) =>
        fetch(`${server.url}/api/content`, { headers: { authorization: `Bearer ${token}` } });
      expect((await useToken(access_token)).status).toBe(200);
      // Tokens carry whole seconds: rotate in a later second than the old token was issued.
      await new Promise((r) => setTimeout(r, 1100));

      // app-admin may create and revoke credentials, but rotating is the owner's.
      expect(
        (await req(`/api/admin/service-credentials/${cred.id}/rotate`, {}, { cookie: cookies.admin })).status,
      ).toBe(403);
      const rotated = await asOwner(`/api/admin/service-credentials/${cred.id}/rotate`, {});
      expect(rotated.status).toBe(200);
      expect(rotated.headers.get("cache-control")).toContain("no-store");
      const fresh = (await rotated.json()) as { clientId: string; clientSecret: string; rotatedAt: string };
      expect(fresh.clientId).toBe(cred.clientId);
      expect(fresh.clientSecret).not.toBe(cred.clientSecret);
      expect(fresh.rotatedAt).toBeTruthy();

      expect((await exchange(cred.clientId, cred.clientSecret)).status).toBe(401);
      expect((await useToken(access_token)).status).toBe(401);
      const newToken = await exchange(cred.clientId, fresh.clientSecret);
      expect(newToken.status).toBe(200);
      expect(
        (await useToken(((await newToken.json()) as { access_token: string }).access_token)).status,
      ).toBe(200);

      const row = (await audit("service_credential_rotated"))[0]!;
      expect(row).toMatchObject({ actorId: await userId("owner@demo.local"), targetId: cred.id });
      expect(String(row.details)).not.toContain(fresh.clientSecret);

      const list = (await (await asOwner("/api/admin/security/credentials")).json()) as {
        id: string;
        createdByEmail: string | null;
        rotatedAt: string | null;
      }[];
      expect(list.find((c) => c.id === cred.id)).toMatchObject({ createdByEmail: "owner@demo.local" });
      expect(JSON.stringify(list)).not.toContain(fresh.clientSecret);

      // Revoked credentials cannot be rotated back to life.
      expect(
        (
          await req(`/api/admin/service-credentials/${cred.id}`, undefined, {
            cookie: cookies.owner,
            method: "DELETE",
          })
        ).status,
      ).toBe(204);
      expect((await asOwner(`/api/admin/service-credentials/${cred.id}/rotate`, {})).status).toBe(404);
      expect((await exchange(cred.clientId, fresh.clientSecret)).status).toBe(401);
    });
  });

  it("the console's form shows a refused credential name next to the form (400 from the service, not an error page)", async () => {
    const form = (body: Record<string, string>) =>
      fetch(`${server.url}/super-admin/security`, {
        method: "POST",
        headers: {
          cookie: cookies.owner!,
          origin: server.url,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(body).toString(),
        redirect: "manual",
      });
    const before = (await audit("service_credential_created")).length;
    const refused = await form({ intent: "create-credential", name: "   ", scopes: "content:read" });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain("a name is required");
    expect(await audit("service_credential_created")).toHaveLength(before);
  });
});
