/**
 * Course completion and reading reports over HTTP (issue 15): certificates issued exactly once when
 * the course's rule is met (the default: every lesson; a 50% rule), public verification (JSON,
 * page, PDF; unknown → 404; revoked → Revoked), the completion-rule API's unauthorized suite, the
 * reading report (streaks, per-section totals, only the reader's own rows), the CSV export (Basic
 * and up), and the Free reader's teaser page (200, upgrade call to action, no data).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CONTENT } from "../../server/db/seed/demo/index.ts";
import { call } from "../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../helpers/credentials.ts";
import { signInDemoReaders } from "../helpers/demo-readers.ts";
import { DIALECTS, startTestServer, type TestServer } from "../helpers/test-server.ts";

const COURSES = DEMO_CONTENT.filter(
  (c) => c.type === "course" && (c.tier === "Free" || c.tier === "Basic") && c.lessons?.length,
);
const FREE_COURSE = COURSES.find((c) => c.tier === "Free")!;
const OTHER_COURSE = COURSES.find((c) => c.slug !== FREE_COURSE.slug)!;
const ARTICLE = DEMO_CONTENT.find((c) => c.type === "article" && c.tier === "Free")!;

type Who = "visitor" | "free" | "basic" | "pro" | "manager";
const DAY_MS = 86_400_000;
const dayAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);

interface Progress {
  lessonIds: string[];
  completedLessonIds: string[];
  complete: boolean;
  certificateId?: string;
}

describe.each(DIALECTS)("learning: certificates and reports (%s)", (dialect) => {
  let server: TestServer;
  const cookies: Partial<Record<Who, string>> = {};
  const ids: Partial<Record<Who, string>> = {};
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { AUTH_SECRET: TEST_AUTH_SECRET });
    const readers = await signInDemoReaders(server, ["free", "basic", "pro", "manager"], {
      owner: "pro",
      name: "learning test",
    });
    Object.assign(cookies, readers.cookies);
    Object.assign(ids, readers.ids);
    apiKey = readers.apiKey;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  const as = (who: Who) => (who === "visitor" ? {} : { cookie: cookies[who] });
  const get = (path: string, who: Who) => call(server.url, path, undefined, as(who));
  const put = (path: string, body: unknown, who: Who, extra: Parameters<typeof call>[3] = {}) =>
    call(server.url, path, body, { method: "PUT", ...as(who), ...extra });
  const errorOf = async (res: Response) =>
    ((await res.json()) as { error: { code: string; message: string; field?: Record<string, string> } })
      .error;
  const complete = async (course: string, lesson: string, who: Who = "pro") => {
    const res = await put(`/api/courses/${course}/progress/${lesson}`, undefined, who);
    expect(res.status).toBe(200);
    return (await res.json()) as Progress;
  };
  const certificatesOf = (userId: string, courseSlug: string) =>
    server.runtime.database.db
      .selectFrom("certificate")
      .innerJoin("content", "content.id", "certificate.courseId")
      .select(["certificate.id", "certificate.revokedAt"])
      .where("certificate.userId", "=", userId)
      .where("content.slug", "=", courseSlug)
      .execute();

  describe("completion rule API: unauthorized access and validation", () => {
    const path = () => `/api/courses/${FREE_COURSE.slug}/completion-rule`;

    it("visitors get 401, readers 403, API keys 403", async () => {
      for (const res of [
        await get(path(), "visitor"),
        await put(path(), { minLessonsPercent: 50 }, "visitor"),
      ]) {
        expect(res.status).toBe(401);
      }
      for (const who of ["free", "pro"] as const) {
        expect((await get(path(), who)).status).toBe(403);
        expect((await put(path(), { minLessonsPercent: 50 }, who)).status).toBe(403);
      }
      const key = { headers: { "x-api-key": apiKey } };
      expect((await call(server.url, path(), undefined, key)).status).toBe(403);
      expect((await put(path(), { minLessonsPercent: 50 }, "visitor", { ...key, origin: null })).status).toBe(
        403,
      );
      const rule = await server.runtime.database.db.selectFrom("course_rule").selectAll().execute();
      expect(rule).toEqual([]);
    });

    it("a manager reads the default and gets 400 naming the field for bad rules; unknown course 404", async () => {
      const res = await get(path(), "manager");
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ minLessonsPercent: 100, minSeconds: null, custom: false });
      for (const body of [
        { minLessonsPercent: 0 },
        { minLessonsPercent: 101 },
        { minLessonsPercent: "50" },
        { minLessonsPercent: 50.5 },
        {},
      ]) {
        const bad = await put(path(), body, "manager");
        expect(bad.status, JSON.stringify(body)).toBe(400);
        expect((await errorOf(bad)).field).toHaveProperty("minLessonsPercent");
      }
      const negative = await put(path(), { minLessonsPercent: 50, minSeconds: -1 }, "manager");
      expect(negative.status).toBe(400);
      expect((await errorOf(negative)).field).toHaveProperty("minSeconds");
      expect((await put(path(), { minLessonsPercent: 50, extra: 1 }, "manager")).status).toBe(400);
      expect((await get("/api/courses/no-such-course/completion-rule", "manager")).status).toBe(404);
      expect((await get(`/api/courses/${ARTICLE.slug}/completion-rule`, "manager")).status).toBe(404);
      // A cross-site write is refused.
      expect(
        (await put(path(), { minLessonsPercent: 50 }, "manager", { origin: "https://evil.example" })).status,
      ).toBe(403);
    });
  });

  describe("certificates", () => {
    let certificateId = "";

    it("issues the certificate once every lesson is complete (default rule), exactly once", async () => {
      const progress = (await (
        await get(`/api/courses/${FREE_COURSE.slug}/progress`, "pro")
      ).json()) as Progress;
      const lessons = progress.lessonIds;
      expect(lessons.length).toBeGreaterThan(1);
      for (const lesson of lessons.slice(0, -1)) {
        const p = await complete(FREE_COURSE.slug, lesson);
        expect(p.certificateId).toBeUndefined();
      }
      expect(await certificatesOf(ids.pro!, FREE_COURSE.slug)).toHaveLength(0);
      const mine = (await (await get("/api/me/certificates", "pro")).json()) as {
        certificates: unknown[];
        inProgress: { courseSlug: string; completed: number; total: number }[];
      };
      expect(mine.certificates).toEqual([]);
      expect(mine.inProgress.find((c) => c.courseSlug === FREE_COURSE.slug)).toMatchObject({
        completed: lessons.length - 1,
        total: lessons.length,
      });

      // The last lesson, twice at once (a double click): one certificate.
      const last = lessons.at(-1)!;
      const [a, b] = await Promise.all([complete(FREE_COURSE.slug, last), complete(FREE_COURSE.slug, last)]);
      expect(a.complete).toBe(true);
      expect(a.certificateId).toBeTruthy();
      expect(b.certificateId).toBe(a.certificateId);
      expect(await certificatesOf(ids.pro!, FREE_COURSE.slug)).toHaveLength(1);
      certificateId = a.certificateId!;
      expect(certificateId).toMatch(/^[A-Za-z0-9_-]{32}$/);

      // Unmarking and marking again keeps the one certificate.
      await put(`/api/courses/${FREE_COURSE.slug}/progress/${last}`, undefined, "pro", { method: "DELETE" });
      expect((await complete(FREE_COURSE.slug, last)).certificateId).toBe(certificateId);
      expect(await certificatesOf(ids.pro!, FREE_COURSE.slug)).toHaveLength(1);

      const after = (await (await get("/api/me/certificates", "pro")).json()) as {
        certificates: { id: string; courseSlug: string; verificationUrl: string }[];
        inProgress: { courseSlug: string }[];
      };
      expect(after.certificates).toEqual([
        expect.objectContaining({ id: certificateId, courseSlug: FREE_COURSE.slug, status: "valid" }),
      ]);
      expect(after.certificates[0]!.verificationUrl).toMatch(new RegExp(`/certificates/${certificateId}$`));
      expect(after.inProgress.map((c) => c.courseSlug)).not.toContain(FREE_COURSE.slug);
      // Another reader has none.
      expect(
        ((await (await get("/api/me/certificates", "basic")).json()) as { certificates: [] }).certificates,
      ).toEqual([]);
      expect((await get("/api/me/certificates", "visitor")).status).toBe(401);
    });

    it("a 50% rule issues once half the lessons are done, not before", async () => {
      const rule = await put(
        `/api/courses/${OTHER_COURSE.slug}/completion-rule`,
        { minLessonsPercent: 50 },
        "manager",
      );
      expect(rule.status).toBe(200);
      expect(await rule.json()).toMatchObject({ minLessonsPercent: 50, custom: true });
      const audit = await server.runtime.database.db
        .selectFrom("audit_log")
        .select("action")
        .where("action", "=", "course.completion_rule.update")
        .execute();
      expect(audit).toHaveLength(1);

      const progress = (await (
        await get(`/api/courses/${OTHER_COURSE.slug}/progress`, "pro")
      ).json()) as Progress;
      const lessons = progress.lessonIds;
      const needed = Math.ceil(lessons.length / 2);
      for (const [i, lesson] of lessons.slice(0, needed).entries()) {
        const p = await complete(OTHER_COURSE.slug, lesson);
        if (i < needed - 1) expect(p.certificateId, `after ${i + 1} of ${lessons.length}`).toBeUndefined();
        else expect(p.certificateId).toBeTruthy();
      }
      expect(await certificatesOf(ids.pro!, OTHER_COURSE.slug)).toHaveLength(1);
    });

    it("a rule with reading time waits for the time on the course and its lessons", async () => {
      const rule = await put(
        `/api/courses/${FREE_COURSE.slug}/completion-rule`,
        { minLessonsPercent: 100, minSeconds: 150 },
        "manager",
      );
      expect(rule.status).toBe(200);
      const progress = (await (
        await get(`/api/courses/${FREE_COURSE.slug}/progress`, "free")
      ).json()) as Progress;
      let last: Progress | null = null;
      for (const lesson of progress.lessonIds) last = await complete(FREE_COURSE.slug, lesson, "free");
      expect(last!.complete).toBe(true);
      expect(last!.certificateId).toBeUndefined();
      const db = server.runtime.database.db;
      const course = await db
        .selectFrom("content")
        .select("id")
        .where("slug", "=", FREE_COURSE.slug)
        .executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      await db
        .insertInto("reading_activity")
        .values({
          userId: ids.free!,
          contentId: course.id,
          day: now.slice(0, 10),
          seconds: 200,
          firstAt: now,
          lastAt: now,
        })
        .execute();
      const again = await complete(FREE_COURSE.slug, progress.lessonIds.at(-1)!, "free");
      expect(again.certificateId).toBeTruthy();
      expect(await certificatesOf(ids.free!, FREE_COURSE.slug)).toHaveLength(1);
      // Back to the default for the rest.
      await db.deleteFrom("course_rule").where("courseId", "=", course.id).execute();
    });

    it("anyone verifies it: JSON, page (noindex), PDF; no personal data beyond name, course, date, status", async () => {
      const res = await get(`/api/certificates/${certificateId}`, "visitor");
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        id: certificateId,
        status: "valid",
        courseTitle: FREE_COURSE.title,
        issuer: "Lumen Hub",
        revokedAt: null,
      });
      expect(typeof body.recipientName).toBe("string");
      expect(Object.keys(body).sort()).toEqual(
        [
          "courseTitle",
          "id",
          "issuedAt",
          "issuer",
          "recipientName",
          "revokedAt",
          "status",
          "verificationUrl",
        ].sort(),
      );
      expect(JSON.stringify(body)).not.toContain("@demo.local");

      const page = await get(`/certificates/${certificateId}`, "visitor");
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(FREE_COURSE.title.replaceAll("&", "&amp;"));
      expect(html).toContain("Valid");
      expect(html).toContain("Print / Save as PDF");
      expect(html).toContain(`/certificates/${certificateId}`);
      expect(html).toMatch(/<meta name="robots" content="noindex"/);
      expect(html).not.toContain("pro@demo.local");

      const pdf = await get(`/api/certificates/${certificateId}/pdf`, "visitor");
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(bytes.toString("latin1")).toContain("%%EOF");
    });

    it("an unknown id is 404 (JSON, page, PDF)", async () => {
      for (const id of ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "short", "bad%20id"]) {
        expect((await get(`/api/certificates/${id}`, "visitor")).status).toBe(404);
        expect((await get(`/api/certificates/${id}/pdf`, "visitor")).status).toBe(404);
      }
      const page = await get("/certificates/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "visitor");
      expect(page.status).toBe(404);
      expect(await page.text()).toContain("Certificate not found");
    });

    it("a revoked certificate shows Revoked", async () => {
      await server.runtime.services.certificates.revoke(certificateId, "issued in error");
      const res = await get(`/api/certificates/${certificateId}`, "visitor");
      expect(await res.json()).toMatchObject({ status: "revoked" });
      const html = await (await get(`/certificates/${certificateId}`, "visitor")).text();
      expect(html).toContain("Revoked");
    });
  });

  describe("reading reports", () => {
    const items = DEMO_CONTENT.filter((c) => c.type === "article").slice(0, 3);
    const seed = async (who: Who, rows: [number, number, number][]) => {
      const db = server.runtime.database.db;
      for (const [daysAgo, itemIndex, seconds] of rows) {
        const content = await db
          .selectFrom("content")
          .select("id")
          .where("slug", "=", items[itemIndex]!.slug)
          .executeTakeFirstOrThrow();
        const day = dayAgo(daysAgo);
        await db
          .insertInto("reading_activity")
          .values({
            userId: ids[who]!,
            contentId: content.id,
            day,
            seconds,
            firstAt: `${day}T08:00:00.000Z`,
            lastAt: `${day}T08:10:00.000Z`,
          })
          .execute();
      }
    };

    beforeAll(async () => {
      // basic: today and yesterday (current streak 2); 3, 4 and 5 days ago (longest 3); 2 days ago
      // only 30 s (no streak day); 40 days ago (in the 90-day range only).
      await seed("basic", [
        [0, 0, 300],
        [0, 1, 120],
        [1, 1, 120],
        [2, 2, 30],
        [3, 0, 600],
        [4, 2, 90],
        [5, 0, 60],
        [40, 2, 600],
      ]);
      // Someone else's reading, the same days: never in basic's report.
      await seed("pro", [
        [0, 2, 3000],
        [1, 2, 3000],
        [2, 2, 3000],
      ]);
      await seed("free", [[0, 0, 600]]);
    });

    interface Report {
      range: number;
      days: { day: string; items: number; minutes: number; lessons: number }[];
      sections: { section: string; minutes: number; items: number }[];
      streak: { current: number; longest: number };
      totals: { minutes: number; items: number; lessons: number; activeDays: number };
    }

    it("reports days, sections, streaks and totals of the reader's own rows", async () => {
      const res = await get("/api/reports/reading?range=7", "basic");
      expect(res.status).toBe(200);
      const report = (await res.json()) as Report;
      expect(report.range).toBe(7);
      expect(report.days).toHaveLength(7);
      expect(report.days.at(-1)).toMatchObject({ day: dayAgo(0), items: 2, minutes: 7 });
      expect(report.days.at(-3)).toMatchObject({ day: dayAgo(2), items: 1, minutes: 0.5 });
      expect(report.streak).toEqual({ current: 2, longest: 3 });
      // 300+120+120+30+600+90+60 = 1320 s = 22 minutes, three items.
      expect(report.totals).toMatchObject({ minutes: 22, items: 3, activeDays: 6 });
      const bySection = new Map<string, { minutes: number; items: number }>();
      for (const [i, seconds] of [
        [0, 960],
        [1, 240],
        [2, 120],
      ] as const) {
        const section = items[i]!.section ?? "Other";
        const s = bySection.get(section) ?? { minutes: 0, items: 0 };
        bySection.set(section, { minutes: s.minutes + seconds / 60, items: s.items + 1 });
      }
      for (const [section, want] of bySection) {
        expect(report.sections.find((s) => s.section === section)).toMatchObject(want);
      }

      const ninety = (await (await get("/api/reports/reading?range=90", "basic")).json()) as Report;
      expect(ninety.days).toHaveLength(90);
      expect(ninety.totals.minutes).toBe(32);
      const thirty = (await (await get("/api/reports/reading", "basic")).json()) as Report;
      expect(thirty.range).toBe(30);
      expect(thirty.totals.minutes).toBe(22);
    });

    it("counts lessons completed per day", async () => {
      const report = (await (await get("/api/reports/reading?range=7", "pro")).json()) as Report;
      expect(report.totals.lessons).toBeGreaterThanOrEqual(FREE_COURSE.lessons!.length);
      expect(report.days.at(-1)!.lessons).toBe(report.totals.lessons);
      // pro read 50 minutes a day on today, yesterday and the day before.
      expect(report.streak.current).toBe(3);
    });

    it("rejects a bad range with 400 naming the field", async () => {
      const res = await get("/api/reports/reading?range=14", "basic");
      expect(res.status).toBe(400);
      expect((await errorOf(res)).field).toHaveProperty("range");
      expect((await get("/api/reports/reading.csv?range=x", "basic")).status).toBe(400);
    });

    it("exports CSV for Basic: one row per day and item, attachment", async () => {
      const res = await get("/api/reports/reading.csv?range=7", "basic");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/csv");
      expect(res.headers.get("content-disposition")).toMatch(
        /^attachment; filename="lumen-reading-.*\.csv"$/,
      );
      const lines = (await res.text()).trim().split("\r\n");
      expect(lines[0]).toBe("day,item,slug,section,minutes");
      expect(lines).toHaveLength(1 + 7);
      expect(
        lines.some((l) => l.startsWith(`${dayAgo(0)},`) && l.includes(items[0]!.slug) && l.endsWith(",5")),
      ).toBe(true);
    });

    it("refuses Free (403), visitors (401) and API keys (403) on the data and CSV", async () => {
      for (const path of ["/api/reports/reading", "/api/reports/reading.csv"]) {
        const free = await get(path, "free");
        expect(free.status).toBe(403);
        expect((await errorOf(free)).message).toContain("Basic");
        expect((await get(path, "visitor")).status).toBe(401);
        expect((await call(server.url, path, undefined, { headers: { "x-api-key": apiKey } })).status).toBe(
          403,
        );
      }
    });

    it("Free readers get the teaser page (200, upgrade CTA, example data only); visitors sign in", async () => {
      const res = await get("/dashboard/reports", "free");
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain("reports-teaser");
      expect(html).toContain('href="/pricing"');
      expect(html).toContain("Example");
      // free's own reading (items[0]) is nowhere on the page.
      expect(html).not.toContain(items[0]!.title.replaceAll("&", "&amp;"));
      expect(html).not.toContain("lumen-reading-");

      const basic = await (await get("/dashboard/reports", "basic")).text();
      expect(basic).not.toContain("reports-teaser");
      expect(basic).toContain("reading.csv?range=30");

      const visitor = await fetch(`${server.url}/dashboard/reports`, { redirect: "manual" });
      expect([302, 303, 307]).toContain(visitor.status);
      expect(visitor.headers.get("location")).toContain("/auth/signin");
    });
  });
});
