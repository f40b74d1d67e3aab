/**
 * Optimistic toggles (like, lesson complete): show the new state at once, then take the server's
 * answer, or roll back to the state before the click and report the error. Pure: no React, so
 * the behaviour is unit-tested without a DOM.
 */
import type { CourseProgress } from "../../../server/modules/engagement/engagement.schemas.ts";
import { settle } from "../../lib/api.ts";

export interface LikeState {
  liked: boolean;
  count: number;
}

/** The state shown right after a click: the like flips and the count follows (never below 0). */
export function optimisticLike(state: LikeState, liked: boolean): LikeState {
  if (state.liked === liked) return state;
  return { liked, count: Math.max(0, state.count + (liked ? 1 : -1)) };
}

export interface ToggleOptions<S, R> {
  /** The state before the click. */
  before: S;
  /** The state to show while the request runs. */
  optimistic: S;
  /** The request; a failure throws an `ApiError`. */
  send(): Promise<R>;
  /** The state from the server's answer. */
  settle(answer: R): S;
  set(state: S): void;
  onError(message: string): void;
}

/** Runs one optimistic toggle; resolves true when the server accepted it. */
export async function runOptimistic<S, R>(options: ToggleOptions<S, R>): Promise<boolean> {
  options.set(options.optimistic);
  const result = await settle(options.send());
  if (result.ok) {
    options.set(options.settle(result.data));
    return true;
  }
  options.set(options.before);
  options.onError(result.error.message);
  return false;
}

/** Course progress with one lesson marked complete (done) or not, recomputed like the server does. */
export function withLesson(
  progress: CourseProgress,
  lessonId: string,
  done: boolean,
  at: string,
): CourseProgress {
  const marked = new Set(progress.completedLessonIds);
  if (done) marked.add(lessonId);
  else marked.delete(lessonId);
  const completedLessonIds = progress.lessonIds.filter((id) => marked.has(id));
  const total = progress.lessonIds.length;
  const completed = completedLessonIds.length;
  const complete = total > 0 && completed === total;
  const next: CourseProgress = {
    courseId: progress.courseId,
    lessonIds: progress.lessonIds,
    completedLessonIds,
    total,
    completed,
    percent: total === 0 ? 0 : Math.floor((completed * 100) / total),
    complete,
  };
  if (complete) next.completedAt = progress.completedAt ?? at;
  return next;
}
