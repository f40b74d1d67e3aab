import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import {
  call,
  cookiesOf,
  createConfirmedAccount,
  latestCode,
  signInCookie,
  TestClock,
} from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;

describe.each(DIALECTS)("sessions (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const check = (cookie: string, headers: Record<string, string> = {}) =>
    call(server.url, "/api/account/security-check", undefined, { cookie, headers });
  const activity = (cookie: string) => call(server.url, "/api/account/activity", {}, { cookie });

  it("the security check answers the contract; without a session it is 401 no-session", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "chk");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const res = await check(cookie);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.ok).toBe(true);
    expect(["low", "medium", "high"]).toContain(body.level);
    expect(Object.keys(body.session).sort()).toEqual([
      "createdAt",
      "expiresAt",
      "id",
      "lastActiveAt",
      "rotatedAt",
    ]);
    expect(Date.parse(body.session.expiresAt) - Date.parse(body.session.createdAt)).toBe(24 * HOUR);
    expect(JSON.stringify(body)).not.toContain(cookie.split("=")[1]!.split(".")[0]!);

    const none = await call(server.url, "/api/account/security-check");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ ok: false, reason: "no-session" });
    const forged = await check("lumen.session_token=abc.def");
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ ok: false, reason: "no-session" });
  });

  it("idle time-out after 30 minutes without activity; activity restarts the idle clock", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "idle");
    const cookie = await signInCookie(server.url, account.email, account.password);
    clock.advance(20 * MIN);
    expect((await activity(cookie)).status).toBe(204);
    clock.advance(25 * MIN);
    // 45 min since sign-in, 25 since the last activity; the check itself is not activity.
    expect((await check(cookie)).status).toBe(200);
    clock.advance(6 * MIN);
    const res = await check(cookie);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ ok: false, reason: "idle-timeout" });
    // The session is gone everywhere, Better Auth's own endpoints included.
    expect((await check(cookie)).status).toBe(401);
    const session = await call(server.url, "/api/auth/get-session", undefined, { cookie });
    expect(await session.json()).toBeNull();
    // A page answers as a visitor.
    const page = await call(server.url, "/dashboard", undefined, { cookie });
    expect(page.status).toBeLessThan(500);
    expect(page.url).not.toContain("/dashboard");
  });

  it("absolute time-out 24 h after sign-in even with constant activity; rotation every 6 h kills the old token", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "abs");
    let cookie = await signInCookie(server.url, account.email, account.password);
    const firstCookie = cookie;
    let rotations = 0;
    for (let elapsed = 0; elapsed < 24 * HOUR - 25 * MIN; elapsed += 25 * MIN) {
      clock.advance(25 * MIN);
      const res = await activity(cookie);
      expect(res.status, `after ${elapsed / MIN} min`).toBe(204);
      const next = cookiesOf(res);
      if (next) {
        rotations += 1;
        const old = cookie;
        cookie = next;
        // The old token stopped working.
        const dead = await check(old);
        expect(dead.status).toBe(401);
        expect(await dead.json()).toEqual({ ok: false, reason: "no-session" });
      }
    }
    expect(rotations).toBe(3);
    expect(cookie).not.toBe(firstCookie);
    clock.advance(25 * MIN);
    const res = await check(cookie);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ ok: false, reason: "absolute-timeout" });
  });

  it("the security check rotates a 6-hour-old token and sets the new cookie", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "rot");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const before = await (await check(cookie)).json();
    for (let i = 0; i < 14; i++) {
      clock.advance(25 * MIN);
      expect(cookiesOf(await activity(cookie))).toBe(""); // not yet due
    }
    clock.advance(15 * MIN); // 6 h 5 min after sign-in
    const res = await check(cookie);
    expect(res.status).toBe(200);
    const fresh = cookiesOf(res);
    expect(fresh).toMatch(/^lumen\.session_token=/);
    const setCookie = res.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const body = await res.json();
    expect(body.session.createdAt).toBe(before.session.createdAt);
    expect(Date.parse(body.session.rotatedAt)).toBeGreaterThan(Date.parse(before.session.rotatedAt));
    expect((await check(cookie)).status).toBe(401);
    expect((await check(fresh)).status).toBe(200);
  });

  it("a different device (user agent) revokes the session and records device_mismatch", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "dev");
    const ua = { "user-agent": "Mozilla/5.0 TestBrowser/1.0", "accept-language": "en-GB" };
    const cookie = await signInCookie(server.url, account.email, account.password, ua);
    expect((await check(cookie, ua)).status).toBe(200);
    const other = await check(cookie, { ...ua, "user-agent": "curl/8.0" });
    expect(other.status).toBe(401);
    expect(await other.json()).toEqual({ ok: false, reason: "device-mismatch" });
    expect((await check(cookie, ua)).status).toBe(401);
    const user = await server.runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    const rows = await server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "device_mismatch")
      .where("actorId", "=", user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ip).toBe("127.0.0.1");
  });

  it("lists own sessions without tokens, revokes one, and signs out everywhere", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "list");
    const a = await signInCookie(server.url, account.email, account.password);
    const b = await signInCookie(server.url, account.email, account.password);
    const other = await signInCookie(server.url, "pro@demo.local", DEMO_PASSWORD);
    const res = await call(server.url, "/api/account/sessions", undefined, { cookie: a });
    expect(res.status).toBe(200);
    const list = await res.json();
    expect(list).toHaveLength(2);
    for (const s of list) {
      expect(Object.keys(s).sort()).toEqual([
        "createdAt",
        "current",
        "id",
        "ipAddress",
        "lastActiveAt",
        "userAgent",
      ]);
    }
    expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const text = JSON.stringify(list);
    for (const c of [a, b]) expect(text).not.toContain(c.split("=")[1]!.split(".")[0]!);

    // Better Auth's list-sessions (which returns tokens) is disabled.
    const baList = await call(server.url, "/api/auth/list-sessions", undefined, { cookie: a });
    expect(baList.status).toBe(404);

    const otherList = await (
      await call(server.url, "/api/account/sessions", undefined, { cookie: other })
    ).json();
    const notMine = await call(
      server.url,
      `/api/account/sessions/${otherList[0].id}`,
      {},
      { cookie: a, method: "DELETE" },
    );
    expect(notMine.status).toBe(404);
    expect((await check(other)).status).toBe(200);

    const bId = list.find((s: { current: boolean }) => !s.current).id;
    const del = await call(server.url, `/api/account/sessions/${bId}`, {}, { cookie: a, method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await check(b)).status).toBe(401);
    expect((await check(a)).status).toBe(200);

    const c = await signInCookie(server.url, account.email, account.password);
    const all = await call(server.url, "/api/account/sessions/revoke-all", {}, { cookie: a });
    expect(all.status).toBe(204);
    expect(all.headers.getSetCookie().join("")).toMatch(/Max-Age=0/);
    expect((await check(a)).status).toBe(401);
    expect((await check(c)).status).toBe(401);
    expect((await check(other)).status).toBe(200);
  });

  it("change password needs the current one and a recent sign-in, and revokes the other sessions", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "chg");
    const a = await signInCookie(server.url, account.email, account.password);
    const b = await signInCookie(server.url, account.email, account.password);
    const wrong = await call(
      server.url,
      "/api/auth/change-password",
      { currentPassword: "Not-The-Passw0rd!", newPassword: "Changed-Passw0rd!" },
      { cookie: a },
    );
    expect(wrong.status).toBe(400);
    const weak = await call(
      server.url,
      "/api/auth/change-password",
      { newPassword: "Changed-Passw0rd!" },
      { cookie: a },
    );
    expect(weak.status).toBe(400);

    const ok = await call(
      server.url,
      "/api/auth/change-password",
      { currentPassword: account.password, newPassword: "Changed-Passw0rd!" },
      { cookie: a },
    );
    expect(ok.status).toBe(200);
    expect((await ok.json()).token ?? null).toBeNull();
    const current = cookiesOf(ok);
    expect((await check(b)).status).toBe(401);
    expect((await check(current)).status).toBe(200);

    // 16 minutes later (still active), a change needs a fresh sign-in.
    clock.advance(10 * MIN);
    await activity(current);
    clock.advance(6 * MIN);
    const stale = await call(
      server.url,
      "/api/auth/change-password",
      { currentPassword: "Changed-Passw0rd!", newPassword: "Again-Passw0rd!" },
      { cookie: current },
    );
    expect(stale.status).toBe(403);
    expect((await stale.json()).code).toBe("SESSION_NOT_FRESH");
    const audit = await server.runtime.database.db
      .selectFrom("audit_log")
      .select("action")
      .where("action", "=", "password_change")
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(1);
  });

  it("sign-out ends the session; audit rows carry UTC time, actor and address but no secrets", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "audit");
    const cookie = await signInCookie(server.url, account.email, account.password);
    await call(server.url, "/api/auth/sign-in/email", { email: account.email, password: "Wrong-Passw0rd!" });
    const out = await call(server.url, "/api/auth/sign-out", {}, { cookie });
    expect(out.status).toBe(200);
    expect((await check(cookie)).status).toBe(401);

    const db = server.runtime.database.db;
    const user = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    const rows = await db.selectFrom("audit_log").selectAll().where("actorId", "=", user.id).execute();
    const actions = new Set(rows.map((r) => r.action));
    for (const action of ["sign_up", "sign_in", "sign_in_failure", "sign_out"])
      expect(actions).toContain(action);
    for (const r of rows) expect(r.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const all = JSON.stringify(await db.selectFrom("audit_log").selectAll().execute());
    const hashes = (await db.selectFrom("account").select("password").execute())
      .map((r) => r.password)
      .filter(Boolean);
    const tokens = (await db.selectFrom("session").select("token").execute()).map((r) => r.token);
    const code = await latestCode(server.dataDir, account.email);
    for (const secret of [...hashes, ...tokens, account.password, "Wrong-Passw0rd!", DEMO_PASSWORD, code]) {
      expect(all).not.toContain(secret);
    }
    expect(all).not.toContain(cookie.split("=")[1]!.split(".")[0]!);
  });
});
