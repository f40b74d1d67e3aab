/**
 * Bearer ID tokens and their body links end with the sign-in they were minted from (issue 10
 * point 6, decision 013): sign-out, sign-out everywhere from another session, password change,
 * password reset and deactivation refuse the token on REST and GraphQL and its body links; a
 * downgrade takes the token's Pro access away at once. A second server process on the same
 * database sees the sign-out too, and a token follows its session across the 6-hourly rotation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { parseEnv } from "../../server/env.ts";
import { type RunningServer, startServer } from "../../server/server.ts";
import {
  call,
  cookiesOf,
  createConfirmedAccount,
  latestCode,
  signInCookie,
  TestClock,
} from "../helpers/auth.ts";
import { signWithServerKey, TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const FREE_ITEM = DEMO_CONTENT.find((c) => c.tier === "Free" && c.type === "article" && !c.rolesRequired)!;
const PRO_ITEM = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article" && !c.rolesRequired)!;
const MIN = 60_000;

interface ApiItem {
  id: string;
  locked: boolean;
  presignedUrl?: string;
}

describe.each(DIALECTS)("bearer ID tokens end with their sign-in (%s)", (dialect) => {
  let server: TestServer;
  /** A second server process on the same database (and data folder). */
  let second: RunningServer | null = null;
  const clock = new TestClock();

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET }, { now: clock.now });
    second = await startServer(
      parseEnv({
        NODE_ENV: "production",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: server.dataDir,
        DATABASE_URL: dialect === "postgres" ? server.runtime.env.DATABASE_URL : `${server.dataDir}/app.db`,
        LOG_LEVEL: "silent",
        SEED_DEMO: "0",
        AUTH_SECRET: TEST_AUTH_SECRET,
      }),
      { now: clock.now },
    );
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await server?.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  /** A token minted from `cookie`'s session and its body link to `slug`. */
  async function mint(cookie: string, slug: string, base = server.url) {
    const res = await call(base, "/api/account/token", {}, { cookie });
    expect(res.status).toBe(200);
    const { idToken } = (await res.json()) as { idToken: string };
    const item = await fetch(`${base}/api/content/${slug}`, { headers: bearer(idToken) });
    expect(item.status).toBe(200);
    const body = (await item.json()) as ApiItem;
    expect(body.locked).toBe(false);
    expect(body.presignedUrl).toMatch(/\/api\/content\/[^/]+\/body\?/);
    return { idToken, link: body.presignedUrl! };
  }

  const rest = (token: string, base = server.url) =>
    fetch(`${base}/api/content?limit=1`, { headers: bearer(token) });
  const graphql = (token: string, base = server.url) =>
    fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(token) },
      body: JSON.stringify({ query: "{ apiVersion }" }),
    });
  const open = (link: string, base = server.url) => fetch(new URL(link, base));

  /** REST, GraphQL and the body link all accept (200) or all refuse (401, 401, 403). */
  async function statuses(token: { idToken: string; link: string }, base = server.url) {
    return [
      (await rest(token.idToken, base)).status,
      (await graphql(token.idToken, base)).status,
      (await open(token.link, base)).status,
    ];
  }
  const LIVE = [200, 200, 200];
  const DEAD = [401, 401, 403];

  async function expectRefused(token: { idToken: string; link: string }) {
    expect(await statuses(token)).toEqual(DEAD);
    const res = await rest(token.idToken);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("UNAUTHENTICATED");
    const link = await open(token.link);
    expect(((await link.json()) as { error: { message: string } }).error.message).toMatch(/has ended/);
  }

  it("the token carries the sign-in it was minted from (sid), never trusted without it", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const token = await mint(cookie, PRO_ITEM.slug);
    const claims = JSON.parse(Buffer.from(token.idToken.split(".")[1]!, "base64url").toString());
    const sessions = await server.runtime.database.db
      .selectFrom("session")
      .select(["id", "familyId"])
      .where("familyId", "=", claims.sid)
      .execute();
    expect(sessions).toHaveLength(1);
    expect(new URL(token.link, server.url).searchParams.get("cred")).toBe(`t.${claims.sid}`);
    expect(await statuses(token)).toEqual(LIVE);

    // Signed with the server's own key but without a sign-in, or naming another user's: refused.
    const { sid: _sid, ...unbound } = claims;
    const freeCookie = await signIn(server.url, "free@demo.local", DEMO_PASSWORD);
    const freeSid = JSON.parse(
      Buffer.from((await mint(freeCookie, FREE_ITEM.slug)).idToken.split(".")[1]!, "base64url").toString(),
    ).sid;
    for (const forged of [unbound, { ...claims, sid: freeSid }, { ...claims, sid: "no-such-session" }]) {
      expect((await rest(await signWithServerKey(server, forged))).status).toBe(401);
    }
  });

  it("(a) sign-out ends the token and its body link", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const token = await mint(cookie, PRO_ITEM.slug);
    expect(await statuses(token)).toEqual(LIVE);
    expect((await call(server.url, "/api/auth/sign-out", {}, { cookie })).status).toBe(200);
    await expectRefused(token);
  });

  it("(b) sign-out everywhere from another session ends the token and its body link", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const other = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const token = await mint(cookie, PRO_ITEM.slug);
    expect(await statuses(token)).toEqual(LIVE);
    expect((await call(server.url, "/api/account/sessions/revoke-all", {}, { cookie: other })).status).toBe(
      204,
    );
    await expectRefused(token);
  });

  it("(c) a password change ends the tokens of every session, the changing one included", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "tokchg");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const other = await signInCookie(server.url, account.email, account.password);
    const own = await mint(cookie, FREE_ITEM.slug);
    const elsewhere = await mint(other, FREE_ITEM.slug);
    expect(await statuses(own)).toEqual(LIVE);
    const changed = await call(
      server.url,
      "/api/auth/change-password",
      { currentPassword: account.password, newPassword: "Tok3n-Chang3d-Passw0rd!" },
      { cookie },
    );
    expect(changed.status).toBe(200);
    await expectRefused(own);
    await expectRefused(elsewhere);
    // The session the change left signed in mints working tokens again.
    expect(await statuses(await mint(cookiesOf(changed), FREE_ITEM.slug))).toEqual(LIVE);
  });

  it("(d) a password reset by code ends the token and its body link", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "tokreset");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const token = await mint(cookie, FREE_ITEM.slug);
    expect(await statuses(token)).toEqual(LIVE);
    expect(
      (await call(server.url, "/api/auth/email-otp/request-password-reset", { email: account.email })).status,
    ).toBe(200);
    const otp = await latestCode(server.dataDir, account.email);
    expect(otp).toMatch(/^\d{6}$/);
    const reset = await call(server.url, "/api/auth/email-otp/reset-password", {
      email: account.email,
      otp,
      password: "Tok3n-R3set-Passw0rd!",
    });
    expect(reset.status).toBe(200);
    await expectRefused(token);
  });

  it("(e) a deactivated account's token and body link are refused", async () => {
    // There is no ban operation yet: an admin deactivation sets user.isActive = false.
    const account = await createConfirmedAccount(server.url, server.dataDir, "tokban");
    const cookie = await signInCookie(server.url, account.email, account.password);
    const token = await mint(cookie, FREE_ITEM.slug);
    expect(await statuses(token)).toEqual(LIVE);
    const db = server.runtime.database.db;
    await db.updateTable("user").set({ isActive: false }).where("email", "=", account.email).execute();
    expect(await statuses(token)).toEqual(DEAD);
  });

  it("(f) a downgrade to Free takes the token's Pro access away at once (REST, GraphQL, body link)", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const token = await mint(cookie, PRO_ITEM.slug);
    const gqlItem = async () => {
      const res = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...bearer(token.idToken) },
        body: JSON.stringify({
          query:
            "query ($slug: String!) { listContentBySlug(slug: $slug) { items { locked presignedUrl } } }",
          variables: { slug: PRO_ITEM.slug },
        }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        data: { listContentBySlug: { items: Array<{ locked: boolean; presignedUrl: string | null }> } };
      };
      return body.data.listContentBySlug.items[0]!;
    };
    const restItem = async () =>
      (await (
        await fetch(`${server.url}/api/content/${PRO_ITEM.slug}`, { headers: bearer(token.idToken) })
      ).json()) as ApiItem;
    expect((await gqlItem()).locked).toBe(false);
    expect((await open(token.link)).status).toBe(200);

    const db = server.runtime.database.db;
    const user = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "pro@demo.local")
      .executeTakeFirstOrThrow();
    const subs = await db.selectFrom("user_subscription").selectAll().where("userId", "=", user.id).execute();
    // What the subscription service's update does to the rows.
    await db.updateTable("user_subscription").set({ tier: "Free" }).where("userId", "=", user.id).execute();
    try {
      const viaRest = await restItem();
      expect(viaRest.locked).toBe(true);
      expect(viaRest.presignedUrl).toBeUndefined();
      const viaGraphql = await gqlItem();
      expect(viaGraphql.locked).toBe(true);
      expect(viaGraphql.presignedUrl).toBeNull();
      const link = await open(token.link);
      expect(link.status).toBe(403);
      expect(await link.text()).not.toContain("##");
      // The token itself still reads what a Free reader may.
      expect((await rest(token.idToken)).status).toBe(200);
    } finally {
      for (const s of subs)
        await db.updateTable("user_subscription").set({ tier: s.tier }).where("id", "=", s.id).execute();
    }
    expect((await restItem()).locked).toBe(false);
  });

  it("a sign-out on one server process ends the token on another process sharing the database", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const token = await mint(cookie, PRO_ITEM.slug);
    expect(await statuses(token, second!.url)).toEqual(LIVE);
    expect((await call(server.url, "/api/auth/sign-out", {}, { cookie })).status).toBe(200);
    let seen: number[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      seen = await statuses(token, second!.url);
      if (seen.join() === DEAD.join()) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(seen).toEqual(DEAD);
  });

  // Moves the clock by hours: keep it last.
  it("a token follows its session across the 6-hourly rotation, and dies with it", async () => {
    let cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const ping = async () => {
      const res = await call(server.url, "/api/account/activity", {}, { cookie });
      expect(res.status).toBe(204);
      const rotated = cookiesOf(res);
      if (rotated) cookie = rotated;
      return rotated !== "";
    };
    // Active every 25 minutes up to 5 h 50 min: no rotation yet.
    for (let i = 0; i < 14; i++) {
      clock.advance(25 * MIN);
      expect(await ping()).toBe(false);
    }
    const token = await mint(cookie, PRO_ITEM.slug);
    const sid = JSON.parse(Buffer.from(token.idToken.split(".")[1]!, "base64url").toString()).sid as string;
    const rowsOf = () =>
      server.runtime.database.db.selectFrom("session").select("id").where("familyId", "=", sid).execute();
    const before = await rowsOf();
    clock.advance(25 * MIN);
    expect(await ping()).toBe(true);
    const after = await rowsOf();
    expect(before).toHaveLength(1);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before[0]!.id);
    expect(await statuses(token)).toEqual(LIVE);
    expect((await call(server.url, "/api/auth/sign-out", {}, { cookie })).status).toBe(200);
    await expectRefused(token);
  });
});
