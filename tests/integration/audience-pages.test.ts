import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIENCE_USER_ID } from "../../core/index.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { call, createConfirmedAccount, createReadKey, STRONG_PASSWORD } from "../helpers/auth.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

/**
 * Signed-in readers' content pages from one render per audience (decision 039): what a stored
 * audience page may hold (nothing of any reader), who gets it (readers of that exact audience,
 * never staff, never across plans), that revocation still counts on the next request, and the
 * personal engagement the browser fills in.
 */
const PRO = DEMO_CONTENT.find((c) => c.tier === "Pro" && c.type === "article" && !c.video)!;
/** The tier gate's heading: present on a page the reader may not read. */
const GATE = /id="gate-title"/;
const VIDEO = DEMO_CONTENT.find((c) => c.type === "video" && c.tier === "Free")!;

interface Me {
  userId: string;
  email: string;
  fullName: string | null;
  username: string | null;
}

describe.each(DIALECTS)("audience pages (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const me: Record<string, Me> = {};

  const get = (path: string, who?: string) =>
    fetch(`${server.url}${path}`, {
      redirect: "manual",
      headers: who ? { cookie: cookies[who]! } : {},
    });
  const page = async (path: string, who?: string) => {
    const res = await get(path, who);
    return { status: res.status, cache: res.headers.get("x-cache"), res, html: await res.text() };
  };
  /** Asks until the audience render is stored (it is made after the first reader's answer). */
  const stored = async (path: string, who: string) => {
    for (let i = 0; i < 100; i++) {
      const answer = await page(path, who);
      if (answer.cache === "hit") return answer;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no audience page stored for ${path}`);
  };
  /** Everything of a reader that identifies them. */
  const personal = (who: string) =>
    [me[who]!.userId, me[who]!.email, me[who]!.fullName, me[who]!.username].filter(
      // Short demo usernames ("pro") also occur as ordinary words of any page.
      (v): v is string => typeof v === "string" && v.length >= 6,
    );
  const grant = async (email: string, planId: string) => {
    const res = await call(
      server.url,
      "/api/admin/subscriptions",
      { email, planId, days: 30, note: "test" },
      {
        cookie: cookies.admin,
      },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: string; version: number };
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const who of ["pro", "free", "admin", "writer"] as const) {
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    }
    // A second Pro reader with a different name and e-mail.
    for (const who of ["second", "third"]) {
      const account = await createConfirmedAccount(server.url, server.dataDir, who);
      cookies[who] = await signIn(server.url, account.email, STRONG_PASSWORD);
    }
    const second = (await (
      await call(server.url, "/api/account/me", undefined, { cookie: cookies.second })
    ).json()) as Me;
    await grant(second.email, "pro");
    for (const who of Object.keys(cookies)) {
      const res = await call(server.url, "/api/account/me", undefined, { cookie: cookies[who] });
      expect(res.status, who).toBe(200);
      me[who] = (await res.json()) as Me;
    }
  }, 240_000);
  afterAll(async () => {
    await server?.close();
  });

  it("a reader's first request is their own render; the audience's render then serves every reader of it, holding nothing of any", async () => {
    const path = `/content/${PRO.slug}`;
    const first = await page(path, "pro");
    expect(first.status).toBe(200);
    expect(first.cache).toBeNull();
    expect(first.html).toContain(me.pro!.fullName ?? me.pro!.email);

    const hit = await stored(path, "second");
    expect(hit.status).toBe(200);
    expect(hit.res.headers.get("cache-control")).toBe("private, no-store");
    // The Pro body is there (a Pro audience), and the neutral user, marked as such.
    expect(hit.html).not.toMatch(GATE);
    expect(hit.html).toContain(AUDIENCE_USER_ID);
    expect(hit.html).toContain('\\"deferred\\",true');
    for (const who of ["pro", "second", "free", "admin"]) {
      for (const value of personal(who)) expect(hit.html, `${who}: ${value}`).not.toContain(value);
    }
    // The first reader gets the audience's page now too.
    const again = await page(path, "pro");
    expect(again.cache).toBe("hit");
    for (const value of personal("pro")) expect(again.html).not.toContain(value);
  });

  it("never across plans: a Free reader of the same page gets the paywall, a Pro reader never a Free reader's page", async () => {
    const path = `/content/${PRO.slug}`;
    await stored(path, "pro");
    const free = await page(path, "free");
    expect(free.status).toBe(200);
    expect(free.html).toMatch(GATE);
    const freeStored = await stored(path, "third");
    expect(freeStored.html).toMatch(GATE);
    const pro = await page(path, "second");
    expect(pro.html).not.toMatch(GATE);
  });

  it("never for staff: an admin's and a writer's pages are always their own render", async () => {
    const path = `/content/${PRO.slug}`;
    for (const who of ["admin", "writer"]) {
      for (let i = 0; i < 3; i++) {
        const answer = await page(path, who);
        expect(answer.status).toBe(200);
        expect(answer.cache, who).toBeNull();
        expect(answer.html).not.toContain(AUDIENCE_USER_ID);
        expect(answer.html).toContain(me[who]!.userId);
      }
    }
  });

  it("a video page (signed media links per session) is never shared", async () => {
    const path = `/content/${VIDEO.slug}`;
    for (let i = 0; i < 4; i++) {
      const answer = await page(path, "pro");
      expect(answer.status).toBe(200);
      expect(answer.cache).toBeNull();
      expect(answer.html).toContain(me.pro!.userId);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it("pages with a query, data requests and visitors never get an audience page", async () => {
    const path = `/content/${PRO.slug}`;
    await stored(path, "pro");
    const query = await page(`${path}?ref=x`, "pro");
    expect(query.html).not.toContain(AUDIENCE_USER_ID);
    const data = await page(`${path}.data`, "pro");
    expect(data.html).not.toContain(AUDIENCE_USER_ID);
    expect(data.html).toContain(me.pro!.userId);
    const visitor = await page(path);
    expect(visitor.html).not.toContain(AUDIENCE_USER_ID);
    expect(visitor.html).toMatch(GATE);
  });

  it("revocation counts on the next request: signed out → a visitor's page; plan ended → the Free audience", async () => {
    const path = `/content/${PRO.slug}`;
    const account = await createConfirmedAccount(server.url, server.dataDir, "revoked");
    const cookie = await signIn(server.url, account.email, STRONG_PASSWORD);
    const granted = await grant(account.email, "pro");
    cookies.revoked = cookie;
    await stored(path, "pro");
    const before = await page(path, "revoked");
    expect(before.cache).toBe("hit");
    expect(before.html).not.toMatch(GATE);

    const cancel = await call(
      server.url,
      `/api/admin/subscriptions/${granted.id}/cancel`,
      { version: granted.version, when: "now", note: "test" },
      { cookie: cookies.admin },
    );
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    const after = await page(path, "revoked");
    expect(after.html).toMatch(GATE);

    const out = await call(server.url, "/api/auth/sign-out", {}, { cookie });
    expect(out.status).toBe(200);
    const signedOut = await page(path, "revoked");
    expect(signedOut.html).not.toContain(AUDIENCE_USER_ID);
    expect(signedOut.html).toMatch(GATE);
  });

  describe("GET /api/content/{slug}/engagement (the personal part of an audience page)", () => {
    const api = (who?: string, slug = PRO.slug, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/api/content/${slug}/engagement`, {
        headers: { ...(who ? { cookie: cookies[who]! } : {}), ...headers },
      });

    it("answers the reader's own like and Save, and follows them", async () => {
      const before = await api("second");
      expect(before.status).toBe(200);
      expect(before.headers.get("cache-control")).toBe("no-store");
      const body = (await before.json()) as { liked: boolean; saved: boolean; likeCount: number };
      expect(body).toMatchObject({ liked: false, saved: false });
      const like = await call(server.url, `/api/content/${PRO.slug}/like`, undefined, {
        cookie: cookies.second,
        method: "PUT",
      });
      expect(like.status).toBe(200);
      const save = await call(server.url, `/api/bookmarks/${await itemId(PRO.slug)}`, undefined, {
        cookie: cookies.second,
        method: "PUT",
      });
      expect(save.status).toBe(200);
      const after = (await (await api("second")).json()) as typeof body;
      expect(after).toMatchObject({ liked: true, saved: true, likeCount: body.likeCount + 1 });
      // Another reader's state is their own.
      expect(await (await api("pro")).json()).toMatchObject({ liked: false });
    });

    it("refuses visitors (401), API keys (403), bad and unknown addresses (400, 404)", async () => {
      expect((await api()).status).toBe(401);
      const key = await createReadKey(server.url, cookies.pro, `audience-${dialect}`);
      expect((await api(undefined, PRO.slug, { "x-api-key": key })).status).toBe(403);
      expect((await api("pro", "no-such-item-here")).status).toBe(404);
      expect((await api("pro", "bad%20slug!")).status).toBe(400);
    });
  });

  async function itemId(slug: string): Promise<string> {
    const row = await server.runtime.database.db
      .selectFrom("content")
      .select("id")
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
    return row.id;
  }
});
