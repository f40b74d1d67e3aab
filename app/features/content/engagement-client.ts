/**
 * Browser calls of the engagement API (server/http/engagement-api.ts). Same-origin, with the
 * session cookie; the browser adds Origin to every non-GET request (the server's CSRF check).
 */
import type { CourseProgress, ShareChannel } from "../../../server/modules/engagement/engagement.schemas.ts";

export type CallResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

const NETWORK_ERROR = "Could not reach the server. Check your connection and try again.";

function messageOf(body: unknown, status: number): string {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  if (error && typeof error.message === "string" && error.message.trim()) return error.message;
  if (status === 401) return "Your session has ended. Sign in again.";
  if (status === 429) return "Too many requests. Please wait a moment and try again.";
  return "Something went wrong. Please try again.";
}

/** A JSON call that never throws. */
export async function callEngagement<T>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
): Promise<CallResult<T>> {
  const init: RequestInit = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers = { Accept: "application/json", "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, message: NETWORK_ERROR };
  }
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  if (response.ok) return { ok: true, data: parsed as T };
  return { ok: false, status: response.status, message: messageOf(parsed, response.status) };
}

const contentPath = (contentId: string) => `/api/content/${encodeURIComponent(contentId)}`;

export const sendLike = (contentId: string, liked: boolean) =>
  callEngagement<{ liked: boolean; likeCount: number }>(
    liked ? "PUT" : "DELETE",
    `${contentPath(contentId)}/like`,
  );

export const sendShare = (contentId: string, channel: ShareChannel) =>
  callEngagement<{ shareCount: number }>("POST", `${contentPath(contentId)}/share`, { channel });

export const sendLessonComplete = (courseId: string, lessonId: string, done: boolean) =>
  callEngagement<CourseProgress>(
    done ? "PUT" : "DELETE",
    `/api/courses/${encodeURIComponent(courseId)}/progress/${encodeURIComponent(lessonId)}`,
  );

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
  void fetch(url, { method: "POST", credentials: "same-origin", keepalive: true }).catch(() => {});
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
