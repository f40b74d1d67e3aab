/**
 * Users admin REST API (issue 14, /admin/users): who may use it (visitor + every demo account +
 * an API key + a foreign Origin), business@ limited to Acme, search / filters / sort / paging,
 * the user page (lockout and why), every action with its audit row, the group-grant rules of §6,
 * suspend (sign-in refused, the session and API key dead at once) and reinstate, delete with its
 * data (content kept, author cleared).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import type { AdminUserDetail, AdminUserPage } from "../../server/modules/users-admin/users-admin.types.ts";
import { call, createConfirmedAccount, STRONG_PASSWORD, signInCookie } from "../helpers/auth.ts";
import { expectConsoleError } from "../helpers/console-guard.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/users";
const ACCOUNTS = ["free", "basic", "pro", "enterprise", "business", "manager", "admin", "owner", "writer"];

describe.each(DIALECTS)("admin users API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const ids: Record<string, string> = {};
  let apiKey = "";

  const req = (path: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, body, opts);
  const as = (who: string) => (path: string, body?: unknown) => req(path, body, { cookie: cookies[who] });
  const asAdmin = as("admin");
  const db = () => server.runtime.database.db;
  const audit = (action: string, targetId: string) =>
    db()
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", action)
      .where("targetId", "=", targetId)
      .execute();
  const list = async (who: string, query: string) => {
    const res = await as(who)(`${API}?${query}`);
    expect(res.status, query).toBe(200);
    return (await res.json()) as AdminUserPage;
  };
  const detail = async (who: string, id: string) => {
    const res = await as(who)(`${API}/${id}`);
    expect(res.status).toBe(200);
    return (await res.json()) as AdminUserDetail;
  };
  /** A confirmed reader (optionally an Acme member): e-mail, id. */
  const reader = async (prefix: string, acme = false) => {
    const account = await createConfirmedAccount(server.url, server.dataDir, prefix);
    const row = await db()
      .selectFrom("user")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    if (acme) {
      await db()
        .insertInto("user_group")
        .values({ userId: row.id, groupName: "org-acme", createdAt: new Date().toISOString() })
        .execute();
    }
    return { ...account, id: row.id };
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const who of ACCOUNTS) {
      cookies[who] = await signInCookie(server.url, `${who}@demo.local`, DEMO_PASSWORD);
      const row = await db()
        .selectFrom("user")
        .select("id")
        .where("email", "=", `${who}@demo.local`)
        .executeTakeFirstOrThrow();
      ids[who] = row.id;
    }
    const key = await req(
      "/api/account/api-keys",
      { name: "CI", scopes: ["content:read"] },
      { cookie: cookies.admin },
    );
    expect(key.status).toBe(201);
    apiKey = ((await key.json()) as { key: string }).key;
  }, 240_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("unauthorized access", () => {
    const attempts = (target: string, cookie?: string, headers?: Record<string, string>) => [
      () => req(API, undefined, { cookie, headers }),
      () => req(`${API}/${target}`, undefined, { cookie, headers }),
      () => req(`${API}/${target}/groups`, { add: ["individual-pro"] }, { cookie, headers }),
      () => req(`${API}/${target}/sessions/revoke-all`, {}, { cookie, headers }),
      () => req(`${API}/${target}/sessions/x/revoke`, {}, { cookie, headers }),
      () => req(`${API}/${target}/mfa/reset`, {}, { cookie, headers }),
      () => req(`${API}/${target}/api-keys/x/revoke`, {}, { cookie, headers }),
      () => req(`${API}/${target}/suspend`, {}, { cookie, headers }),
      () => req(`${API}/${target}/reinstate`, {}, { cookie, headers }),
      () => req(`${API}/${target}/delete`, { confirm: "free@demo.local" }, { cookie, headers }),
      () => req(`${API}/${target}/unlock`, {}, { cookie, headers }),
    ];

    it("refuses visitors (401)", async () => {
      for (const attempt of attempts(ids.free!)) {
        const res = await attempt();
        expect(res.status).toBe(401);
      }
    });

    it("refuses readers, the content manager and the writer (403)", async () => {
      for (const who of ["free", "basic", "pro", "enterprise", "manager", "writer"]) {
        for (const attempt of attempts(ids.basic!, cookies[who])) {
          const res = await attempt();
          expect(res.status, who).toBe(403);
          expect((await res.json()).error.code).toBe("FORBIDDEN");
        }
      }
    });

    it("refuses API keys (403) and writes from another site (403)", async () => {
      for (const attempt of attempts(ids.free!, undefined, { "x-api-key": apiKey })) {
        expect((await attempt()).status).toBe(403);
      }
      const foreign = await req(
        `${API}/${ids.free}/suspend`,
        {},
        { cookie: cookies.admin, origin: "https://evil.example" },
      );
      expect(foreign.status).toBe(403);
      const noOrigin = await req(`${API}/${ids.free}/suspend`, {}, { cookie: cookies.admin, origin: null });
      expect(noOrigin.status).toBe(403);
      expect(await audit("user_suspended", ids.free!)).toHaveLength(0);
      const free = await db()
        .selectFrom("user")
        .select("isActive")
        .where("id", "=", ids.free!)
        .executeTakeFirstOrThrow();
      expect(Boolean(free.isActive)).toBe(true);
    });

    it("lets business@ see and act only on Acme's members (others 404; delete 403)", async () => {
      const member = await reader("acmemember", true);
      const page = await list("business", "limit=100");
      const emails = page.items.map((i) => i.email);
      expect(emails).toContain(member.email);
      expect(emails).toContain("business@demo.local");
      expect(emails).not.toContain("free@demo.local");
      expect(emails).not.toContain("admin@demo.local");
      for (const item of page.items) expect(item.organisations).toContain("acme");
      expect(page.total).toBe(page.items.length);
      // The search and filters stay inside Acme.
      expect((await list("business", "q=free")).total).toBe(0);
      const outside = await as("business")(`${API}?organisation=globex`);
      expect(outside.status).toBe(400);

      for (const attempt of attempts(ids.free!, cookies.business).slice(1, 9)) {
        const res = await attempt();
        expect(res.status).toBe(404);
        expect((await res.json()).error.message).toBe("No such user.");
      }
      const unlockOutside = await as("business")(`${API}/${ids.free}/unlock`, {});
      expect(unlockOutside.status).toBe(404);

      const view = await detail("business", member.id);
      expect(view.profile.email).toBe(member.email);
      expect(view.can).toMatchObject({ manage: true, delete: false, plan: false });
      expect(view.can.addGroups).toEqual(["org-acme-admin"]);
      expect((await as("business")(`${API}/${member.id}/groups`, { add: ["individual-pro"] })).status).toBe(
        403,
      );
      const promote = await as("business")(`${API}/${member.id}/groups`, {
        add: ["org-acme-admin"],
        note: "team lead",
      });
      expect(promote.status).toBe(200);
      expect(((await promote.json()) as { groups: string[] }).groups).toContain("org-acme-admin");
      const rows = await audit("user_groups_changed", member.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.actorId).toBe(ids.business);
      expect(JSON.parse(rows[0]!.details!)).toMatchObject({ added: ["org-acme-admin"], note: "team lead" });
      expect((await as("business")(`${API}/${member.id}/delete`, { confirm: member.email })).status).toBe(
        403,
      );
      // Nobody removes their own last admin group; a platform admin's account is the owner's.
      const self = await as("business")(`${API}/${ids.business}/groups`, { remove: ["org-acme-admin"] });
      expect(self.status).toBe(403);
      expect((await self.json()).error.message).toMatch(/own last administrator group/);
    });

    it("lets admin@ and owner@ in (200)", async () => {
      for (const who of ["admin", "owner"]) {
        const page = await list(who, "limit=5");
        expect(page.total).toBeGreaterThanOrEqual(9);
        expect((await detail(who, ids.free!)).profile.email).toBe("free@demo.local");
      }
    });
  });

  describe("list", () => {
    it("searches by part of the e-mail, username or name (case-insensitive prefix)", async () => {
      const fre = await list("admin", "q=FRE");
      expect(fre.items.map((i) => i.email)).toContain("free@demo.local");
      for (const i of fre.items) {
        expect([i.email, i.username ?? "", i.name].some((v) => v.toLowerCase().startsWith("fre"))).toBe(true);
      }
      const none = await list("admin", "q=zzzz-nobody");
      expect(none).toMatchObject({ items: [], total: 0 });
      const pattern = await list("admin", "q=%25");
      expect(pattern.total).toBe(0); // LIKE wildcards are plain characters
    });

    it("filters by tier (effective), group, status, organisation and MFA", async () => {
      const pro = await list("admin", "tier=pro&limit=100");
      const proEmails = pro.items.map((i) => i.email);
      expect(proEmails).toContain("pro@demo.local");
      expect(proEmails).not.toContain("free@demo.local");
      for (const i of pro.items) expect(i.tier).toBe("pro");
      const enterprise = await list("admin", "tier=enterprise&limit=100");
      expect(enterprise.items.map((i) => i.email)).toEqual(
        expect.arrayContaining(["enterprise@demo.local", "business@demo.local"]),
      );
      for (const i of enterprise.items) expect(i.tier).toBe("enterprise");
      const free = await list("admin", "tier=free&limit=100");
      for (const i of free.items) expect(i.tier).toBe("free");
      expect(free.items.map((i) => i.email)).toContain("free@demo.local");

      const admins = await list("admin", "group=app-admin");
      expect(admins.items.map((i) => i.email)).toEqual(["admin@demo.local"]);
      const managers = await list("admin", "group=ContentManager");
      expect(managers.items.map((i) => i.email)).toEqual(["manager@demo.local"]);
      const orgAdmins = await list("admin", "group=org-admin&limit=100");
      expect(orgAdmins.items.map((i) => i.email)).toContain("business@demo.local");
      for (const i of orgAdmins.items) expect(i.groups.some((g) => /^org-.+-admin$/.test(g))).toBe(true);

      const acme = await list("admin", "organisation=acme&limit=100");
      for (const i of acme.items) expect(i.organisations).toContain("acme");
      expect(acme.items.map((i) => i.email)).toContain("business@demo.local");

      const mfaOn = await list("admin", "mfa=on&limit=100");
      expect(mfaOn.items.map((i) => i.email)).toEqual(
        expect.arrayContaining(["admin@demo.local", "owner@demo.local"]),
      );
      for (const i of mfaOn.items) expect(i.mfa).toBe(true);
      const mfaOff = await list("admin", "mfa=off&limit=100");
      for (const i of mfaOff.items) expect(i.mfa).toBe(false);
      expect(mfaOn.total + mfaOff.total).toBe((await list("admin", "limit=1")).total);

      const active = await list("admin", "status=active&limit=100");
      for (const i of active.items) expect(i.status).toBe("active");
    });

    it("sorts by name, e-mail, creation and last sign-in, and pages without overlap", async () => {
      const byEmail = await list("admin", "sort=email&dir=asc&limit=100");
      const emails = byEmail.items.map((i) => i.email.toLowerCase());
      expect(emails).toEqual([...emails].sort());
      const byEmailDesc = await list("admin", "sort=email&dir=desc&limit=100");
      expect(byEmailDesc.items.map((i) => i.email.toLowerCase())).toEqual([...emails].reverse());
      const byCreated = await list("admin", "sort=created&dir=desc&limit=100");
      const created = byCreated.items.map((i) => i.createdAt);
      expect(created).toEqual([...created].sort().reverse());
      const byLogin = await list("admin", "sort=lastLogin&dir=desc&limit=100");
      const logins = byLogin.items.map((i) => i.lastLoginAt).filter((v): v is string => v !== null);
      expect(logins).toEqual([...logins].sort().reverse());
      expect(byLogin.items[0]!.lastLoginAt).not.toBeNull();

      const all = await list("admin", "sort=name&limit=100");
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(all.total / 3) + 1; page++) {
        const p = await list("admin", `sort=name&limit=3&page=${page}`);
        expect(p.total).toBe(all.total);
        if (p.items.length === 0) break;
        seen.push(...p.items.map((i) => i.id));
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(all.items.map((i) => i.id));
    });

    it("answers 400 naming the parameter for bad queries", async () => {
      for (const [query, field] of [
        ["tier=gold", "tier"],
        ["status=weird", "status"],
        ["sort=password", "sort"],
        ["page=0", "page"],
        ["limit=1000", "limit"],
        ["mfa=maybe", "mfa"],
        ["hack=1", "hack"],
      ] as const) {
        const res = await asAdmin(`${API}?${query}`);
        expect(res.status, query).toBe(400);
        expect((await res.json()).error.field).toHaveProperty(field);
      }
    });
  });

  describe("user page and actions", () => {
    it("shows a lockout with its reason, unlocks it with a note", async () => {
      const locked = await reader("locked");
      for (let i = 0; i < 5; i++) {
        await req("/api/auth/sign-in/email", { email: locked.email, password: "Wrong-Passw0rd!" });
      }
      const page = await list("admin", `q=${encodeURIComponent(locked.email.slice(0, 10))}&status=locked`);
      expect(page.items.map((i) => i.id)).toEqual([locked.id]);
      expect(page.items[0]!.status).toBe("locked");
      const view = await detail("admin", locked.id);
      expect(view.status).toBe("locked");
      expect(view.lockout.locked).toBe(true);
      expect(view.lockout.lockedUntil).not.toBeNull();
      expect(view.lockout.events.filter((e) => e.action === "sign_in_failure")).toHaveLength(5);
      expect(view.lockout.events.map((e) => e.action)).toContain("lockout");

      const unlock = await asAdmin(`${API}/${locked.id}/unlock`, { note: "called support" });
      expect(unlock.status).toBe(200);
      expect(await unlock.json()).toMatchObject({ unlocked: true });
      const rows = await audit("admin_unlock", locked.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.actorId).toBe(ids.admin);
      expect(JSON.parse(rows[0]!.details!)).toMatchObject({ wasLocked: true, note: "called support" });
      expect((await detail("admin", locked.id)).lockout.locked).toBe(false);
      expect((await asAdmin(`${API}/${locked.id}/unlock`, { note: 5 })).status).toBe(400);
      const signIn = await req("/api/auth/sign-in/email", { email: locked.email, password: STRONG_PASSWORD });
      expect(signIn.status).toBe(200);
    });

    it("applies §6 to group changes: tiers and staff by admins, app-admin by the owner only", async () => {
      const r = await reader("groups");
      const add = (who: string, body: unknown) => as(who)(`${API}/${r.id}/groups`, body);
      expect(
        (await add("admin", { add: ["ContentManager", "individual-pro"], note: "editor hire" })).status,
      ).toBe(200);
      expect((await detail("admin", r.id)).groups).toEqual(
        expect.arrayContaining(["ContentManager", "individual-pro"]),
      );
      const refused = await add("admin", { add: ["app-admin"] });
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.message).toMatch(/app-owner/);
      expect((await add("owner", { add: ["app-admin"], note: "new admin" })).status).toBe(200);
      expect((await add("admin", { remove: ["app-admin"] })).status).toBe(403);
      expect((await add("owner", { remove: ["app-admin"] })).status).toBe(200);
      expect((await add("admin", { add: ["no-such-group"] })).status).toBe(400);
      expect((await add("admin", { add: ["ContentManager"] })).status).toBe(400);
      expect((await add("admin", {})).status).toBe(400);
      expect((await add("admin", { add: ["Editor"], extra: 1 })).status).toBe(400);
      const rows = await audit("user_groups_changed", r.id);
      expect(rows.map((x) => x.actorId).sort()).toEqual([ids.admin, ids.owner, ids.owner].sort());
      // No lock-out of the platform: the last owner keeps app-owner; admin cannot remove own app-admin.
      expect((await as("owner")(`${API}/${ids.owner}/groups`, { remove: ["app-owner"] })).status).toBe(403);
      expect((await asAdmin(`${API}/${ids.admin}/groups`, { remove: ["app-admin"] })).status).toBe(403);
      // admin@ cannot suspend, reset or delete the owner's account.
      expect((await asAdmin(`${API}/${ids.owner}/suspend`, {})).status).toBe(403);
      expect((await asAdmin(`${API}/${ids.owner}/mfa/reset`, {})).status).toBe(403);
    });

    it("revokes sessions one by one and all, revokes an API key, resets MFA", async () => {
      const r = await reader("sessions");
      const c1 = await signInCookie(server.url, r.email, STRONG_PASSWORD);
      const c2 = await signInCookie(server.url, r.email, STRONG_PASSWORD);
      const me = (cookie: string) => req("/api/account/me", undefined, { cookie });
      expect((await me(c1)).status).toBe(200);
      let view = await detail("admin", r.id);
      expect(view.sessions.length).toBe(2);
      const one = await asAdmin(`${API}/${r.id}/sessions/${view.sessions[0]!.id}/revoke`, {
        note: "stolen laptop",
      });
      expect(one.status).toBe(200);
      expect((await asAdmin(`${API}/${r.id}/sessions/nope/revoke`, {})).status).toBe(404);
      view = await detail("admin", r.id);
      expect(view.sessions.length).toBe(1);
      const all = await asAdmin(`${API}/${r.id}/sessions/revoke-all`, {});
      expect(await all.json()).toEqual({ revoked: 1 });
      expect((await me(c1)).status).toBe(401);
      expect((await me(c2)).status).toBe(401);
      const rows = await audit("user_sessions_revoked", r.id);
      expect(rows).toHaveLength(2);
      expect(JSON.parse(rows.find((x) => x.details?.includes("one"))!.details!)).toMatchObject({
        note: "stolen laptop",
      });

      const c3 = await signInCookie(server.url, r.email, STRONG_PASSWORD);
      const created = await req(
        "/api/account/api-keys",
        { name: "mine", scopes: ["content:read"] },
        { cookie: c3 },
      );
      expect(created.status).toBe(201);
      const key = (await created.json()) as { id: string; key: string };
      expect(
        (await fetch(`${server.url}/api/content`, { headers: { "x-api-key": key.key } })).status,
      ).not.toBe(401);
      view = await detail("admin", r.id);
      expect(view.apiKeys.map((k) => k.id)).toContain(key.id);
      expect(JSON.stringify(view)).not.toContain(key.key);
      expect((await asAdmin(`${API}/${r.id}/api-keys/${key.id}/revoke`, { note: "leaked" })).status).toBe(
        200,
      );
      expect((await asAdmin(`${API}/${r.id}/api-keys/${key.id}/revoke`, {})).status).toBe(404);
      const keyRows = await audit("user_api_key_revoked", r.id);
      expect(JSON.parse(keyRows[0]!.details!)).toMatchObject({ keyId: key.id, note: "leaked" });
      const probe = await fetch(`${server.url}/api/content`, { headers: { "x-api-key": key.key } });
      expect(probe.status).toBe(401);

      // MFA reset: second factors gone, signed out, audited.
      await db().updateTable("user").set({ twoFactorEnabled: true }).where("id", "=", r.id).execute();
      expect((await detail("admin", r.id)).mfa.enabled).toBe(true);
      expect((await asAdmin(`${API}/${r.id}/mfa/reset`, { note: "lost phone" })).status).toBe(200);
      view = await detail("admin", r.id);
      expect(view.mfa).toMatchObject({ enabled: false, verifiedApp: false });
      expect(view.sessions).toHaveLength(0);
      expect((await me(c3)).status).toBe(401);
      expect(JSON.parse((await audit("user_mfa_reset", r.id))[0]!.details!)).toMatchObject({
        note: "lost phone",
      });
    });

    it("suspends: sign-in refused with a clear message, the session and API key dead at once; reinstates", async () => {
      const r = await reader("suspend");
      const cookie = await signInCookie(server.url, r.email, STRONG_PASSWORD);
      const created = await req("/api/account/api-keys", { name: "k", scopes: ["content:read"] }, { cookie });
      const key = ((await created.json()) as { key: string }).key;
      expect((await fetch(`${server.url}/api/content`, { headers: { "x-api-key": key } })).status).toBe(200);

      expect((await asAdmin(`${API}/${r.id}/suspend`, { note: "spam" })).status).toBe(200);
      expect((await req("/api/account/me", undefined, { cookie })).status).toBe(401);
      expect((await fetch(`${server.url}/api/content`, { headers: { "x-api-key": key } })).status).toBe(401);
      const signIn = await req("/api/auth/sign-in/email", { email: r.email, password: STRONG_PASSWORD });
      expect(signIn.status).toBe(403);
      const body = await signIn.json();
      expect(JSON.stringify(body)).toMatch(/suspended/);
      // Whatever cookie the refused sign-in carried signs nobody in.
      const leftover = signIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      expect((await req("/api/account/me", undefined, { cookie: leftover })).status).toBe(401);
      const wrong = await req("/api/auth/sign-in/email", { email: r.email, password: "Wrong-Passw0rd!" });
      expect(wrong.status).toBe(401); // a guesser learns nothing
      expect((await detail("admin", r.id)).status).toBe("suspended");
      expect((await list("admin", "status=suspended&limit=100")).items.map((i) => i.id)).toContain(r.id);
      expect(JSON.parse((await audit("user_suspended", r.id))[0]!.details!)).toMatchObject({ note: "spam" });
      expect((await asAdmin(`${API}/${ids.admin}/suspend`, {})).status).toBe(403);

      expect((await asAdmin(`${API}/${r.id}/reinstate`, { note: "appeal" })).status).toBe(200);
      expect((await audit("user_reinstated", r.id))[0]!.actorId).toBe(ids.admin);
      const again = await req("/api/auth/sign-in/email", { email: r.email, password: STRONG_PASSWORD });
      expect(again.status).toBe(200);
    });

    it("runs the user page's forms: Origin checked, the same rules as the API", async () => {
      const r = await reader("form");
      const form = (who: string, origin: string, body: Record<string, string>) =>
        fetch(`${server.url}/admin/users/${r.id}`, {
          method: "POST",
          headers: { cookie: cookies[who]!, origin, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(body).toString(),
          redirect: "manual",
        });
      expectConsoleError(/origin does not match/);
      const foreign = await form("admin", "https://evil.example", { intent: "suspend", note: "x" });
      // Refused before the action runs (React Router's own cross-site check, or ours).
      expect([400, 403]).toContain(foreign.status);
      expect(await audit("user_suspended", r.id)).toHaveLength(0);
      const outside = await form("business", server.url, { intent: "suspend" });
      expect(outside.status).toBe(404);
      const ok = await form("admin", server.url, { intent: "suspend", note: "from the page" });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("Suspended: sign-in is refused");
      const rows = await audit("user_suspended", r.id);
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.details!)).toMatchObject({ note: "from the page" });
      const refused = await form("admin", server.url, { intent: "add-group", group: "app-admin" });
      expect(await refused.text()).toContain("Only the platform owner (app-owner)");
      const plan = await form("admin", server.url, {
        intent: "grant-plan",
        email: r.email,
        planId: "pro",
        days: "30",
        note: "",
      });
      expect(await plan.text()).toContain("a note is required");
    });

    it("deletes a user with their data, keeps their content without an author; never self or the last owner", async () => {
      const r = await reader("delete");
      const cookie = await signInCookie(server.url, r.email, STRONG_PASSWORD);
      expect(cookie).not.toBe("");
      const contentId = `c-${r.id}`;
      await db()
        .insertInto("content")
        .values({
          id: contentId,
          title: "Kept",
          slug: `kept-${r.id}`,
          authorId: r.id,
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
          createdEpoch: Date.now(),
          updatedEpoch: Date.now(),
        } as never)
        .execute();
      const wrong = await asAdmin(`${API}/${r.id}/delete`, { confirm: "someone@else" });
      expect(wrong.status).toBe(400);
      expect((await wrong.json()).error.field).toHaveProperty("confirm");
      expect((await asAdmin(`${API}/${ids.admin}/delete`, { confirm: "admin@demo.local" })).status).toBe(403);
      expect((await as("owner")(`${API}/${ids.owner}/delete`, { confirm: "owner@demo.local" })).status).toBe(
        403,
      );
      const res = await asAdmin(`${API}/${r.id}/delete`, {
        confirm: r.email.toUpperCase(),
        note: "GDPR request",
      });
      expect(res.status).toBe(200);
      expect(
        await db().selectFrom("user").select("id").where("id", "=", r.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(await db().selectFrom("session").select("id").where("userId", "=", r.id).execute()).toHaveLength(
        0,
      );
      expect(
        await db().selectFrom("user_group").select("userId").where("userId", "=", r.id).execute(),
      ).toHaveLength(0);
      const kept = await db()
        .selectFrom("content")
        .select(["id", "authorId"])
        .where("id", "=", contentId)
        .executeTakeFirst();
      expect(kept).toEqual({ id: contentId, authorId: null });
      const rows = await audit("user_deleted", r.id);
      expect(rows[0]!.actorId).toBe(ids.admin);
      expect(JSON.parse(rows[0]!.details!)).toMatchObject({ email: r.email, note: "GDPR request" });
      expect((await asAdmin(`${API}/${r.id}`)).status).toBe(404);
      await db().deleteFrom("content").where("id", "=", contentId).execute();
    });
  });
});
