/**
 * The reader's dashboard over HTTP (issue 15): what each demo reader's dashboard holds (never an
 * item above their plan; the upgrade block is the next plan up), course progress with the next
 * lesson, the bookmarks API and the reading-time beacon, each with its unauthorized-access suite
 * and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TIERS, type Tier } from "../../core/index.ts";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import type { DashboardData } from "../../server/modules/dashboard/dashboard.types.ts";
import { call } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { DIALECTS, signIn, startTestServer, type TestServer } from "../helpers/test-server.ts";

type Reader = "free" | "basic" | "pro" | "enterprise" | "business";
type Who = Reader | "visitor";
const READERS: Array<{ who: Reader; tier: Tier; next: Tier | null }> = [
  { who: "free", tier: "Free", next: "Basic" },
  { who: "basic", tier: "Basic", next: "Pro" },
  { who: "pro", tier: "Pro", next: "Enterprise" },
  { who: "enterprise", tier: "Enterprise", next: null },
  { who: "business", tier: "Enterprise", next: null },
];
const rank = (tier: string) => TIERS.indexOf(tier as Tier);

const open = (c: (typeof DEMO_CONTENT)[number]) => !c.rolesRequired?.length;
const itemsOf = (tier: Tier) => DEMO_CONTENT.filter((c) => c.tier === tier && open(c) && c.type !== "course");
const FREE_COURSE = DEMO_CONTENT.find((c) => c.type === "course" && c.tier === "Free" && c.lessons?.length)!;

interface Progress {
  lessonIds: string[];
  completedLessonIds: string[];
}

describe.each(DIALECTS)("reader dashboard (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Reader, string>> = {};
  let apiKey: string;
  /** One item per plan, published an hour ago ("new since your last visit"). */
  const fresh: Partial<Record<Tier, string>> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET });
    for (const { who } of READERS)
      cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    const created = await call(
      server.url,
      "/api/account/api-keys",
      { name: "dashboard test", scopes: ["content:read"] },
      { cookie: cookies.pro },
    );
    expect(created.status).toBe(201);
    apiKey = ((await created.json()) as { key: string }).key;
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    for (const tier of TIERS) {
      const slug = itemsOf(tier).at(-1)!.slug;
      fresh[tier] = slug;
      await server.runtime.database.db
        .updateTable("content")
        .set({ publishedAt: hourAgo })
        .where("slug", "=", slug)
        .execute();
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const as = (who: Who) => (who === "visitor" ? {} : { cookie: cookies[who] });
  const req = (
    method: string,
    path: string,
    who: Who,
    body?: unknown,
    extra: Parameters<typeof call>[3] = {},
  ) => call(server.url, path, body, { method, ...as(who), ...extra });
  const errorOf = async (res: Response) =>
    ((await res.json()) as { error: { code: string; message: string; field?: Record<string, string> } })
      .error;
  const db = () => server.runtime.database.db;
  const idOf = async (slug: string) =>
    (await db().selectFrom("content").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;
  const userIdOf = async (who: Reader) =>
    (
      await db()
        .selectFrom("user")
        .select("id")
        .where("email", "=", `${who}@demo.local`)
        .executeTakeFirstOrThrow()
    ).id;
  const dashboard = async (who: Reader) => {
    const res = await req("GET", "/api/dashboard", who);
    expect(res.status).toBe(200);
    return (await res.json()) as DashboardData;
  };

  describe("bookmarks and reading: unauthorized access and bad input", () => {
    const item = itemsOf("Free")[0]!;

    it("visitors get 401", async () => {
      for (const res of [
        await req("GET", "/api/bookmarks", "visitor"),
        await req("PUT", `/api/bookmarks/${item.slug}`, "visitor"),
        await req("DELETE", `/api/bookmarks/${item.slug}`, "visitor"),
        await req("POST", "/api/reading", "visitor", { contentId: item.slug, seconds: 10 }),
        await req("GET", "/api/dashboard", "visitor"),
      ]) {
        expect(res.status, res.url).toBe(401);
        expect((await errorOf(res)).code).toBe("UNAUTHENTICATED");
      }
      expect(await db().selectFrom("bookmark").selectAll().execute()).toEqual([]);
    });

    it("API keys are refused (403): saved items and reading time are personal", async () => {
      const key = { headers: { "x-api-key": apiKey }, origin: null };
      for (const res of [
        await req("GET", "/api/bookmarks", "visitor", undefined, key),
        await req("PUT", `/api/bookmarks/${item.slug}`, "visitor", undefined, key),
        await req("POST", "/api/reading", "visitor", { contentId: item.slug, seconds: 10 }, key),
        await req("GET", "/api/dashboard", "visitor", undefined, key),
      ]) {
        expect(res.status, res.url).toBe(403);
        expect((await errorOf(res)).message).toContain("API key");
      }
    });

    it("refuses cookie-authenticated changes from a foreign Origin or with none", async () => {
      for (const origin of ["https://evil.example", null]) {
        expect((await req("PUT", `/api/bookmarks/${item.slug}`, "pro", undefined, { origin })).status).toBe(
          403,
        );
        expect(
          (await req("DELETE", `/api/bookmarks/${item.slug}`, "pro", undefined, { origin })).status,
        ).toBe(403);
        const ping = await req(
          "POST",
          "/api/reading",
          "pro",
          { contentId: item.slug, seconds: 10 },
          { origin },
        );
        expect(ping.status).toBe(403);
        expect((await errorOf(ping)).code).toBe("FORBIDDEN_ORIGIN");
      }
      expect(await db().selectFrom("bookmark").selectAll().execute()).toEqual([]);
      expect(await db().selectFrom("reading_activity").selectAll().execute()).toEqual([]);
    });

    it("a reader may not save or record reading on an item above their plan (403)", async () => {
      const pro = itemsOf("Pro")[0]!;
      const save = await req("PUT", `/api/bookmarks/${pro.slug}`, "free");
      expect(save.status).toBe(403);
      expect((await errorOf(save)).code).toBe("FORBIDDEN");
      const ping = await req("POST", "/api/reading", "free", { contentId: pro.slug, seconds: 30 });
      expect(ping.status).toBe(403);
      expect((await errorOf(ping)).message).toContain("items you can read");
      expect(await db().selectFrom("bookmark").selectAll().execute()).toEqual([]);
      expect(await db().selectFrom("reading_activity").selectAll().execute()).toEqual([]);
    });

    it("bad input: 400 naming the field; unknown items 404", async () => {
      expect((await req("PUT", "/api/bookmarks/bad%20slug", "pro")).status).toBe(400);
      const unknown = await req("PUT", "/api/bookmarks/no-such-item", "pro");
      expect(unknown.status).toBe(404);
      expect((await errorOf(unknown)).code).toBe("NOT_FOUND");
      for (const [body, field] of [
        [{ contentId: item.slug, seconds: "ten" }, "seconds"],
        [{ contentId: item.slug, seconds: -5 }, "seconds"],
        [{ contentId: item.slug }, "seconds"],
        [{ seconds: 10 }, "contentId"],
        [{ contentId: item.slug, seconds: 10, extra: true }, null],
      ] as const) {
        const res = await req("POST", "/api/reading", "pro", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const error = await errorOf(res);
        expect(error.code).toBe("BAD_USER_INPUT");
        if (field) expect(error.message).toContain(field);
      }
      expect((await req("POST", "/api/reading", "pro", "not json")).status).toBe(400);
      expect(
        (await req("POST", "/api/reading", "pro", { contentId: "no-such-item", seconds: 5 })).status,
      ).toBe(404);
    });
  });

  it("bookmarks are idempotent, newest first, and each reader sees only their own", async () => {
    const [a, b] = itemsOf("Free");
    const pro = itemsOf("Pro")[1]!;
    expect(await (await req("PUT", `/api/bookmarks/${a!.slug}`, "pro")).json()).toEqual({
      contentId: await idOf(a!.slug),
      saved: true,
    });
    expect((await req("PUT", `/api/bookmarks/${a!.slug}`, "pro")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    expect((await req("PUT", `/api/bookmarks/${pro.slug}`, "pro")).status).toBe(200);
    expect((await req("PUT", `/api/bookmarks/${b!.slug}`, "free")).status).toBe(200);

    const mine = (await (await req("GET", "/api/bookmarks", "pro")).json()) as {
      items: Array<{ item: { slug: string; locked: boolean } }>;
      total: number;
    };
    expect(mine.total).toBe(2);
    expect(mine.items.map((i) => i.item.slug)).toEqual([pro.slug, a!.slug]);
    const theirs = (await (await req("GET", "/api/bookmarks", "free")).json()) as typeof mine;
    expect(theirs.items.map((i) => i.item.slug)).toEqual([b!.slug]);

    // the content page shows the reader's own Save state only
    const page = await (await req("GET", `/content/${a!.slug}`, "pro")).text();
    expect(page).toMatch(/<button[^>]*aria-pressed="true"[^>]*>(<svg[^>]*>.*?<\/svg>)?<span>Saved<\/span>/);
    const freePage = await (await req("GET", `/content/${a!.slug}`, "free")).text();
    expect(freePage).toMatch(
      /<button[^>]*aria-pressed="false"[^>]*>(<svg[^>]*>.*?<\/svg>)?<span>Save<\/span>/,
    );
    expect(await (await req("GET", `/content/${a!.slug}`, "visitor")).text()).toContain("Sign in to save");

    expect(await (await req("DELETE", `/api/bookmarks/${pro.slug}`, "pro")).json()).toMatchObject({
      saved: false,
    });
    expect((await req("DELETE", `/api/bookmarks/${pro.slug}`, "pro")).status).toBe(200);
    expect(((await (await req("GET", "/api/bookmarks", "pro")).json()) as typeof mine).total).toBe(1);
  });

  it("reading pings are clamped to 60 s each and 4 h per item and day", async () => {
    const item = itemsOf("Basic")[0]!;
    const id = await idOf(item.slug);
    const first = await req("POST", "/api/reading", "basic", { contentId: item.slug, seconds: 500 });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ added: 60, today: 60 });
    expect(
      await (await req("POST", "/api/reading", "basic", { contentId: id, seconds: 12.7 })).json(),
    ).toEqual({ added: 12, today: 72 });
    expect(await (await req("POST", "/api/reading", "basic", { contentId: id, seconds: 0 })).json()).toEqual({
      added: 0,
      today: 72,
    });
    const userId = await userIdOf("basic");
    await db()
      .updateTable("reading_activity")
      .set({ seconds: 4 * 3600 - 10 })
      .where("userId", "=", userId)
      .where("contentId", "=", id)
      .execute();
    expect(await (await req("POST", "/api/reading", "basic", { contentId: id, seconds: 60 })).json()).toEqual(
      {
        added: 10,
        today: 4 * 3600,
      },
    );
    expect(await (await req("POST", "/api/reading", "basic", { contentId: id, seconds: 60 })).json()).toEqual(
      {
        added: 0,
        today: 4 * 3600,
      },
    );
    const rows = await db().selectFrom("reading_activity").selectAll().where("userId", "=", userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ contentId: id, day: new Date().toISOString().slice(0, 10) });
    expect(rows[0]!.firstAt <= rows[0]!.lastAt).toBe(true);
  });

  it("course progress shows on the dashboard with the next lesson", async () => {
    const base = `/api/courses/${FREE_COURSE.slug}/progress`;
    const start = (await (await req("GET", base, "pro")).json()) as Progress;
    const [first, second] = start.lessonIds;
    expect(second).toBeDefined();
    expect((await req("PUT", `${base}/${first}`, "pro")).status).toBe(200);
    const data = await dashboard("pro");
    const course = data.continueReading.find((c) => c.item.slug === FREE_COURSE.slug);
    expect(course?.progress).toMatchObject({
      completed: 1,
      total: start.lessonIds.length,
      complete: false,
      nextLesson: { id: second },
    });
    expect(course!.progress!.percent).toBe(Math.floor(100 / start.lessonIds.length));
    // the progressed course and its lessons are not recommended again
    expect(data.recommended.map((r) => r.slug)).not.toContain(FREE_COURSE.slug);
    // another reader's progress is theirs
    expect((await dashboard("basic")).continueReading.map((c) => c.item.slug)).not.toContain(
      FREE_COURSE.slug,
    );
  });

  it.each(READERS)(
    "$who: nothing above the plan, the upgrade block is the next plan",
    async ({ who, tier, next }) => {
      // some reading and a saved item in the reader's own plan, and an attempt above it
      const own = itemsOf(tier);
      expect((await req("POST", "/api/reading", who, { contentId: own[2]!.slug, seconds: 45 })).status).toBe(
        200,
      );
      expect((await req("PUT", `/api/bookmarks/${own[3]!.slug}`, who)).status).toBe(200);
      if (next) {
        expect((await req("PUT", `/api/bookmarks/${itemsOf(next)[0]!.slug}`, who)).status).toBe(403);
      }
      const data = await dashboard(who);
      expect(data.tier).toBe(tier);
      expect(data.unavailable).toEqual([]);
      const all = [
        ...data.continueReading.map((c) => c.item),
        ...data.saved.map((s) => s.item),
        ...data.fresh.items,
        ...data.recommended,
      ];
      expect(all.length).toBeGreaterThan(0);
      for (const item of all) {
        expect(rank(item.tier), `${item.slug} (${item.tier}) for ${who}`).toBeLessThanOrEqual(rank(tier));
        expect(item.locked).toBe(false);
      }
      expect(data.continueReading.map((c) => c.item.slug)).toContain(own[2]!.slug);
      expect(data.saved.map((s) => s.item.slug)).toContain(own[3]!.slug);
      // new since the last visit: the items of the reader's plans published an hour ago, none above
      const freshSlugs = data.fresh.items.map((i) => i.slug);
      for (const t of TIERS) {
        if (rank(t) <= rank(tier)) expect(freshSlugs).toContain(fresh[t]);
        else expect(freshSlugs).not.toContain(fresh[t]);
      }
      expect(data.fresh.firstVisit).toBe(true);
      // recommendations never repeat what was read or saved
      const recommended = data.recommended.map((r) => r.slug);
      expect(recommended).not.toContain(own[2]!.slug);
      expect(recommended).not.toContain(own[3]!.slug);
      expect(recommended.length).toBeLessThanOrEqual(6);
      if (next) {
        expect(data.upgrade?.tier).toBe(next);
        const expected = DEMO_CONTENT.filter((c) => c.tier === next && open(c)).length;
        expect(data.upgrade!.items).toBe(expected);
        for (const h of data.upgrade!.highlights) {
          expect(DEMO_CONTENT.find((c) => c.slug === h.slug)?.tier).toBe(next);
        }
        // the teaser names titles only, never a body
        expect(JSON.stringify(data.upgrade)).not.toMatch(/"body"|bodyS3Key/);
      } else {
        expect(data.upgrade).toBeNull();
      }
      if (who === "business") expect(data.organisationPlan).not.toBeNull();
      if (who === "pro" || who === "free") expect(data.organisationPlan).toBeNull();
    },
  );

  it("'new since your last visit' counts from the visit before this one", async () => {
    const userId = await userIdOf("enterprise");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
    await db()
      .insertInto("user_visit")
      .values({ userId, lastDashboardAt: twoHoursAgo, previousDashboardAt: null })
      .onConflict((oc) =>
        oc.column("userId").doUpdateSet({ lastDashboardAt: twoHoursAgo, previousDashboardAt: null }),
      )
      .execute();
    const data = await dashboard("enterprise");
    expect(data.fresh).toMatchObject({ since: twoHoursAgo, firstVisit: false });
    expect(data.fresh.items.map((i) => i.slug)).toContain(fresh.Enterprise);
    // a reload soon after keeps the same mark
    expect((await dashboard("enterprise")).fresh.since).toBe(twoHoursAgo);
  });
});
