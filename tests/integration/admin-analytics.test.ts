/**
 * Analytics and the overview for platform administrators (issue 14; /api/admin/analytics,
 * /api/admin/analytics/export, /api/admin/overview): who may read them (a visitor, every demo
 * account and an API key), real numbers (views by different readers, searches that find nothing,
 * a sign-up, an upgrade and a cancellation through the billing API, a course completion, a
 * failed sign-in) change the series, totals and comparison by exactly what was done, the previous
 * period, bad input (400 naming the parameter), the CSV and the /admin figures by scope.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import type { AnalyticsReport, OverviewReport } from "../../server/modules/analytics/analytics.service.ts";
import { REDACTED_QUERY } from "../../server/modules/analytics/analytics-recorder.ts";
import { createAuditRepo } from "../../server/modules/audit/audit.repo.ts";
import { call, newAccount, signInCookie } from "../helpers/auth.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const API = "/api/admin/analytics";
const EXPORT = "/api/admin/analytics/export";
const OVERVIEW = "/api/admin/overview";
const ACCOUNTS = ["free", "basic", "pro", "enterprise", "business", "manager", "admin", "owner", "writer"];
const ALLOWED = new Set(["admin", "owner"]);
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const article = (tier: string, skip: string[] = []) =>
  DEMO_CONTENT.find(
    (c) => c.tier === tier && c.type === "article" && !c.rolesRequired?.length && !skip.includes(c.slug),
  )!;
const FREE_ITEM = article("Free");
const PRO_ITEM = article("Pro");
const COURSE = DEMO_CONTENT.find((c) => c.type === "course" && c.tier === "Free" && c.lessons?.length)!;

const today = () => new Date().toISOString().slice(0, 10);
const dayBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) - n * 86_400_000).toISOString().slice(0, 10);

describe.each(DIALECTS)("admin analytics API (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  let apiKey = "";

  const req = (
    path: string,
    who: string | null = "admin",
    body?: unknown,
    extra: Parameters<typeof call>[3] = {},
  ) =>
    call(server.url, path, body, {
      ...extra,
      cookie: who ? cookies[who] : undefined,
      headers: { "user-agent": BROWSER, ...(extra.headers ?? {}) },
    });
  const report = async (query = "days=7"): Promise<AnalyticsReport> => {
    const res = await req(`${API}?${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as AnalyticsReport;
  };
  const overview = async (query = "period=7d"): Promise<OverviewReport> => {
    const res = await req(`${OVERVIEW}?${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as OverviewReport;
  };
  const view = async (slug: string, who: string | null) => {
    const res = await req(`/api/content/${slug}/view`, who, "");
    expect(res.status).toBe(200);
    return ((await res.json()) as { counted: boolean }).counted;
  };
  const tier = (r: AnalyticsReport, name: string) => r.tierMix.find((t) => t.tier === name)!.readers;
  const last = <T>(list: T[]) => list[list.length - 1]!;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const who of ACCOUNTS)
      cookies[who] = await signInCookie(server.url, `${who}@demo.local`, DEMO_PASSWORD, {
        "user-agent": BROWSER,
      });
    const key = await req("/api/account/api-keys", "admin", { name: "CI", scopes: ["content:read"] });
    expect(key.status).toBe(201);
    apiKey = ((await key.json()) as { key: string }).key;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  describe("unauthorized access", () => {
    const paths = [API, `${API}?days=30`, `${EXPORT}?format=csv`, OVERVIEW, `${OVERVIEW}?period=90d`];

    it("refuses visitors (401)", async () => {
      for (const path of paths) {
        const res = await req(path, null);
        expect(res.status, path).toBe(401);
        expect((await res.json()).error.code).toBe("UNAUTHENTICATED");
      }
    });

    it("lets only platform administrators in: every demo account (business@ included) gets 403", async () => {
      for (const who of ACCOUNTS) {
        for (const path of paths) {
          const res = await req(path, who);
          if (ALLOWED.has(who)) {
            expect(res.status, `${who} ${path}`).toBe(200);
          } else {
            expect(res.status, `${who} ${path}`).toBe(403);
            const body = await res.json();
            expect(body.error.code).toBe("FORBIDDEN");
            // no figures in a refusal
            expect(JSON.stringify(body)).not.toMatch(/tierMix|series|readers/);
          }
        }
      }
    });

    it("refuses API keys and service credentials' requests (403)", async () => {
      for (const path of paths) {
        const res = await fetch(`${server.url}${path}`, { headers: { "x-api-key": apiKey } });
        expect(res.status, path).toBe(403);
      }
    });

    it("keeps platform figures off /admin/overview and /admin/analytics for business@, and /admin shows only Acme", async () => {
      for (const path of ["/admin/overview", "/admin/analytics"]) {
        const res = await req(path, "business");
        expect(res.status, path).toBe(403);
      }
      const index = await req("/admin", "business");
      expect(index.status).toBe(200);
      const html = await index.text();
      expect(html).toContain("Acme");
      expect(html).not.toContain("Paying readers");
      const platform = await (await req("/admin", "admin")).text();
      expect(platform).toContain("Paying readers");
    });
  });

  describe("numbers from what happened", () => {
    it("counts views, readers, searches, a sign-up, an upgrade, a cancellation, a completion and content published", async () => {
      const db = server.runtime.database.db;
      const before = await report("days=7");
      const overviewBefore = await overview("period=7d");
      expect(before.series).toHaveLength(7);
      expect(before.previousSeries).toHaveLength(7);
      expect(last(before.series).day).toBe(today());
      expect(before.range).toMatchObject({ from: dayBefore(today(), 6), to: today(), days: 7 });
      expect(before.range.previous).toEqual({ from: dayBefore(today(), 13), to: dayBefore(today(), 7) });

      // Views: a visitor, free@ (twice: counted once) and pro@ read the free item; pro@ also the pro item.
      expect(await view(FREE_ITEM.slug, null)).toBe(true);
      expect(await view(FREE_ITEM.slug, "free")).toBe(true);
      expect(await view(FREE_ITEM.slug, "free")).toBe(false);
      expect(await view(FREE_ITEM.slug, "pro")).toBe(true);
      expect(await view(PRO_ITEM.slug, "pro")).toBe(true);
      // A bot is never counted.
      const bot = await req(`/api/content/${FREE_ITEM.slug}/view`, null, "", {
        headers: { "user-agent": "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)" },
      });
      expect(await bot.json()).toEqual({ counted: false });

      // Searches: one word that finds nothing (twice), one that finds something, an e-mail address.
      // letters only: 7 or more digits would read as a phone number and not be stored
      const nothing = `zq${Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;
      for (let i = 0; i < 2; i++) {
        const res = await req(`/api/search?q=${encodeURIComponent(` ${nothing.toUpperCase()} `)}`, "free");
        expect(res.status).toBe(200);
        expect(((await res.json()) as { total: number }).total).toBe(0);
      }
      const found = await req("/api/search?q=prompt", null);
      expect(((await found.json()) as { total: number }).total).toBeGreaterThan(0);
      const email = await req(`/api/search?q=${encodeURIComponent("someone.private@example.com")}`, null);
      const emailFound = ((await email.json()) as { total: number }).total;

      // A sign-up.
      const signUp = await call(server.url, "/api/auth/sign-up/email", newAccount("analytics"));
      expect(signUp.status).toBe(200);

      // An upgrade (free → pro) and a cancellation (pro → free) through the billing API.
      const granted = await req("/api/admin/subscriptions", "admin", {
        email: "free@demo.local",
        planId: "pro",
        days: 30,
        note: "analytics test",
      });
      expect(granted.status, await granted.clone().text()).toBe(201);
      const grant = (await granted.json()) as { id: string; version: number };
      const afterGrant = await report("days=7");
      expect(tier(afterGrant, "pro")).toBe(tier(before, "pro") + 1);
      // free@ left Free, the new sign-up joined it
      expect(tier(afterGrant, "free")).toBe(tier(before, "free"));
      const canceled = await req(`/api/admin/subscriptions/${grant.id}/cancel`, "admin", {
        version: grant.version,
        when: "now",
        note: "analytics test",
      });
      expect(canceled.status, await canceled.clone().text()).toBe(200);

      // A course completion by enterprise@: every lesson done.
      const progress = await req(`/api/courses/${COURSE.slug}/progress`, "enterprise");
      expect(progress.status).toBe(200);
      const { lessonIds } = (await progress.json()) as { lessonIds: string[] };
      expect(lessonIds.length).toBeGreaterThan(1);
      for (const [i, lessonId] of lessonIds.entries()) {
        const res = await req(`/api/courses/${COURSE.slug}/progress/${lessonId}`, "enterprise", undefined, {
          method: "PUT",
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { complete: boolean };
        expect(body.complete).toBe(i === lessonIds.length - 1);
      }

      // Content published today: an item first published long ago is published again now.
      const republished = await db
        .selectFrom("content")
        .select("id")
        .where("status", "=", "published")
        .where("publishedAt", "<", `${dayBefore(today(), 20)}T00:00:00.000Z`)
        .executeTakeFirstOrThrow();
      await db
        .updateTable("content")
        .set({ publishedAt: new Date().toISOString() })
        .where("id", "=", republished.id)
        .execute();

      const after = await report("days=7");
      const delta = (key: keyof AnalyticsReport["totals"]) => after.totals[key] - before.totals[key];
      expect(delta("views")).toBe(4);
      expect(delta("readers")).toBe(3);
      expect(delta("signUps")).toBe(1);
      expect(delta("upgrades")).toBe(1);
      expect(delta("conversions")).toBe(1);
      expect(delta("downgrades")).toBe(1);
      expect(delta("churn")).toBe(1);
      expect(delta("completions")).toBe(1);
      expect(delta("published")).toBe(1);
      expect(delta("searches")).toBe(4);
      expect(delta("zeroResultSearches")).toBe(2 + (emailFound === 0 ? 1 : 0));
      // Today's row carries it all; the previous period did not move.
      const todayAfter = last(after.series);
      const todayBefore = last(before.series);
      expect(todayAfter.views - todayBefore.views).toBe(4);
      expect(todayAfter.signUps - todayBefore.signUps).toBe(1);
      expect(after.previousTotals).toEqual(before.previousTotals);
      // By tier: the visitor, free@ and pro@ twice.
      const byTier = (r: AnalyticsReport, t: string) => r.viewsByTier.find((v) => v.tier === t)!.views;
      expect(byTier(after, "visitor") - byTier(before, "visitor")).toBe(1);
      expect(byTier(after, "free") - byTier(before, "free")).toBe(1);
      expect(byTier(after, "pro") - byTier(before, "pro")).toBe(2);
      expect(after.topContent.pro.map((i) => i.title)).toEqual(
        expect.arrayContaining([FREE_ITEM.title, PRO_ITEM.title]),
      );
      expect(after.topContent.visitor.find((i) => i.slug === FREE_ITEM.slug)?.path).toBe(
        `/content/${FREE_ITEM.slug}`,
      );
      expect(after.topContent.all.find((i) => i.slug === FREE_ITEM.slug)!.views).toBeGreaterThanOrEqual(3);
      // Searches: normalised, counted, and no e-mail address stored.
      expect(after.zeroResultSearches).toContainEqual({ query: nothing, searches: 2, zeroResults: 2 });
      expect(after.zeroResultSearches.some((s) => s.query === "prompt")).toBe(false);
      const stored = await db.selectFrom("analytics_search_daily").select("query").execute();
      expect(stored.map((s) => s.query)).toContain(REDACTED_QUERY);
      expect(JSON.stringify(stored)).not.toContain("example.com");
      // The aggregates hold no reader ids.
      const readerRows = await db.selectFrom("analytics_reader_day").selectAll().execute();
      const ids = (await db.selectFrom("user").select("id").execute()).map((u) => u.id);
      for (const row of readerRows) for (const id of ids) expect(row.readerHash).not.toContain(id);
      // The tier mix is back where it was (free@ cancelled), plus the sign-up as free.
      expect(tier(after, "pro")).toBe(tier(before, "pro"));
      expect(tier(after, "free")).toBe(tier(before, "free") + 1);

      // The overview shows the same period's figures, and the failed sign-in below.
      const failed = await call(server.url, "/api/auth/sign-in/email", {
        email: "basic@demo.local",
        password: "not-the-password-1A!",
      });
      expect(failed.status).toBeGreaterThanOrEqual(400);
      const ov = await overview("period=7d");
      expect(ov.totals).toEqual(after.totals);
      expect(ov.previousTotals).toEqual(after.previousTotals);
      expect(ov.readers.byTier).toEqual(after.tierMix);
      expect(ov.readers.total).toBe(after.tierMix.reduce((n, t) => n + t.readers, 0));
      expect(ov.readers.paying).toBe(ov.readers.total - tier(after, "free"));
      expect(ov.securityCounts.sign_in_failure).toBe(overviewBefore.securityCounts.sign_in_failure + 1);
      expect(ov.securityEvents[0]).toMatchObject({ action: "sign_in_failure", label: "Sign-in failed" });
      expect(ov.topContent).toEqual(after.topContent.all);
      expect(ov.range).toMatchObject({ days: 7, to: today() });
      expect(ov.failedSyncs).toEqual([]);
      expect(ov.failedSyncCount).toBe(0);
      // A repository whose last sync failed is listed, with its reason.
      const repo = await db.selectFrom("github_repository").select(["id", "slug"]).executeTakeFirstOrThrow();
      await db
        .updateTable("github_repository")
        .set({ lastSyncError: "GitHub answered 401", lastSyncErrorAt: new Date().toISOString() })
        .where("id", "=", repo.id)
        .execute();
      const failing = await overview("period=7d");
      expect(failing.failedSyncCount).toBe(1);
      expect(failing.failedSyncs).toEqual([
        expect.objectContaining({ id: repo.id, slug: repo.slug, error: "GitHub answered 401" }),
      ]);
      const glance = await (await req("/admin", "admin")).text();
      expect(glance).toContain("Failed repository syncs");
      await db
        .updateTable("github_repository")
        .set({ lastSyncError: null, lastSyncErrorAt: null })
        .where("id", "=", repo.id)
        .execute();
      const month = await overview("period=30d");
      expect(month.range.days).toBe(30);
      expect(month.totals.signUps).toBeGreaterThanOrEqual(ov.totals.signUps);
    });

    it("compares with the previous period of equal length", async () => {
      const db = server.runtime.database.db;
      const before = await report("days=7");
      const item = await db
        .selectFrom("content")
        .select("id")
        .where("slug", "=", FREE_ITEM.slug)
        .executeTakeFirstOrThrow();
      // Recorded figures of days in the previous period (as the recorder would have left them).
      const previousDay = dayBefore(today(), 9);
      await db
        .insertInto("analytics_daily")
        .values({ day: previousDay, contentId: item.id, views: 5, freeViews: 5 })
        .execute();
      await db
        .insertInto("analytics_site_daily")
        .values({ day: previousDay, readers: 4, freeReaders: 4 })
        .execute();
      await createAuditRepo(db).append({
        action: "entitlement_changed",
        at: `${dayBefore(today(), 8)}T12:00:00.000Z`,
        targetType: "user",
        targetId: randomUUID(),
        details: { fromTier: "basic", toTier: "enterprise", reason: "test" },
      });
      // Outside both periods: never counted.
      await db
        .insertInto("analytics_daily")
        .values({ day: dayBefore(today(), 14), contentId: item.id, views: 100, freeViews: 100 })
        .execute();

      const after = await report("days=7");
      expect(after.totals).toEqual(before.totals);
      expect(after.previousTotals.views - before.previousTotals.views).toBe(5);
      expect(after.previousTotals.readers - before.previousTotals.readers).toBe(4);
      expect(after.previousTotals.upgrades - before.previousTotals.upgrades).toBe(1);
      expect(after.previousTotals.conversions - before.previousTotals.conversions).toBe(0);
      const index = after.previousSeries.findIndex((d) => d.day === previousDay);
      expect(index).toBe(4);
      expect(after.previousSeries[index]!.views).toBe(5);

      // A custom range holding that day counts it as current; 15 days reach the 100 too.
      const custom = await report(`from=${dayBefore(today(), 9)}&to=${dayBefore(today(), 9)}`);
      expect(custom.range).toMatchObject({ days: 1, preset: null });
      expect(custom.totals.views).toBe(5);
      expect(custom.series).toEqual([expect.objectContaining({ day: previousDay, views: 5, readers: 4 })]);
      const fifteen = await report("days=15");
      expect(fifteen.totals.views).toBe(after.totals.views + 5 + 100);
    });
  });

  describe("bad input", () => {
    it("answers 400 naming the parameter", async () => {
      const cases: [string, string][] = [
        [`${API}?from=2026-02-30&to=2026-03-01`, "from"],
        [`${API}?from=yesterday`, "from"],
        [`${API}?from=2026-03-10&to=2026-03-01`, "to"],
        [`${API}?from=2024-01-01&to=2025-06-01`, "from"],
        [`${API}?to=2026-03-01`, "from"],
        [`${API}?from=${today()}&to=${dayBefore(today(), -2)}`, "to"],
        [`${API}?days=0`, "days"],
        [`${API}?days=400`, "days"],
        [`${API}?days=7&from=2026-01-01`, "days"],
        [`${API}?days=7&days=30`, "days"],
        [`${API}?period=7d`, "period"],
        [`${EXPORT}?format=xlsx`, "format"],
        [`${EXPORT}?format=csv&from=2026-13-01`, "from"],
        [`${OVERVIEW}?period=1y`, "period"],
        [`${OVERVIEW}?days=7`, "days"],
      ];
      for (const [path, field] of cases) {
        const res = await req(path);
        expect(res.status, path).toBe(400);
        const body = (await res.json()) as { error: { code: string; field?: Record<string, string> } };
        expect(body.error.code, path).toBe("BAD_USER_INPUT");
        expect(Object.keys(body.error.field ?? {}), path).toEqual([field]);
      }
    });
  });

  describe("CSV export", () => {
    it("is an attachment with a header row and one row per day matching the report", async () => {
      const res = await req(`${EXPORT}?days=7&format=csv`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="analytics-${dayBefore(today(), 6)}-to-${today()}.csv"`,
      );
      const text = await res.text();
      const lines = text.split("\r\n");
      expect(lines.pop()).toBe("");
      expect(lines[0]).toBe(
        "day,views,unique_readers,sign_ups,upgrades,downgrades,conversions,churn,course_completions,content_published,searches,zero_result_searches",
      );
      expect(lines).toHaveLength(8);
      const r = await report("days=7");
      const t = last(r.series);
      expect(lines[7]).toBe(
        [
          t.day,
          t.views,
          t.readers,
          t.signUps,
          t.upgrades,
          t.downgrades,
          t.conversions,
          t.churn,
          t.completions,
          t.published,
          t.searches,
          t.zeroResultSearches,
        ].join(","),
      );
      expect(t.views).toBeGreaterThan(0);
      const custom = await req(`${EXPORT}?from=${dayBefore(today(), 2)}&to=${today()}`);
      expect((await custom.text()).split("\r\n").filter(Boolean)).toHaveLength(4);
    });
  });
});
