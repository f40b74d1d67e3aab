/**
 * ID tokens for API clients (issue 3 item 8, SECURITY.md §13): issued to a signed-in session,
 * accepted as Bearer on REST with the same user context as the session, refused when forged,
 * expired (≤ 60 s left), of the wrong kind, audience, issuer or algorithm; JWKS published.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { call, TestClock } from "../helpers/auth.ts";
import { signWithServerKey, TEST_AUTH_SECRET, TIER_LEVEL, unsignedToken } from "../helpers/credentials.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const proItem = DEMO_CONTENT.find((c) => c.tier === "Pro" && !c.rolesRequired?.length)!;
const ROLE_GATED = DEMO_CONTENT.find((c) => c.rolesRequired?.length)!;

describe.each(DIALECTS)("ID tokens (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET }, { now: clock.now });
    for (const who of ["free", "pro", "manager"])
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const issue = async (who: string) => {
    const res = await call(server.url, "/api/account/token", {}, { cookie: cookies[who] });
    expect(res.status).toBe(200);
    return (await res.json()) as { idToken: string; tokenType: string; expiresAt: string };
  };
  const bearer = (token: string, path = "/api/content?limit=100") =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

  it("issues an EdDSA ID token with the user's claims, 1 h, for the app's audience", async () => {
    const body = await issue("pro");
    expect(body.tokenType).toBe("Bearer");
    const header = JSON.parse(Buffer.from(body.idToken.split(".")[0]!, "base64url").toString());
    expect(header.alg).toBe("EdDSA");
    const claims = claimsOf(body.idToken);
    expect(claims).toMatchObject({
      email: "pro@demo.local",
      aud: "lumen-hub",
      iss: server.runtime.tokens.issuer,
      token_use: "id",
      "custom:tier": "pro",
      "custom:account_type": "individual",
    });
    expect(claims["cognito:groups"]).toContain("individual-pro");
    expect(typeof claims.given_name).toBe("string");
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(Date.parse(body.expiresAt)).toBe((claims.exp as number) * 1000);
  });

  it("Bearer reads content with the token user's lock flags", async () => {
    for (const who of ["free", "pro"] as const) {
      const { idToken } = await issue(who);
      const res = await bearer(idToken);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { items: Array<{ slug: string; locked: boolean }> };
      for (const item of page.items) {
        const demo = DEMO_CONTENT.find((c) => c.slug === item.slug)!;
        const level = who === "pro" ? 2 : 0;
        const expected = !(level >= TIER_LEVEL[demo.tier] && !demo.rolesRequired?.length);
        expect(item.locked, `${who} ${demo.slug}`).toBe(expected);
      }
      const one = (await (await bearer(idToken, `/api/content/${proItem.slug}`)).json()) as {
        locked: boolean;
      };
      expect(one.locked).toBe(who !== "pro");
    }
    const manager = await issue("manager");
    const gated = (await (await bearer(manager.idToken, `/api/content/${ROLE_GATED.slug}`)).json()) as {
      locked: boolean;
    };
    expect(gated.locked).toBe(false);
  });

  it("refuses forged, foreign and wrong-kind tokens with 401", async () => {
    const { idToken } = await issue("pro");
    const base = claimsOf(idToken);
    const nowS = Math.floor(clock.now() / 1000);
    const forged = [
      await signWithServerKey(server, { ...base, aud: "someone-else" }),
      await signWithServerKey(server, { ...base, iss: "https://evil.example" }),
      await signWithServerKey(server, { ...base, token_use: "access" }),
      await signWithServerKey(server, { ...base, token_use: "service", scope: "content:read:all" }),
      await signWithServerKey(server, { ...base, exp: nowS + 60 }),
      await signWithServerKey(server, { ...base, exp: nowS - 10 }),
      await signWithServerKey(server, { ...base }, { kid: "unknown-kid" }),
      unsignedToken({}, base),
      `${idToken.slice(0, -4)}AAAA`,
    ];
    // HS256 signed with the public key (algorithm confusion).
    const jwks = (await (await fetch(`${server.url}/api/auth/jwks`)).json()) as {
      keys: Array<{ x: string; kid: string }>;
    };
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const input = `${b64({ alg: "HS256", kid: jwks.keys[0]!.kid })}.${b64(base)}`;
    forged.push(`${input}.${createHmac("sha256", jwks.keys[0]!.x).update(input).digest("base64url")}`);
    for (const token of forged) {
      const res = await bearer(token);
      expect(res.status, token.slice(0, 40)).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("UNAUTHENTICATED");
    }
    // A token with a little more than a minute left still works.
    expect((await bearer(await signWithServerKey(server, { ...base, exp: nowS + 90 }))).status).toBe(200);
  });

  it("refuses a session token, an API key or another scheme in Authorization", async () => {
    const sessionValue = cookies.pro!.split(";")[0]!.split("=").slice(1).join("=");
    for (const value of [
      `Bearer ${sessionValue}`,
      `Bearer lh_0123456789ab_${"a".repeat(43)}`,
      "Basic dXNlcjpwYXNz",
      "Bearer",
    ]) {
      const res = await fetch(`${server.url}/api/content`, { headers: { authorization: value } });
      expect(res.status, value).toBe(401);
    }
  });

  it("publishes public keys only", async () => {
    for (const path of ["/api/auth/jwks", "/.well-known/jwks.json"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { keys: Array<Record<string, unknown>> };
      expect(body.keys.length).toBeGreaterThan(0);
      for (const key of body.keys) {
        expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA" });
        expect(key).not.toHaveProperty("d");
      }
    }
    const rows = await server.runtime.database.db.selectFrom("signing_key").selectAll().execute();
    expect(rows.length).toBe(1);
    expect(rows[0]!.privateKeyEnc).not.toContain("PRIVATE KEY");
  });

  it("token endpoint: visitor 401, bad Origin 403, GET not served, audit without the token", async () => {
    expect((await call(server.url, "/api/account/token", {})).status).toBe(401);
    expect(
      (
        await call(
          server.url,
          "/api/account/token",
          {},
          { cookie: cookies.pro, origin: "https://evil.example" },
        )
      ).status,
    ).toBe(403);
    expect(
      (await call(server.url, "/api/account/token", {}, { cookie: cookies.pro, origin: null })).status,
    ).toBe(403);
    expect((await call(server.url, "/api/account/token", "{not json", { cookie: cookies.pro })).status).toBe(
      200,
    );
    expect(
      (await fetch(`${server.url}/api/account/token`, { headers: { cookie: cookies.pro! } })).status,
    ).toBe(404);
    const { idToken } = await issue("free");
    const audit = await server.runtime.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "token_issued")
      .execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain(idToken.split(".")[2]!);
  });

  it("a deactivated user's token stops working at once", async () => {
    const { idToken } = await issue("free");
    expect((await bearer(idToken)).status).toBe(200);
    const db = server.runtime.database.db;
    await db.updateTable("user").set({ isActive: false }).where("email", "=", "free@demo.local").execute();
    expect((await bearer(idToken)).status).toBe(401);
    await db.updateTable("user").set({ isActive: true }).where("email", "=", "free@demo.local").execute();
  });

  it("expires: refused with 60 s or less left (clock moved)", async () => {
    const { idToken } = await issue("pro");
    // The token lives no longer than its session: keep the session active (idle time-out 30 min).
    for (let i = 0; i < 2; i++) {
      clock.advance(25 * 60_000);
      expect((await call(server.url, "/api/account/activity", {}, { cookie: cookies.pro })).status).toBe(204);
    }
    clock.advance(3600_000 - 50 * 60_000 - 61_000);
    expect((await bearer(idToken)).status).toBe(200);
    clock.advance(2_000);
    expect((await bearer(idToken)).status).toBe(401);
  });
});
