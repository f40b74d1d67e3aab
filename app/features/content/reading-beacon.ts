/**
 * The reading beacon (issue 15): while a signed-in reader has a content page open with the tab
 * visible, the seconds are counted and sent to `POST /api/reading` every `FLUSH_EVERY_S` seconds
 * and when the page is hidden or left (navigator.sendBeacon, which outlives the page). The server
 * clamps a ping to 60 s and an item's day to 4 h, and refuses items the reader cannot read.
 */
import { useEffect, useRef } from "react";
import { api } from "../../lib/api.ts";

export const FLUSH_EVERY_S = 30;
const MAX_PING_S = 60;

export function sendReadingPing(contentId: string, seconds: number, leaving: boolean): void {
  const body = { contentId, seconds: Math.min(MAX_PING_S, Math.round(seconds)) };
  if (body.seconds <= 0) return;
  if (leaving) {
    try {
      // A string goes as text/plain (no preflight); the server reads the JSON anyway.
      if (
        typeof navigator.sendBeacon === "function" &&
        navigator.sendBeacon("/api/reading", JSON.stringify(body))
      )
        return;
    } catch {
      // fall back to fetch below
    }
  }
  api.post("/api/reading", body, { keepalive: true }).catch(() => {});
}

/**
 * Counts visible time on the page and reports it (only when `enabled`: a signed-in reader who may
 * read it). When the page itself turns to the paywall (the reader's plan ended while it was open),
 * the time not yet reported stays unsent: the server refuses time on items the reader cannot read.
 */
export function useReadingBeacon(contentId: string, enabled: boolean): void {
  // What the latest render asked for; the effect's cleanup reads it (unchanged when the page is left).
  const latest = useRef({ contentId, enabled });
  latest.current = { contentId, enabled };
  useEffect(() => {
    if (!enabled || typeof document === "undefined") return;
    let visibleSince: number | null = document.visibilityState === "visible" ? Date.now() : null;
    let pending = 0;
    const collect = () => {
      if (visibleSince !== null) {
        const t = Date.now();
        pending += (t - visibleSince) / 1000;
        visibleSince = t;
      }
    };
    const flush = (leaving: boolean) => {
      collect();
      if (pending >= 1) sendReadingPing(contentId, pending, leaving);
      pending = 0;
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        flush(true);
        visibleSince = null;
      } else {
        visibleSince = Date.now();
      }
    };
    const onPageHide = () => flush(true);
    const timer = window.setInterval(() => flush(false), FLUSH_EVERY_S * 1000);
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onPageHide);
      // Navigating to another item inside the app: report this one's time (not when this item
      // has just become unreadable, see above).
      if (latest.current.enabled || latest.current.contentId !== contentId) flush(true);
    };
  }, [contentId, enabled]);
}
