/**
 * Content body links (presignedUrl / url of the content API): signed, expiring, bound to the
 * credential that asked. Tampered, expired, replayed-after-sign-out and revoked-key links are
 * refused; a link never outlives its credential.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { contentBodyKey } from "../factories/index.ts";
import { call, TestClock } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const FREE_ITEM = DEMO_CONTENT.find((c) => c.tier === "Free" && c.type === "article" && !c.rolesRequired)!;
const PRO_ITEM = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article" && !c.rolesRequired)!;

interface ApiItem {
  id: string;
  presignedUrl?: string;
  url?: string;
}

describe.each(DIALECTS)("content body links (%s)", (dialect) => {
  let server: TestServer;
  const clock = new TestClock();

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET }, { now: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const item = async (slug: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/api/content/${slug}`, { headers });
    expect(res.status).toBe(200);
    return (await res.json()) as ApiItem;
  };
  const open = (link: string) => fetch(new URL(link, server.url));
  const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error;

  it("a link expires after 3600 s by default", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const link = (await item(PRO_ITEM.slug, { cookie })).presignedUrl!;
    const exp = Number(new URL(link, server.url).searchParams.get("exp"));
    expect(exp * 1000 - clock.t).toBeGreaterThan(3590_000);
    expect(exp * 1000 - clock.t).toBeLessThanOrEqual(3600_000);
    expect((await open(link)).status).toBe(200);
    clock.advance(3601_000);
    const late = await open(link);
    expect(late.status).toBe(403);
    expect((await errorOf(late)).message).toBe("This link has expired.");
  });

  it("tampered links are refused: signature, expiry, credential or item changed", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const pro = await item(PRO_ITEM.slug, { cookie });
    const free = await item(FREE_ITEM.slug, { cookie });
    const link = new URL(pro.presignedUrl!, server.url);
    expect((await open(link.toString())).status).toBe(200);

    const variants: Array<[string, (u: URL) => void]> = [
      [
        "signature",
        (u) => {
          const sig = u.searchParams.get("sig")!;
          u.searchParams.set("sig", `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`);
        },
      ],
      ["expiry", (u) => u.searchParams.set("exp", String(Number(u.searchParams.get("exp")) + 3600))],
      ["credential", (u) => u.searchParams.set("cred", "v")],
      ["item", (u) => (u.pathname = u.pathname.replace(pro.id, free.id))],
      ["missing signature", (u) => u.searchParams.delete("sig")],
      ["malformed expiry", (u) => u.searchParams.set("exp", "soon")],
    ];
    for (const [name, change] of variants) {
      const u = new URL(link);
      change(u);
      const res = await open(u.toString());
      expect(res.status, name).toBe(403);
      expect(await res.text(), name).not.toContain("##");
    }
  });

  it("a link replayed after sign-out is refused", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const link = (await item(PRO_ITEM.slug, { cookie })).presignedUrl!;
    expect((await open(link)).status).toBe(200);
    expect((await call(server.url, "/api/auth/sign-out", {}, { cookie })).status).toBe(200);
    const replay = await open(link);
    expect(replay.status).toBe(403);
    expect((await errorOf(replay)).message).toMatch(/has ended/);
  });

  it("a link dies with its session's 30-minute idle time-out, though the link itself has not expired", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const link = (await item(PRO_ITEM.slug, { cookie })).presignedUrl!;
    const exp = Number(new URL(link, server.url).searchParams.get("exp")) * 1000;
    clock.advance(20 * 60_000);
    // Using the link is not activity: it works while the session is live, and does not keep it alive.
    expect((await open(link)).status).toBe(200);
    clock.advance(11 * 60_000);
    expect(exp).toBeGreaterThan(clock.t);
    const idle = await open(link);
    expect(idle.status).toBe(403);
    expect((await errorOf(idle)).message).toMatch(/has ended/);
  });

  it("a link dies with its session's 24-hour absolute lifetime, however active the session was", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const link = (await item(PRO_ITEM.slug, { cookie })).presignedUrl!;
    expect((await open(link)).status).toBe(200);
    // The sign-in is moved 24 h into the past (a session that was kept active all day): the row
    // is still there and recently active, only its absolute lifetime is over.
    const sessionId = await server.runtime.database.db
      .selectFrom("session")
      .innerJoin("user", "user.id", "session.userId")
      .select("session.id")
      .where("user.email", "=", "pro@demo.local")
      .orderBy("session.createdAt", "desc")
      .executeTakeFirstOrThrow();
    await server.runtime.database.db
      .updateTable("session")
      .set({ issuedAt: clock.t - 24 * 3600_000 - 1000, lastActiveAt: clock.t })
      .where("id", "=", sessionId.id)
      .execute();
    const late = await open(link);
    expect(late.status).toBe(403);
    expect((await errorOf(late)).message).toMatch(/has ended/);
  });

  it("an API key's link dies with the key, and the key only ever gets public (Free) bodies", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const created = await call(
      server.url,
      "/api/account/api-keys",
      { name: "links", scopes: ["content:read"] },
      { cookie },
    );
    expect(created.status).toBe(201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    const headers = { "x-api-key": key };
    expect((await item(PRO_ITEM.slug, headers)).presignedUrl).toBeUndefined();
    const link = (await item(FREE_ITEM.slug, headers)).presignedUrl!;
    expect((await open(link)).status).toBe(200);
    const revoked = await call(server.url, `/api/account/api-keys/${id}`, undefined, {
      cookie,
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    expect((await open(link)).status).toBe(403);
  });

  it("a reader downgraded after getting a link can no longer use it", async () => {
    const cookie = await signIn(server.url, "pro@demo.local", DEMO_PASSWORD);
    const link = (await item(PRO_ITEM.slug, { cookie })).presignedUrl!;
    expect((await open(link)).status).toBe(200);
    const db = server.runtime.database.db;
    const user = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "pro@demo.local")
      .executeTakeFirstOrThrow();
    const subs = await db.selectFrom("user_subscription").selectAll().where("userId", "=", user.id).execute();
    await db.updateTable("user_subscription").set({ tier: "Free" }).where("userId", "=", user.id).execute();
    try {
      const res = await open(link);
      expect(res.status).toBe(403);
      expect((await errorOf(res)).message).toMatch(/may no longer read/);
    } finally {
      for (const s of subs)
        await db.updateTable("user_subscription").set({ tier: s.tier }).where("id", "=", s.id).execute();
    }
    expect((await open(link)).status).toBe(200);
  });

  it("a visitor's link to a Free item works without any cookie; unknown or unpublished items are 404/403", async () => {
    const link = (await item(FREE_ITEM.slug)).presignedUrl!;
    const res = await open(link);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await fetch(`${server.url}/api/content/..%2F..%2Fetc/body?exp=1&cred=v&sig=x`)).status).toBe(400);
    expect((await fetch(`${server.url}/api/content/no-such-id/body`)).status).toBe(403);
  });

  it("a readable item whose body object is missing: the 'Content Not Found' screen, and the link says 404", async () => {
    const victim = DEMO_CONTENT.find((c) => c.tier === "Free" && c.type === "article" && c !== FREE_ITEM)!;
    const link = (await item(victim.slug)).presignedUrl!;
    await server.runtime.storage.delete(contentBodyKey(victim.tier, victim.categorySlug, victim.slug));
    const page = await fetch(`${server.url}/content/${victim.slug}`);
    expect(page.status).toBe(500);
    const html = await page.text();
    expect(html).toContain("Content Not Found");
    expect(html).toContain("The requested content could not be loaded: ");
    expect(html).toContain("is missing from storage");
    expect(html).toContain("Return Home");
    expect((await open(link)).status).toBe(404);
  });
});
