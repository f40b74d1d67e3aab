import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../accounts.ts";
import { DEMO_CONTENT } from "./catalog.ts";
import { DEMO_COMMENTS } from "./comments.ts";

const RANK = { Free: 0, Basic: 1, Pro: 2, Enterprise: 3 } as const;
const ACCOUNT_RANK = { free: 0, basic: 1, pro: 2, enterprise: 3, business: 3 } as const;

describe("demo comments", () => {
  it("are on existing Free and Pro items, by accounts whose plan opens the item, after it was published", () => {
    for (const c of DEMO_COMMENTS) {
      const item = DEMO_CONTENT.find((i) => i.slug === c.contentSlug);
      expect(item, c.key).toBeDefined();
      expect(item!.rolesRequired ?? [], c.key).toEqual([]);
      const account = DEMO_ACCOUNTS.find((a) => a.key === c.author);
      expect(account, c.key).toBeDefined();
      expect(ACCOUNT_RANK[account!.subscriptionTier], c.key).toBeGreaterThanOrEqual(RANK[item!.tier]);
      expect(Date.parse(c.createdAt), c.key).toBeGreaterThan(Date.parse(item!.publishedAt));
      expect(new Date(c.createdAt).toISOString()).toBe(c.createdAt);
    }
    const tiers = new Set(DEMO_COMMENTS.map((c) => DEMO_CONTENT.find((i) => i.slug === c.contentSlug)!.tier));
    expect([...tiers].sort()).toEqual(["Free", "Pro"]);
  });

  it("reply to an earlier comment on the same item", () => {
    DEMO_COMMENTS.forEach((c, index) => {
      if (!c.replyTo) return;
      const parent = DEMO_COMMENTS.findIndex((p) => p.key === c.replyTo);
      expect(parent, c.key).toBeGreaterThanOrEqual(0);
      expect(parent, c.key).toBeLessThan(index);
      expect(DEMO_COMMENTS[parent]!.contentSlug).toBe(c.contentSlug);
      expect(Date.parse(c.createdAt)).toBeGreaterThan(Date.parse(DEMO_COMMENTS[parent]!.createdAt));
    });
  });

  it("have unique keys and unique (item, author, time), and real text", () => {
    expect(new Set(DEMO_COMMENTS.map((c) => c.key)).size).toBe(DEMO_COMMENTS.length);
    expect(new Set(DEMO_COMMENTS.map((c) => `${c.contentSlug} ${c.author} ${c.createdAt}`)).size).toBe(
      DEMO_COMMENTS.length,
    );
    for (const c of DEMO_COMMENTS) {
      expect(c.body.length, c.key).toBeGreaterThan(60);
      expect(c.body.length, c.key).toBeLessThanOrEqual(5000);
      expect(c.body, c.key).not.toMatch(/lorem|ipsum/i);
    }
  });
});
