/**
 * Sessions and claims are reused for a couple of seconds (decision 023), and that never outlives
 * a revocation: a sign-out, a ban or a downgrade counts on the next request, whether it was made
 * on this process, on another process sharing the database or by SQL outside the app (each
 * request reads the identity revision that database triggers move).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../server/db/database.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { createSubscriptionsRepo } from "../../server/modules/subscriptions/subscriptions.repo.ts";
import { buildSubscription } from "../factories/index.ts";
import { call, createConfirmedAccount, STRONG_PASSWORD } from "../helpers/auth.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const PRO_ITEM = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article" && !c.rolesRequired)!;
const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe.each(DIALECTS)("cached sessions and claims end with the session (%s)", (dialect) => {
  let server: TestServer;
  /** A second app process on the same database. */
  let second: TestServer;
  /** A connection outside both processes (an operator's SQL): no app code sees its writes. */
  let outside: Database;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    second = await startTestServer(dialect, { SEED_DEMO: "0" }, { shareWith: server });
    outside = createDatabase(
      dialect === "postgres" ? server.databaseUrl : path.join(server.dataDir, "app.db"),
    );
  }, 120_000);
  afterAll(async () => {
    await outside?.close();
    await second?.close();
    await server?.close();
  });

  /** The context the server builds for a cookie, or the HTTP status when there is none. */
  async function me(base: string, cookie: string): Promise<{ pricingTier: string; userId: string } | number> {
    const res = await fetch(`${base}/api/account/me`, { headers: { cookie } });
    if (res.status !== 200) return res.status;
    return res.json();
  }

  /** Whether the Pro item opens for this cookie (REST) on this process. */
  async function proOpens(base: string, cookie: string): Promise<boolean> {
    const res = await fetch(`${base}/api/content/${PRO_ITEM.slug}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return !((await res.json()) as { locked: boolean }).locked;
  }

  async function userId(email: string): Promise<string> {
    const row = await server.runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** A new confirmed account with a Pro subscription, signed in. */
  async function newProMember() {
    const account = await createConfirmedAccount(server.url, server.dataDir, "idcache");
    const cookie = await signIn(server.url, account.email, STRONG_PASSWORD);
    const id = await userId(account.email);
    await createSubscriptionsRepo(server.runtime.database.db).create(
      buildSubscription(id, { tier: "pro", expiresAt: inDays(30) }),
    );
    return { id, cookie, email: account.email };
  }

  it("repeated requests of one session are answered from the cache", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    expect(await me(server.url, cookie)).toMatchObject({ pricingTier: "Pro" });
    const before = server.runtime.identityChanges.stats().hits;
    expect(await me(server.url, cookie)).toMatchObject({ pricingTier: "Pro" });
    expect(await proOpens(server.url, cookie)).toBe(true);
    expect(server.runtime.identityChanges.stats().hits).toBeGreaterThan(before);
  });

  it("a session signed out on this process is refused on its next request, page and API", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    expect(await proOpens(server.url, cookie)).toBe(true);
    const page = await fetch(`${server.url}/content/${PRO_ITEM.slug}`, { headers: { cookie } });
    expect(await page.text()).toContain("pro@demo.local");

    expect((await call(server.url, "/api/auth/sign-out", {}, { cookie })).status).toBe(200);
    expect(await me(server.url, cookie)).toBe(401);
    expect(await proOpens(server.url, cookie)).toBe(false);
    const after = await fetch(`${server.url}/content/${PRO_ITEM.slug}`, { headers: { cookie } });
    expect(await after.text()).not.toContain("pro@demo.local");
  });

  it("a session revoked on another process is refused there on its next request", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    // Both processes hold the session in their caches.
    expect(await proOpens(second.url, cookie)).toBe(true);
    expect(await proOpens(server.url, cookie)).toBe(true);
    expect((await call(server.url, "/api/auth/sign-out", {}, { cookie })).status).toBe(200);
    expect(await me(second.url, cookie)).toBe(401);
    expect(await proOpens(second.url, cookie)).toBe(false);
  });

  it("a session deleted by SQL outside the app is refused by every process on its next request", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    expect(await proOpens(server.url, cookie)).toBe(true);
    expect(await proOpens(second.url, cookie)).toBe(true);
    const id = await userId("pro@demo.local");
    await outside.db.deleteFrom("session").where("userId", "=", id).execute();
    // No process was told: both read the moved identity revision first.
    expect(await me(server.url, cookie)).toBe(401);
    expect(await me(second.url, cookie)).toBe(401);
  });

  it("a downgrade (the subscription ended) sets the tier on the next page of either process", async () => {
    const member = await newProMember();
    expect(await me(server.url, member.cookie)).toMatchObject({ pricingTier: "Pro" });
    expect(await me(second.url, member.cookie)).toMatchObject({ pricingTier: "Pro" });
    expect(await proOpens(second.url, member.cookie)).toBe(true);

    // Ended on this process: counts on the next request here.
    await server.runtime.database.db
      .updateTable("user_subscription")
      .set({ status: "canceled", canceledAt: inDays(-1) })
      .where("userId", "=", member.id)
      .where("tier", "=", "pro")
      .execute();
    expect(await me(server.url, member.cookie)).toMatchObject({ pricingTier: "Free" });
    expect(await proOpens(server.url, member.cookie)).toBe(false);

    // The other process too.
    expect(await me(second.url, member.cookie)).toMatchObject({ pricingTier: "Free" });
    expect(await proOpens(second.url, member.cookie)).toBe(false);
  });

  it("an upgrade made by SQL outside the app reaches the cached claims on the next request", async () => {
    const account = await createConfirmedAccount(server.url, server.dataDir, "idcacheup");
    const cookie = await signIn(server.url, account.email, STRONG_PASSWORD);
    const id = await userId(account.email);
    expect(await me(server.url, cookie)).toMatchObject({ pricingTier: "Free" });
    await createSubscriptionsRepo(outside.db).create(
      buildSubscription(id, { tier: "pro", expiresAt: inDays(30) }),
    );
    expect(await me(server.url, cookie)).toMatchObject({ pricingTier: "Pro" });
  });

  it("a banned account is refused on the next request of this process and of another", async () => {
    const member = await newProMember();
    expect(await proOpens(server.url, member.cookie)).toBe(true);
    expect(await proOpens(second.url, member.cookie)).toBe(true);
    await server.runtime.database.db
      .updateTable("user")
      .set({ isActive: false })
      .where("id", "=", member.id)
      .execute();
    expect(await me(server.url, member.cookie)).toBe(401);
    expect(await proOpens(server.url, member.cookie)).toBe(false);
    expect(await me(second.url, member.cookie)).toBe(401);
    expect(await proOpens(second.url, member.cookie)).toBe(false);
  });
});
