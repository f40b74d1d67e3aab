import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parseSessions, SessionList } from "./sessions-card.tsx";

function text(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

const CHROME_WIN =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

describe("parseSessions", () => {
  it("reads the list (array or {sessions}) and puts this device first", () => {
    const rows = [
      {
        id: "b",
        createdAt: "2026-11-01T09:00:00Z",
        lastActiveAt: null,
        ipAddress: "10.0.0.2",
        userAgent: SAFARI_IPHONE,
        current: false,
      },
      {
        id: "a",
        createdAt: "2026-11-01T10:00:00Z",
        lastActiveAt: "2026-11-01T10:05:00Z",
        ipAddress: "127.0.0.1",
        userAgent: CHROME_WIN,
        current: true,
      },
      { nope: true },
    ];
    const parsed = parseSessions(rows);
    expect(parsed?.map((s) => s.id)).toEqual(["a", "b"]);
    expect(parseSessions({ sessions: rows })?.length).toBe(2);
    expect(parseSessions({ error: { message: "x" } })).toBeNull();
    expect(parseSessions(null)).toBeNull();
  });
});

describe("SessionList", () => {
  it("names devices in plain words, marks this device and offers sign-out only for the others", () => {
    const sessions =
      parseSessions([
        {
          id: "a",
          createdAt: "2026-11-01T10:00:00Z",
          lastActiveAt: "2026-11-01T10:05:00Z",
          ipAddress: "127.0.0.1",
          userAgent: CHROME_WIN,
          current: true,
        },
        {
          id: "b",
          createdAt: "2026-11-01T09:00:00Z",
          lastActiveAt: null,
          ipAddress: null,
          userAgent: SAFARI_IPHONE,
          current: false,
        },
      ]) ?? [];
    const html = renderToString(<SessionList sessions={sessions} busyId={null} onRevoke={() => {}} />);
    const t = text(html);
    expect(t).toContain("Chrome on Windows");
    expect(t).toContain("This device");
    expect(t).toContain("Safari on iPhone");
    expect(t).toContain("127.0.0.1");
    expect(t).toContain("Unknown address");
    expect(t.match(/Sign out/g)?.length).toBe(1);
    expect(html).toContain('aria-label="Sign out Safari on iPhone');
    expect(html).not.toContain(CHROME_WIN);
  });
});
