import { describe, expect, it } from "vitest";
import { isoWeek, plainExcerpt } from "./notification-sweep.ts";
import { createUnsubscribeLinks } from "./unsubscribe-links.ts";

describe("unsubscribe links", () => {
  const links = createUnsubscribeLinks({
    secret: "a-test-secret-of-enough-length",
    baseUrl: "https://hub.example/",
  });
  const query = (url: string) => Object.fromEntries(new URL(url).searchParams);

  it("round-trips the user and kind", () => {
    const url = links.url("user-1", "replies");
    expect(url).toMatch(/^https:\/\/hub\.example\/unsubscribe\?u=user-1&k=replies&sig=[\w-]{43}$/);
    expect(links.verify(query(url))).toEqual({ userId: "user-1", kind: "replies" });
  });

  it("refuses another user, another kind, a changed or missing signature and another secret", () => {
    const q = query(links.url("user-1", "replies"));
    expect(links.verify({ ...q, u: "user-2" })).toBeNull();
    expect(links.verify({ ...q, k: "weekly_digest" })).toBeNull();
    expect(links.verify({ ...q, k: "sms" })).toBeNull();
    const changed = `${q.sig!.slice(0, -1)}${q.sig!.endsWith("A") ? "B" : "A"}`;
    expect(links.verify({ ...q, sig: changed })).toBeNull();
    expect(links.verify({ u: q.u, k: q.k })).toBeNull();
    expect(links.verify({ u: [q.u], k: q.k, sig: q.sig })).toBeNull();
    const other = createUnsubscribeLinks({ secret: "another-secret-of-enough-length" });
    expect(other.verify(q)).toBeNull();
  });

  it("needs a real secret", () => {
    expect(() => createUnsubscribeLinks({ secret: "short" })).toThrow();
  });
});

describe("isoWeek", () => {
  it.each([
    ["2030-01-07T08:00:00Z", "2030-W02"],
    ["2029-12-31T00:00:00Z", "2030-W01"],
    ["2027-01-01T12:00:00Z", "2026-W53"],
    ["2026-11-24T16:00:00Z", "2026-W48"],
  ])("%s is %s", (date, week) => {
    expect(isoWeek(new Date(date))).toBe(week);
  });
});

describe("plainExcerpt", () => {
  it("drops markdown marks, code blocks and images, keeps link text, and shortens", () => {
    expect(
      plainExcerpt("A **bold** [link](https://x.example) ![pic](a.png)\n\n```js\ncode()\n```\n> quote"),
    ).toBe("A bold link quote");
    const long = plainExcerpt("word ".repeat(100), 20);
    expect(long.length).toBeLessThanOrEqual(20);
    expect(long.endsWith("…")).toBe(true);
  });
});
