import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUserContext, visitorContext } from "../../../core/index.ts";
import { actorOf } from "../../../tests/factories/actors.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import type { Actor } from "../actor.ts";
import { type Content, createContentRepo, type NewContent } from "../content/content.repo.ts";
import type { ContentPage } from "../content/content.types.ts";
import { createUsersRepo } from "../users/users.repo.ts";
import { createEngagementRepo } from "./engagement.repo.ts";
import { createEngagementService, type EngagementService } from "./engagement.service.ts";

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const DAY = 24 * 60 * 60 * 1000;
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const OTHER_BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) Gecko/20100101 Firefox/133.0";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const visitorAt = (ip: string, userAgent: string | null = BROWSER) => ({ ip, userAgent });

/** The code of a rejected call (an error of the family in server/errors.ts), for `expect(...).resolves`. */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
  return "no error";
}

describe.each(testDialects())("engagement on %s", (dialect) => {
  let t: TestDatabase;
  let repo: ReturnType<typeof createContentRepo>;
  let service: EngagementService;
  let clock = Date.parse("2026-05-10T12:00:00.000Z");
  const visitor = actorOf(visitorContext());
  let free: Actor;
  let pro: Actor;
  let other: Actor;

  const makeUser = async (tier: string) => {
    const user = await createUsersRepo(t.db).create({ name: tier, email: `${unique(tier)}@demo.local` });
    return actorOf(buildUserContext({ sub: user.id, email: user.email, "custom:tier": tier }));
  };
  const make = (overrides: Partial<NewContent> = {}) =>
    repo.create({
      title: "An item",
      slug: unique("item"),
      status: "published",
      publishedAt: "2026-05-01T00:00:00.000Z",
      ...overrides,
    });
  const countsOf = async (item: Content) => {
    const row = (await repo.getById(item.id))!;
    return { viewCount: row.viewCount, likeCount: row.likeCount, shareCount: row.shareCount };
  };

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    repo = createContentRepo(t.db);
    service = createEngagementService({ db: t.db, secret: "s".repeat(48), now: () => clock });
    free = await makeUser("free");
    pro = await makeUser("pro");
    other = await makeUser("free");
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("views", () => {
    it("counts a reader once per item and UTC day, and again the next day", async () => {
      const item = await make();
      expect(await service.recordView(visitor, item.id, visitorAt("203.0.113.7"))).toEqual({ counted: true });
      expect(await service.recordView(visitor, item.slug, visitorAt("203.0.113.7"))).toEqual({
        counted: false,
      });
      // the same address with another browser, and another address, are other readers
      expect(
        (await service.recordView(visitor, item.id, visitorAt("203.0.113.7", OTHER_BROWSER))).counted,
      ).toBe(true);
      expect((await service.recordView(visitor, item.id, visitorAt("198.51.100.2"))).counted).toBe(true);
      // a signed-in reader is one reader whatever the address or browser
      expect((await service.recordView(free, item.id, visitorAt("203.0.113.7"))).counted).toBe(true);
      expect((await service.recordView(free, item.id, visitorAt("192.0.2.1", OTHER_BROWSER))).counted).toBe(
        false,
      );
      expect((await countsOf(item)).viewCount).toBe(4);

      clock += DAY;
      try {
        expect((await service.recordView(visitor, item.id, visitorAt("203.0.113.7"))).counted).toBe(true);
        expect((await service.recordView(free, item.id, visitorAt("203.0.113.7"))).counted).toBe(true);
        expect((await service.recordView(free, item.id, visitorAt("203.0.113.7"))).counted).toBe(false);
      } finally {
        clock -= DAY;
      }
      expect((await countsOf(item)).viewCount).toBe(6);
    });

    it("never stores the visitor's address, and keys readers by user id or a keyed hash", async () => {
      const item = await make();
      await service.recordView(visitor, item.id, visitorAt("::ffff:203.0.113.99"));
      await service.recordView(free, item.id, visitorAt("203.0.113.99"));
      const keys = (
        await t.db.selectFrom("content_view").select("readerKey").where("contentId", "=", item.id).execute()
      ).map((r) => r.readerKey);
      expect(keys).toHaveLength(2);
      expect(keys).toContain(`u:${free.userId}`);
      const visitorKey = keys.find((k) => k.startsWith("v:"))!;
      expect(visitorKey).toMatch(/^v:[A-Za-z0-9_-]{43}$/);
      expect(visitorKey).not.toContain("203");
      // the IPv4-mapped spelling is the same reader as the plain address
      expect((await service.recordView(visitor, item.id, visitorAt("203.0.113.99"))).counted).toBe(false);
    });

    it("counts 20 concurrent identical views once", async () => {
      const item = await make();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => service.recordView(visitor, item.id, visitorAt("203.0.113.50"))),
      );
      expect(results.filter((r) => r.counted)).toHaveLength(1);
      const signedIn = await Promise.all(
        Array.from({ length: 20 }, () => service.recordView(pro, item.slug, visitorAt("203.0.113.51"))),
      );
      expect(signedIn.filter((r) => r.counted)).toHaveLength(1);
      expect((await countsOf(item)).viewCount).toBe(2);
    });

    it("does not count bots or requests without a user agent; counts gated items; 404 for drafts", async () => {
      const item = await make({ tier: "Pro" });
      expect(await service.recordView(visitor, item.id, visitorAt("203.0.113.60", GOOGLEBOT))).toEqual({
        counted: false,
      });
      expect((await service.recordView(visitor, item.id, visitorAt("203.0.113.60", null))).counted).toBe(
        false,
      );
      expect((await service.recordView(visitor, item.id, visitorAt("203.0.113.60", "  "))).counted).toBe(
        false,
      );
      expect((await countsOf(item)).viewCount).toBe(0);
      // the paywall page is a view too: a free reader opening a Pro item counts
      expect((await service.recordView(free, item.id, visitorAt("203.0.113.60"))).counted).toBe(true);
      expect((await countsOf(item)).viewCount).toBe(1);

      const draft = await make({ status: "draft" });
      expect(await codeOf(service.recordView(visitor, draft.id, visitorAt("203.0.113.60")))).toBe(
        "NOT_FOUND",
      );
      expect(await codeOf(service.recordView(visitor, "no-such-item", visitorAt("203.0.113.60")))).toBe(
        "NOT_FOUND",
      );
      expect((await countsOf(draft)).viewCount).toBe(0);
    });

    it("prunes view rows older than yesterday on the first view of a new day", async () => {
      const start = clock;
      const item = await make();
      try {
        clock = start + 20 * DAY;
        await service.recordView(visitor, item.id, visitorAt("203.0.113.70"));
        clock = start + 21 * DAY;
        await service.recordView(visitor, item.id, visitorAt("203.0.113.70"));
        const daysOf = async () =>
          (
            await t.db
              .selectFrom("content_view")
              .select("day")
              .where("contentId", "=", item.id)
              .orderBy("day")
              .execute()
          ).map((r) => r.day);
        expect(await daysOf()).toEqual(["2026-05-30", "2026-05-31"]);
        clock = start + 23 * DAY;
        await service.recordView(visitor, item.id, visitorAt("203.0.113.70"));
        expect(await daysOf()).toEqual(["2026-06-02"]);
        expect((await countsOf(item)).viewCount).toBe(3);
      } finally {
        clock = start;
      }
    });
  });

  describe("likes", () => {
    it("is idempotent both ways and never goes below zero", async () => {
      const item = await make();
      expect(await service.setLike(free, item.id, true)).toEqual({ liked: true, likeCount: 1 });
      expect(await service.setLike(free, item.slug, true)).toEqual({ liked: true, likeCount: 1 });
      expect(await service.setLike(other, item.id, true)).toEqual({ liked: true, likeCount: 2 });
      expect(await service.setLike(free, item.id, false)).toEqual({ liked: false, likeCount: 1 });
      expect(await service.setLike(free, item.id, false)).toEqual({ liked: false, likeCount: 1 });
      expect(await service.setLike(other, item.id, false)).toEqual({ liked: false, likeCount: 0 });
      expect(await service.setLike(other, item.id, false)).toEqual({ liked: false, likeCount: 0 });
      expect((await countsOf(item)).likeCount).toBe(0);
    });

    it("is safe under concurrency: the counter always equals the likes stored", async () => {
      const item = await make();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => service.setLike(pro, item.id, true)),
      );
      expect(results.every((r) => r.liked)).toBe(true);
      expect((await countsOf(item)).likeCount).toBe(1);

      const mixed = await Promise.all(
        Array.from({ length: 20 }, (_, i) => service.setLike(i % 3 === 0 ? pro : free, item.id, i % 2 === 0)),
      );
      expect(mixed).toHaveLength(20);
      const stored = await t.db
        .selectFrom("content_like")
        .select("userId")
        .where("contentId", "=", item.id)
        .execute();
      expect((await countsOf(item)).likeCount).toBe(stored.length);
    });

    it("needs a signed-in reader who may read the item", async () => {
      const item = await make({ tier: "Pro" });
      expect(await codeOf(service.setLike(visitor, item.id, true))).toBe("UNAUTHENTICATED");
      const denied = service.setLike(free, item.id, true);
      await expect(denied).rejects.toThrow(/needs the Pro plan/);
      expect(await codeOf(service.setLike(free, item.id, true))).toBe("FORBIDDEN");
      expect(await codeOf(service.setLike(pro, "no-such-item", true))).toBe("NOT_FOUND");
      const roleGated = await make({ rolesRequired: ["ContentManager"] });
      await expect(service.setLike(pro, roleGated.id, true)).rejects.toThrow(/restricted to certain roles/);
      expect((await countsOf(item)).likeCount).toBe(0);
      expect(await service.setLike(pro, item.id, true)).toEqual({ liked: true, likeCount: 1 });
    });
  });

  describe("shares", () => {
    it("counts one share per user, item, channel and day", async () => {
      const item = await make();
      expect(await service.recordShare(free, item.id, "link")).toEqual({ shareCount: 1, counted: true });
      expect(await service.recordShare(free, item.id, "link")).toEqual({ shareCount: 1, counted: false });
      expect((await service.recordShare(free, item.id, "x")).shareCount).toBe(2);
      expect((await service.recordShare(other, item.id, "link")).shareCount).toBe(3);
      const burst = await Promise.all(
        Array.from({ length: 10 }, () => service.recordShare(pro, item.id, "email")),
      );
      expect(burst.filter((r) => r.counted)).toHaveLength(1);
      clock += DAY;
      try {
        expect(await service.recordShare(free, item.id, "link")).toEqual({ shareCount: 5, counted: true });
      } finally {
        clock -= DAY;
      }
      expect((await countsOf(item)).shareCount).toBe(5);
      expect(await codeOf(service.recordShare(visitor, item.id, "link"))).toBe("UNAUTHENTICATED");
      expect(await codeOf(service.recordShare(free, "no-such-item", "link"))).toBe("NOT_FOUND");
    });
  });

  describe("course progress", () => {
    let course: Content;
    let lessons: Content[];
    let proLesson: Content;
    let outsider: Content;

    beforeAll(async () => {
      const l1 = await make({ title: "Lesson one" });
      const l2 = await make({ title: "Lesson two" });
      proLesson = await make({ title: "Lesson three", tier: "Pro" });
      const draft = await make({ title: "Draft lesson", status: "draft" });
      outsider = await make({ title: "Not a lesson" });
      lessons = [l1, l2, proLesson];
      course = await make({
        title: "A course",
        type: "course",
        related: [l1.slug, l2.slug, draft.slug, proLesson.slug, "missing-lesson"],
      });
    });

    it("tracks completion per user: idempotent, by id or slug, and complete when every lesson is done", async () => {
      const [l1, l2, l3] = lessons as [Content, Content, Content];
      const empty = await service.getProgress(free, course.slug);
      expect(empty).toEqual({
        courseId: course.id,
        lessonIds: [l1.id, l2.id, l3.id],
        completedLessonIds: [],
        total: 3,
        completed: 0,
        percent: 0,
        complete: false,
      });
      const one = await service.setLessonComplete(free, course.id, l2.id, true);
      expect(one).toMatchObject({ completedLessonIds: [l2.id], completed: 1, percent: 33, complete: false });
      expect(await service.setLessonComplete(free, course.id, l2.slug, true)).toEqual(one);
      expect((await service.setLessonComplete(free, course.id, l1.slug, true)).completedLessonIds).toEqual([
        l1.id,
        l2.id,
      ]);
      expect((await service.setLessonComplete(free, course.id, l1.id, false)).completedLessonIds).toEqual([
        l2.id,
      ]);
      expect((await service.setLessonComplete(free, course.id, l1.id, false)).completed).toBe(1);
      // another user's progress is separate
      expect((await service.getProgress(pro, course.id)).completed).toBe(0);

      await service.setLessonComplete(pro, course.id, l1.id, true);
      await service.setLessonComplete(pro, course.id, l2.id, true);
      const finishedAt = clock + 60_000;
      clock = finishedAt;
      const done = await service.setLessonComplete(pro, course.id, l3.id, true);
      expect(done).toMatchObject({
        completed: 3,
        total: 3,
        percent: 100,
        complete: true,
        completedAt: new Date(finishedAt).toISOString(),
      });
      expect(await service.getProgress(pro, course.slug)).toEqual(done);
      expect((await service.setLessonComplete(pro, course.id, l3.id, false)).complete).toBe(false);
    });

    it("refuses lessons outside the course, lessons and courses the reader may not read, and visitors", async () => {
      expect(await codeOf(service.setLessonComplete(free, course.id, outsider.id, true))).toBe("NOT_FOUND");
      await expect(service.setLessonComplete(free, course.id, outsider.slug, true)).rejects.toThrow(
        /is not a lesson of/,
      );
      expect(await codeOf(service.setLessonComplete(free, course.id, "missing-lesson", true))).toBe(
        "NOT_FOUND",
      );
      expect(await codeOf(service.setLessonComplete(free, course.id, proLesson.id, true))).toBe("FORBIDDEN");
      expect(await codeOf(service.getProgress(visitor, course.id))).toBe("UNAUTHENTICATED");
      expect(await codeOf(service.setLessonComplete(visitor, course.id, proLesson.id, true))).toBe(
        "UNAUTHENTICATED",
      );
      // not a course
      expect(await codeOf(service.getProgress(free, outsider.id))).toBe("NOT_FOUND");
      // a Pro course is closed to a free reader
      const proCourse = await make({ type: "course", tier: "Pro", related: [lessons[0]!.slug] });
      expect(await codeOf(service.getProgress(free, proCourse.id))).toBe("FORBIDDEN");
      expect(await codeOf(service.setLessonComplete(free, proCourse.id, lessons[0]!.id, true))).toBe(
        "FORBIDDEN",
      );
      const stored = await t.db
        .selectFrom("course_progress")
        .select("lessonId")
        .where("userId", "=", free.userId!)
        .where("lessonId", "in", [outsider.id, proLesson.id])
        .execute();
      expect(stored).toEqual([]);
    });

    it("puts counters for everyone, and the like and progress only for signed-in readers, in the page data", async () => {
      const [l1] = lessons as [Content];
      await service.setLike(other, course.id, true);
      await service.setLessonComplete(other, course.id, l1.id, true);
      const page = {
        item: { id: course.id },
        template: "course",
        access: { kind: "granted" },
        children: lessons.map((l) => ({ id: l.id })),
      } as unknown as ContentPage;
      const forVisitor = await service.forPage(visitor, page);
      expect(forVisitor).toMatchObject({ likeCount: 1, liked: null, progress: null });
      const forOther = await service.forPage(other, page);
      expect(forOther).toMatchObject({
        likeCount: 1,
        liked: true,
        progress: { completedLessonIds: [l1.id] },
      });
      expect((await service.forPage(free, page))?.liked).toBe(false);
      const gated = await service.forPage(other, { ...page, access: { kind: "tier", requiredTier: "Pro" } });
      expect(gated?.progress).toBeNull();
    });
  });

  it("takes a deleted user's likes off the counters (account deletion)", async () => {
    const item = await make();
    const leaving = await makeUser("free");
    await service.setLike(leaving, item.id, true);
    await service.setLike(free, item.id, true);
    expect((await countsOf(item)).likeCount).toBe(2);
    expect(await createEngagementRepo(t.db).forgetUserLikes(leaving.userId!)).toBe(1);
    expect((await countsOf(item)).likeCount).toBe(1);
    expect(await createEngagementRepo(t.db).forgetUserLikes(leaving.userId!)).toBe(0);
    expect((await countsOf(item)).likeCount).toBe(1);
  });

  it("removes engagement rows with their item and user (ON DELETE CASCADE)", async () => {
    const item = await make();
    const user = await makeUser("free");
    await service.recordView(user, item.id, visitorAt("203.0.113.80"));
    await service.setLike(user, item.id, true);
    await service.recordShare(user, item.id, "x");
    await createUsersRepo(t.db).delete(user.userId!);
    expect(
      await t.db.selectFrom("content_like").selectAll().where("contentId", "=", item.id).execute(),
    ).toEqual([]);
    expect(
      await t.db.selectFrom("content_share").selectAll().where("contentId", "=", item.id).execute(),
    ).toEqual([]);
    await repo.delete(item.id);
    expect(
      await t.db.selectFrom("content_view").selectAll().where("contentId", "=", item.id).execute(),
    ).toEqual([]);
  });
});
