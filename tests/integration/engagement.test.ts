/**
 * Engagement over HTTP (issue 4 item 8, course progress of item 3): the unauthorized-access suite
 * for the like, share, view and progress endpoints, the view beacon (bots not counted), and the
 * page data (counts for everyone, the like and progress for the signed-in reader only).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { call, signInCookie } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const BOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";

const article = (tier: string, skip: string[] = []) =>
  DEMO_CONTENT.find(
    (c) => c.tier === tier && c.type === "article" && !c.rolesRequired?.length && !skip.includes(c.slug),
  )!;
const FREE_ITEM = article("Free");
const PRO_ITEM = article("Pro");
const VIEWED_ITEM = article("Free", [FREE_ITEM.slug]);
const FREE_COURSE = DEMO_CONTENT.find((c) => c.type === "course" && c.tier === "Free" && c.lessons?.length)!;
const BASIC_COURSE = DEMO_CONTENT.find(
  (c) => c.type === "course" && c.tier === "Basic" && c.lessons?.length,
)!;

interface Progress {
  courseId: string;
  lessonIds: string[];
  completedLessonIds: string[];
  total: number;
  completed: number;
  percent: number;
  complete: boolean;
  completedAt?: string;
}

describe.each(DIALECTS)("engagement API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET });
    for (const who of ["free", "pro"])
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    const created = await call(
      server.url,
      "/api/account/api-keys",
      { name: "engagement test", scopes: ["content:read"] },
      { cookie: cookies.pro },
    );
    expect(created.status).toBe(201);
    apiKey = ((await created.json()) as { key: string }).key;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const as = (who: "visitor" | "free" | "pro") => (who === "visitor" ? {} : { cookie: cookies[who] });
  const put = (path: string, who: "visitor" | "free" | "pro", extra: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, undefined, { method: "PUT", ...as(who), ...extra });
  const del = (path: string, who: "visitor" | "free" | "pro", extra: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, undefined, { method: "DELETE", ...as(who), ...extra });
  const post = (
    path: string,
    body: unknown,
    who: "visitor" | "free" | "pro",
    extra: Parameters<typeof call>[3] = {},
  ) => call(server.url, path, body, { ...as(who), ...extra });
  const get = (path: string, who: "visitor" | "free" | "pro") => call(server.url, path, undefined, as(who));
  /** The view beacon of a visitor's browser. */
  const beacon = (slug: string, userAgent: string) =>
    call(server.url, `/api/content/${slug}/view`, "", { headers: { "user-agent": userAgent } });
  const counters = async (slug: string) =>
    server.runtime.database.db
      .selectFrom("content")
      .select(["viewCount", "likeCount", "shareCount"])
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
  const errorOf = async (res: Response) =>
    ((await res.json()) as { error: { code: string; message: string } }).error;

  describe("unauthorized access", () => {
    it("visitors get 401 on likes, shares and progress", async () => {
      const likePath = `/api/content/${FREE_ITEM.slug}/like`;
      for (const res of [
        await put(likePath, "visitor"),
        await del(likePath, "visitor"),
        await post(`/api/content/${FREE_ITEM.slug}/share`, { channel: "link" }, "visitor"),
        await get(`/api/courses/${FREE_COURSE.slug}/progress`, "visitor"),
        await put(`/api/courses/${FREE_COURSE.slug}/progress/${FREE_COURSE.lessons![0]}`, "visitor"),
        await del(`/api/courses/${FREE_COURSE.slug}/progress/${FREE_COURSE.lessons![0]}`, "visitor"),
      ]) {
        expect(res.status, res.url).toBe(401);
        expect((await errorOf(res)).code).toBe("UNAUTHENTICATED");
      }
      expect(await counters(FREE_ITEM.slug)).toMatchObject({ likeCount: 0, shareCount: 0 });
    });

    it("a free reader may not like a Pro item, nor track a Basic course (403, with the reason)", async () => {
      const like = await put(`/api/content/${PRO_ITEM.slug}/like`, "free");
      expect(like.status).toBe(403);
      const error = await errorOf(like);
      expect(error.code).toBe("FORBIDDEN");
      expect(error.message).toContain("needs the Pro plan");
      expect((await counters(PRO_ITEM.slug)).likeCount).toBe(0);

      expect((await get(`/api/courses/${BASIC_COURSE.slug}/progress`, "free")).status).toBe(403);
      const lesson = BASIC_COURSE.lessons!.find(
        (s) => DEMO_CONTENT.find((c) => c.slug === s)?.tier === "Free",
      )!;
      expect((await put(`/api/courses/${BASIC_COURSE.slug}/progress/${lesson}`, "free")).status).toBe(403);
    });

    it("refuses API keys: likes, shares, views and progress are personal", async () => {
      const key = { headers: { "x-api-key": apiKey, "user-agent": BROWSER }, origin: null };
      for (const res of [
        await put(`/api/content/${FREE_ITEM.slug}/like`, "visitor", key),
        await post(`/api/content/${FREE_ITEM.slug}/share`, { channel: "x" }, "visitor", key),
        await post(`/api/content/${FREE_ITEM.slug}/view`, "", "visitor", key),
        await call(server.url, `/api/courses/${FREE_COURSE.slug}/progress`, undefined, key),
      ]) {
        expect(res.status, res.url).toBe(403);
        expect((await errorOf(res)).message).toContain("API key");
      }
      expect(await counters(FREE_ITEM.slug)).toMatchObject({ likeCount: 0, shareCount: 0, viewCount: 0 });
    });

    it("refuses cookie-authenticated changes from a foreign Origin, or with no Origin at all", async () => {
      const path = `/api/content/${FREE_ITEM.slug}/like`;
      const foreign = await put(path, "pro", { origin: "https://evil.example" });
      expect(foreign.status).toBe(403);
      expect((await errorOf(foreign)).code).toBe("FORBIDDEN_ORIGIN");
      expect((await put(path, "pro", { origin: null })).status).toBe(403);
      expect(
        (
          await post(`/api/content/${FREE_ITEM.slug}/share`, { channel: "x" }, "pro", {
            origin: "https://evil.example",
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await put(`/api/courses/${FREE_COURSE.slug}/progress/${FREE_COURSE.lessons![0]}`, "pro", {
            origin: "https://evil.example",
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await call(server.url, `/api/content/${FREE_ITEM.slug}/view`, "", {
            origin: "https://evil.example",
            headers: { "user-agent": BROWSER },
          })
        ).status,
      ).toBe(403);
      expect(await counters(FREE_ITEM.slug)).toMatchObject({ likeCount: 0, shareCount: 0, viewCount: 0 });
    });

    it("validates input: share channel and body (400), ids (400), unknown items and courses (404)", async () => {
      const share = `/api/content/${FREE_ITEM.slug}/share`;
      const bad = await post(share, { channel: "myspace" }, "pro");
      expect(bad.status).toBe(400);
      expect(await errorOf(bad)).toMatchObject({ code: "BAD_USER_INPUT" });
      expect((await post(share, { channel: "x", extra: 1 }, "pro")).status).toBe(400);
      expect((await post(share, {}, "pro")).status).toBe(400);
      expect((await post(share, "not json", "pro")).status).toBe(400);
      expect((await put("/api/content/bad%20slug/like", "pro")).status).toBe(400);

      for (const res of [
        await put("/api/content/no-such-item/like", "pro"),
        await post("/api/content/no-such-item/share", { channel: "x" }, "pro"),
        await beacon("no-such-item", BROWSER),
        await get("/api/courses/no-such-course/progress", "pro"),
        // an article is not a course
        await get(`/api/courses/${FREE_ITEM.slug}/progress`, "pro"),
        // a lesson of another course
        await put(`/api/courses/${FREE_COURSE.slug}/progress/${BASIC_COURSE.lessons![1]}`, "pro"),
      ]) {
        expect(res.status, res.url).toBe(404);
        expect((await errorOf(res)).code).toBe("NOT_FOUND");
      }
      expect((await counters(FREE_ITEM.slug)).shareCount).toBe(0);
    });
  });

  it("likes are idempotent and shown on the reader's own page only", async () => {
    const path = `/api/content/${FREE_ITEM.slug}/like`;
    const liked = await put(path, "pro");
    expect(liked.status).toBe(200);
    expect(await liked.json()).toEqual({ liked: true, likeCount: 1 });
    expect(await (await put(path, "pro")).json()).toEqual({ liked: true, likeCount: 1 });
    expect(await (await put(path, "free")).json()).toEqual({ liked: true, likeCount: 2 });
    expect(await (await del(path, "free")).json()).toEqual({ liked: false, likeCount: 1 });
    expect(await (await del(path, "free")).json()).toEqual({ liked: false, likeCount: 1 });

    const proPage = await (await get(`/content/${FREE_ITEM.slug}`, "pro")).text();
    expect(proPage).toMatch(/<button[^>]*aria-pressed="true"[^>]*>(<svg[^>]*>.*?<\/svg>)?<span>Like<\/span>/);
    const freePage = await (await get(`/content/${FREE_ITEM.slug}`, "free")).text();
    expect(freePage).toMatch(
      /<button[^>]*aria-pressed="false"[^>]*>(<svg[^>]*>.*?<\/svg>)?<span>Like<\/span>/,
    );
    const visitorPage = await (await get(`/content/${FREE_ITEM.slug}`, "visitor")).text();
    expect(visitorPage).not.toMatch(
      /<button[^>]*aria-pressed="(true|false)"[^>]*>(<svg[^>]*>.*?<\/svg>)?<span>Like<\/span>/,
    );
    expect(visitorPage).toContain("Sign in to like");

    // with an ID token the like is the user's too (no Origin needed: no cookie)
    const token = await call(server.url, "/api/account/token", {}, { cookie: cookies.pro });
    expect(token.status).toBe(200);
    const { idToken } = (await token.json()) as { idToken: string };
    const byToken = await call(server.url, path, undefined, {
      method: "DELETE",
      origin: null,
      headers: { authorization: `Bearer ${idToken}` },
    });
    expect(await byToken.json()).toEqual({ liked: false, likeCount: 0 });
  });

  it("counts a share once per user, item, channel and day", async () => {
    const path = `/api/content/${FREE_ITEM.slug}/share`;
    expect(await (await post(path, { channel: "x" }, "pro")).json()).toEqual({ shareCount: 1 });
    expect(await (await post(path, { channel: "x" }, "pro")).json()).toEqual({ shareCount: 1 });
    expect(await (await post(path, { channel: "email" }, "pro")).json()).toEqual({ shareCount: 2 });
    expect(await (await post(path, { channel: "x" }, "free")).json()).toEqual({ shareCount: 3 });
  });

  it("the view beacon counts a reader once a day and never a bot", async () => {
    const bot = await beacon(VIEWED_ITEM.slug, BOT);
    expect(bot.status).toBe(200);
    expect(await bot.json()).toEqual({ counted: false });
    expect((await counters(VIEWED_ITEM.slug)).viewCount).toBe(0);

    expect(await (await beacon(VIEWED_ITEM.slug, BROWSER)).json()).toEqual({ counted: true });
    expect(await (await beacon(VIEWED_ITEM.slug, BROWSER)).json()).toEqual({ counted: false });
    // a signed-in reader in a browser (a session is bound to the browser that signed in)
    const browser = await signInCookie(server.url, "basic@demo.local", DEMO_PASSWORD, {
      "user-agent": BROWSER,
    });
    const inBrowser = { cookie: browser, headers: { "user-agent": BROWSER } };
    const burst = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(server.url, `/api/content/${VIEWED_ITEM.slug}/view`, "", inBrowser),
      ),
    );
    const counted = await Promise.all(
      burst.map(async (r) => ((await r.json()) as { counted: boolean }).counted),
    );
    expect(counted.filter(Boolean)).toHaveLength(1);
    expect((await counters(VIEWED_ITEM.slug)).viewCount).toBe(2);

    // the page shows it in the metadata line (the signed-in page is rendered per request)
    const page = await call(server.url, `/content/${VIEWED_ITEM.slug}`, undefined, inBrowser);
    expect(await page.text()).toContain("2 views");
    // a visitor's view row holds no address
    const keys = await server.runtime.database.db.selectFrom("content_view").select("readerKey").execute();
    expect(keys.some((k) => k.readerKey.includes("127.0.0.1"))).toBe(false);
  });

  it("tracks a signed-in reader's course progress to completion", async () => {
    const base = `/api/courses/${FREE_COURSE.slug}/progress`;
    const start = await get(base, "free");
    expect(start.status).toBe(200);
    const empty = (await start.json()) as Progress;
    expect(empty).toMatchObject({
      total: FREE_COURSE.lessons!.length,
      completed: 0,
      percent: 0,
      complete: false,
    });
    expect(empty.completedAt).toBeUndefined();

    const [first, ...rest] = empty.lessonIds as [string, ...string[]];
    const one = (await (await put(`${base}/${first}`, "free")).json()) as Progress;
    expect(one.completedLessonIds).toEqual([first]);
    // by slug, twice: idempotent
    for (let i = 0; i < 2; i++) await put(`${base}/${FREE_COURSE.lessons![1]}`, "free");
    let progress = (await (await get(base, "free")).json()) as Progress;
    expect(progress.completed).toBe(2);
    for (const id of rest) progress = (await (await put(`${base}/${id}`, "free")).json()) as Progress;
    expect(progress).toMatchObject({ complete: true, percent: 100, completed: empty.total });
    expect(progress.completedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const page = await (await get(`/content/${FREE_COURSE.slug}`, "free")).text();
    expect(page).toContain("Course complete");
    expect(page).toContain(`${empty.total} of ${empty.total} lessons complete`);
    // someone else's progress is their own
    expect(((await (await get(base, "pro")).json()) as Progress).completed).toBe(0);
    const visitorPage = await (await get(`/content/${FREE_COURSE.slug}`, "visitor")).text();
    expect(visitorPage).toContain("Sign in to track your progress");
    expect(visitorPage).not.toContain("Course complete");

    const undone = (await (await del(`${base}/${first}`, "free")).json()) as Progress;
    expect(undone).toMatchObject({ complete: false, completed: empty.total - 1 });
    expect(undone.completedAt).toBeUndefined();
  });
});
