import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { call, createConfirmedAccount, signInCookie, TestClock } from "../helpers/auth.ts";
import { userIdOf } from "../helpers/orgs.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const MIN = 60_000;
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0,
  1, 8, 6, 0, 0, 0,
]);

describe.each(DIALECTS)("profile (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const req = (p: string, body?: unknown, opts: Parameters<typeof call>[3] = {}) =>
    call(server.url, p, body, opts);
  const upload = (cookie: string | undefined, bytes: Uint8Array, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/profile/avatar`, {
      method: "PUT",
      headers: { "content-type": "image/png", origin: server.url, ...(cookie ? { cookie } : {}), ...headers },
      body: bytes as BodyInit,
    });
  const newUser = async (prefix: string) => {
    const account = await createConfirmedAccount(server.url, server.dataDir, prefix);
    const cookie = await signInCookie(server.url, account.email, account.password);
    return { ...account, cookie, id: await userIdOf(server.runtime.database.db, account.email) };
  };

  it("updates display name and bio; other fields are refused; bio ≤ 500", async () => {
    const u = await newUser("prof");
    const res = await req(
      "/api/account/profile",
      { displayName: "  Ada L.  ", bio: "Hello" },
      { method: "PATCH", cookie: u.cookie },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).profile).toMatchObject({ displayName: "Ada L.", bio: "Hello", email: u.email });
    const long = await req(
      "/api/account/profile",
      { bio: "x".repeat(501) },
      { method: "PATCH", cookie: u.cookie },
    );
    expect(long.status).toBe(400);
    expect((await long.json()).error.field.bio).toMatch(/500/);
    const mass = await req(
      "/api/account/profile",
      { displayName: "X", role: "admin", accountType: "business" },
      { method: "PATCH", cookie: u.cookie },
    );
    expect(mass.status).toBe(400);
    const row = await server.runtime.database.db
      .selectFrom("user")
      .selectAll()
      .where("id", "=", u.id)
      .executeTakeFirstOrThrow();
    expect(row.role).not.toBe("admin");
    expect(row.accountType).not.toBe("business");
    expect((await req("/api/account/profile", "{oops", { method: "PATCH", cookie: u.cookie })).status).toBe(
      400,
    );
    expect(
      (await req("/api/account/profile", { displayName: "" }, { method: "PATCH", cookie: u.cookie })).status,
    ).toBe(400);
  });

  it("unauthorized access: visitor, bad Origin, oversized bodies", async () => {
    expect((await req("/api/account/profile")).status).toBe(401);
    expect((await req("/api/account/profile", { bio: "x" }, { method: "PATCH" })).status).toBe(401);
    expect((await upload(undefined, PNG)).status).toBe(401);
    expect((await req("/api/account/export")).status).toBe(401);
    expect((await req("/api/account/delete", { password: "x", confirm: "DELETE" })).status).toBe(401);
    const u = await newUser("orig");
    expect(
      (
        await req(
          "/api/account/profile",
          { bio: "x" },
          { method: "PATCH", cookie: u.cookie, origin: "https://evil.example" },
        )
      ).status,
    ).toBe(403);
    expect((await upload(u.cookie, PNG, { origin: "https://evil.example" })).status).toBe(403);
    expect(
      (
        await req(
          "/api/account/delete",
          { password: u.password, confirm: "DELETE" },
          { cookie: u.cookie, origin: null },
        )
      ).status,
    ).toBe(403);
    const big = await req(
      "/api/account/profile",
      { bio: "x".repeat(70_000) },
      { method: "PATCH", cookie: u.cookie },
    );
    expect(big.status).toBe(413);
  });

  it("avatar: sniffed, stored under the user's private area, served safely to signed-in users only", async () => {
    const u = await newUser("ava");
    const res = await upload(u.cookie, PNG, { "content-type": "text/html" });
    expect(res.status).toBe(200);
    const { profile } = await res.json();
    expect(profile.avatarUrl).toMatch(new RegExp(`^/api/account/avatar/${u.id}`));
    const stored = await server.runtime.database.db
      .selectFrom("user")
      .select("avatar")
      .where("id", "=", u.id)
      .executeTakeFirstOrThrow();
    expect(stored.avatar).toBe(`private/${u.id}/avatar.png`);
    expect(await server.runtime.storage.head(`private/${u.id}/avatar.png`)).toMatchObject({
      size: PNG.byteLength,
    });

    const other = await newUser("viewer");
    const got = await req(`/api/account/avatar/${u.id}`, undefined, { cookie: other.cookie });
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);
    expect((await req(`/api/account/avatar/${u.id}`)).status).toBe(401);
    expect((await req(`/api/account/avatar/${other.id}`, undefined, { cookie: u.cookie })).status).toBe(404);
    expect((await req("/api/account/avatar/..%2F..%2Fetc", undefined, { cookie: u.cookie })).status).toBe(
      404,
    );

    // A non-image renamed .png, HTML claiming image/png, SVG: refused by content.
    const html = new TextEncoder().encode("<html><script>alert(1)</script></html>");
    const fake = await upload(u.cookie, html, { "content-type": "image/png", "x-file-name": "cat.png" });
    expect(fake.status).toBe(415);
    expect((await fake.json()).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect((await upload(u.cookie, new TextEncoder().encode("<svg onload=alert(1)>"))).status).toBe(415);
    expect((await upload(u.cookie, new Uint8Array())).status).toBe(400);
    const huge = new Uint8Array(2 * 1024 * 1024 + 1);
    huge.set(PNG);
    expect((await upload(u.cookie, huge)).status).toBe(413);
    // The previous avatar is still there.
    expect((await req(`/api/account/avatar/${u.id}`, undefined, { cookie: u.cookie })).status).toBe(200);
  });

  it("export: a JSON attachment with profile, groups, subscriptions, sessions and audit events; no hash or token", async () => {
    const u = await newUser("exp");
    const res = await req("/api/account/export", undefined, { cookie: u.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="lumen-hub-export-/);
    const text = await res.text();
    const data = JSON.parse(text);
    expect(data.profile).toMatchObject({ id: u.id, email: u.email });
    expect(Array.isArray(data.groups)).toBe(true);
    expect(Array.isArray(data.subscriptions)).toBe(true);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.auditEvents.some((e: { action: string }) => e.action === "sign_in")).toBe(true);
    const db = server.runtime.database.db;
    const account = await db
      .selectFrom("account")
      .select("password")
      .where("userId", "=", u.id)
      .executeTakeFirstOrThrow();
    const sessions = await db
      .selectFrom("session")
      .select(["token", "fingerprint"])
      .where("userId", "=", u.id)
      .execute();
    expect(text).not.toContain(account.password!);
    expect(text).not.toMatch(/scrypt\$/);
    expect(text).not.toMatch(/"(token|password|fingerprint|secret)"/i);
    for (const s of sessions) {
      expect(text).not.toContain(s.token);
      if (s.fingerprint) expect(text).not.toContain(s.fingerprint);
    }
    expect(text).not.toContain(u.cookie.split("=")[1]!.split(".")[0]!);
  });

  it("deletion needs the password, the typed confirmation and a fresh sign-in; then the user is gone", async () => {
    const u = await newUser("del");
    expect((await upload(u.cookie, PNG)).status).toBe(200);
    const noConfirm = await req(
      "/api/account/delete",
      { password: u.password, confirm: "delete" },
      { cookie: u.cookie },
    );
    expect(noConfirm.status).toBe(400);
    expect((await noConfirm.json()).error.field.confirm).toMatch(/DELETE/);
    const wrong = await req(
      "/api/account/delete",
      { password: "Wrong-Passw0rd!", confirm: "DELETE" },
      { cookie: u.cookie },
    );
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.field.password).toBeTruthy();

    // 16 minutes later (activity keeps the session alive), the sign-in is no longer fresh.
    clock.advance(8 * MIN);
    await req("/api/account/activity", {}, { cookie: u.cookie });
    clock.advance(8 * MIN);
    const stale = await req(
      "/api/account/delete",
      { password: u.password, confirm: "DELETE" },
      { cookie: u.cookie },
    );
    expect(stale.status).toBe(403);
    expect((await stale.json()).error.code).toBe("SESSION_NOT_FRESH");

    const fresh = await signInCookie(server.url, u.email, u.password);
    const ok = await req(
      "/api/account/delete",
      { password: u.password, confirm: "DELETE" },
      { cookie: fresh },
    );
    expect(ok.status).toBe(204);
    const db = server.runtime.database.db;
    expect(
      await db.selectFrom("user").select("id").where("id", "=", u.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await db.selectFrom("session").select("id").where("userId", "=", u.id).execute()).toEqual([]);
    expect(await db.selectFrom("user_group").select("userId").where("userId", "=", u.id).execute()).toEqual(
      [],
    );
    expect(
      await db.selectFrom("user_subscription").select("id").where("userId", "=", u.id).execute(),
    ).toEqual([]);
    expect(await server.runtime.storage.head(`private/${u.id}/avatar.png`)).toBeNull();
    expect(existsSync(path.join(server.dataDir, "objects", "data", "private", u.id, "avatar.png"))).toBe(
      false,
    );
    const auditRow = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "account_deleted")
      .where("actorId", "=", u.id)
      .executeTakeFirst();
    expect(auditRow).toBeTruthy();
    expect((await req("/api/account/profile", undefined, { cookie: fresh })).status).toBe(401);
    expect(
      (await call(server.url, "/api/auth/sign-in/email", { email: u.email, password: u.password })).status,
    ).not.toBe(200);
  });

  it("the last admin of an organisation must hand over before deleting the account", async () => {
    const cookie = await signInCookie(server.url, "business@demo.local", DEMO_PASSWORD);
    const res = await req("/api/account/delete", { password: DEMO_PASSWORD, confirm: "DELETE" }, { cookie });
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toMatch(/last administrator/);
  });
});
