/**
 * Browser calls of the engagement API (server/http/engagement-api.ts), through the one fetch
 * helper: a failure throws an `ApiError`.
 */
import type { CourseProgress, ShareChannel } from "../../../server/modules/engagement/engagement.schemas.ts";
import { api } from "../../lib/api.ts";

const contentPath = (contentId: string) => `/api/content/${encodeURIComponent(contentId)}`;

export const sendLike = (contentId: string, liked: boolean) => {
  const path = `${contentPath(contentId)}/like`;
  type Answer = { liked: boolean; likeCount: number };
  return liked ? api.put<Answer>(path) : api.delete<Answer>(path);
};

export const sendShare = (contentId: string, channel: ShareChannel) =>
  api.post<{ shareCount: number }>(`${contentPath(contentId)}/share`, { channel });

export const sendLessonComplete = (courseId: string, lessonId: string, done: boolean) => {
  const path = `/api/courses/${encodeURIComponent(courseId)}/progress/${encodeURIComponent(lessonId)}`;
  return done ? api.put<CourseProgress>(path) : api.delete<CourseProgress>(path);
};

/**
 * The view beacon: sent once the page has hydrated (visitors' pages come from a shared cache, so
 * the server-side render cannot count them). Fire and forget.
 */
export function sendViewBeacon(contentId: string): void {
  const url = `${contentPath(contentId)}/view`;
  try {
    if (typeof navigator.sendBeacon === "function" && navigator.sendBeacon(url)) return;
  } catch {
    // fall back to fetch below
  }
  api.post(url, undefined, { keepalive: true }).catch(() => {});
}

/** Share links for a page URL and title. */
export function shareLinks(url: string, title: string): Record<Exclude<ShareChannel, "link">, string> {
  const u = encodeURIComponent(url);
  return {
    x: `https://x.com/intent/post?url=${u}&text=${encodeURIComponent(title)}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
    email: `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(`${title}\n\n${url}`)}`,
  };
}

const numberFormat = new Intl.NumberFormat("en");

/** 1234 → "1,234 views", 1 → "1 view". */
export function formatViews(count: number): string {
  return `${numberFormat.format(count)} ${count === 1 ? "view" : "views"}`;
}

export const formatCount = (count: number) => numberFormat.format(count);
