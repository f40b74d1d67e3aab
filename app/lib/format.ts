import type { ContentType } from "../../server/services.ts";

export const TYPE_LABEL: Record<ContentType, string> = {
  article: "Article",
  course: "Course",
  video: "Video",
  markdown: "Page",
  category: "Category",
  collection: "Collection",
};

const dateFormat = new Intl.DateTimeFormat("en", {
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** "Mar 4, 2026" (UTC, so server and browser render the same text). */
export function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : dateFormat.format(d);
}

const dateTimeFormat = new Intl.DateTimeFormat("en", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** "Mar 4, 2026, 9:05 AM UTC" from an ISO string or epoch ms; null when missing or unreadable. */
export function formatDateTime(value: string | number | null | undefined): string | null {
  const ms = typeof value === "string" ? Date.parse(value) : value;
  return typeof ms === "number" && Number.isFinite(ms) ? `${dateTimeFormat.format(new Date(ms))} UTC` : null;
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function formatTimestamp(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** 3725 → "1 h 2 min", 300 → "5 min". */
export function formatDuration(totalSeconds: number): string {
  const minutes = Math.round(totalSeconds / 60);
  if (minutes < 60) return `${Math.max(1, minutes)} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

export function contentPath(slug: string): string {
  return `/content/${encodeURIComponent(slug)}`;
}
