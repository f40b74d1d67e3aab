import { describe, expect, it } from "vitest";
import type { CourseProgress } from "../../../server/modules/engagement/engagement.schemas.ts";
import { ApiError, type Settled } from "../../lib/api.ts";
import { type LikeState, optimisticLike, runOptimistic, withLesson } from "./optimistic.ts";

describe("optimisticLike", () => {
  it("flips the like and moves the count with it, never below zero", () => {
    expect(optimisticLike({ liked: false, count: 4 }, true)).toEqual({ liked: true, count: 5 });
    expect(optimisticLike({ liked: true, count: 5 }, false)).toEqual({ liked: false, count: 4 });
    expect(optimisticLike({ liked: true, count: 0 }, false)).toEqual({ liked: false, count: 0 });
    const same = { liked: true, count: 3 };
    expect(optimisticLike(same, true)).toBe(same);
  });
});

describe("runOptimistic (the like button's toggle)", () => {
  const run = (before: LikeState, answer: Settled<{ liked: boolean; likeCount: number }>) => {
    const shown: LikeState[] = [];
    const errors: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const done = runOptimistic({
      before,
      optimistic: optimisticLike(before, !before.liked),
      send: async () => {
        await gate;
        if (!answer.ok) throw answer.error;
        return answer.data;
      },
      settle: (a) => ({ liked: a.liked, count: a.likeCount }),
      set: (s) => shown.push(s),
      onError: (m) => errors.push(m),
    });
    return { shown, errors, release, done };
  };

  it("shows the new state before the server answers, then the server's numbers", async () => {
    const r = run({ liked: false, count: 7 }, { ok: true, data: { liked: true, likeCount: 9 } });
    // while the request runs, the heart is already filled and the count moved
    expect(r.shown).toEqual([{ liked: true, count: 8 }]);
    r.release();
    expect(await r.done).toBe(true);
    expect(r.shown).toEqual([
      { liked: true, count: 8 },
      { liked: true, count: 9 },
    ]);
    expect(r.errors).toEqual([]);
  });

  it("rolls back to the state before the click and reports the server's message", async () => {
    const r = run(
      { liked: false, count: 7 },
      { ok: false, error: new ApiError({ status: 403, message: "You can like only content you can read." }) },
    );
    r.release();
    expect(await r.done).toBe(false);
    expect(r.shown).toEqual([
      { liked: true, count: 8 },
      { liked: false, count: 7 },
    ]);
    expect(r.errors).toEqual(["You can like only content you can read."]);
  });

  it("rolls back an unlike too", async () => {
    const r = run(
      { liked: true, count: 1 },
      { ok: false, error: new ApiError({ status: 0, message: "offline" }) },
    );
    r.release();
    await r.done;
    expect(r.shown.at(-1)).toEqual({ liked: true, count: 1 });
  });
});

describe("withLesson", () => {
  const base: CourseProgress = {
    courseId: "c",
    lessonIds: ["a", "b", "c"],
    completedLessonIds: ["b"],
    total: 3,
    completed: 1,
    percent: 33,
    complete: false,
  };

  it("keeps course order, recomputes the numbers and completes on the last lesson", () => {
    const two = withLesson(base, "c", true, "2026-05-10T12:00:00.000Z");
    expect(two).toMatchObject({ completedLessonIds: ["b", "c"], completed: 2, percent: 66, complete: false });
    expect(two.completedAt).toBeUndefined();
    const all = withLesson(two, "a", true, "2026-05-10T12:00:00.000Z");
    expect(all).toMatchObject({
      completedLessonIds: ["a", "b", "c"],
      percent: 100,
      complete: true,
      completedAt: "2026-05-10T12:00:00.000Z",
    });
    const undone = withLesson(all, "b", false, "2026-05-10T13:00:00.000Z");
    expect(undone).toMatchObject({ completedLessonIds: ["a", "c"], complete: false, percent: 66 });
    expect(undone.completedAt).toBeUndefined();
  });
});
