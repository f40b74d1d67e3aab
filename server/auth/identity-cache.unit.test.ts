import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { DB } from "../db/schema.ts";
import { createIdentityCache, writesIdentity } from "./identity-cache.ts";

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

describe("writesIdentity", () => {
  it("counts writes that change a session or claims", () => {
    expect(writesIdentity(db.deleteFrom("session").where("id", "=", "s").toOperationNode())).toBe(true);
    expect(
      writesIdentity(db.updateTable("session").set({ token: "t" }).where("id", "=", "s").toOperationNode()),
    ).toBe(true);
    expect(
      writesIdentity(db.updateTable("user").set({ isActive: false }).where("id", "=", "u").toOperationNode()),
    ).toBe(true);
    expect(
      writesIdentity(
        db
          .insertInto("user_group")
          .values({ userId: "u", groupName: "pro", createdAt: "2026-01-01T00:00:00.000Z" })
          .toOperationNode(),
      ),
    ).toBe(true);
    expect(writesIdentity(db.updateTable("user_subscription").set({ tier: "Free" }).toOperationNode())).toBe(
      true,
    );
    expect(writesIdentity(db.deleteFrom("twoFactor").toOperationNode())).toBe(true);
    expect(writesIdentity(sql`delete from "session" where "userId" = ${"u"}`.toOperationNode())).toBe(true);
    expect(writesIdentity(sql`UPDATE user_subscription SET tier = 'free'`.toOperationNode())).toBe(true);
  });

  it("does not count reads, activity bookkeeping or other tables", () => {
    expect(writesIdentity(db.selectFrom("session").selectAll().toOperationNode())).toBe(false);
    expect(
      writesIdentity(
        db.updateTable("session").set({ lastActiveAt: 1 }).where("id", "=", "s").toOperationNode(),
      ),
    ).toBe(false);
    expect(writesIdentity(db.updateTable("content").set({ title: "x" }).toOperationNode())).toBe(false);
    expect(writesIdentity(sql`select * from "session"`.toOperationNode())).toBe(false);
    expect(writesIdentity(sql`update "content" set "title" = 'session'`.toOperationNode())).toBe(false);
  });
});

describe("createIdentityCache", () => {
  function cacheAt(start = 0) {
    const clock = { t: start };
    const cache = createIdentityCache<string, string>({ ttlMs: 2000, maxEntries: 3, clock: () => clock.t });
    return { cache, clock };
  }

  it("keeps an entry for its TTL, then reads again", () => {
    const { cache, clock } = cacheAt();
    cache.putSession("k", "row", cache.generation);
    expect(cache.getSession("k")).toBe("row");
    clock.t += 2000;
    expect(cache.getSession("k")).toBe("row");
    clock.t += 1;
    expect(cache.getSession("k")).toBeUndefined();
  });

  it("drops everything on an invalidation and refuses a value read before it", () => {
    const { cache } = cacheAt();
    cache.putSession("k", "row", cache.generation);
    cache.putClaims("u", "claims", cache.generation);
    const readAt = cache.generation;
    cache.invalidate();
    expect(cache.getSession("k")).toBeUndefined();
    expect(cache.getClaims("u")).toBeUndefined();
    cache.putSession("k", "stale row", readAt);
    expect(cache.getSession("k")).toBeUndefined();
  });

  it("invalidates through the Kysely plugin before and after an identity write", async () => {
    const { cache } = cacheAt();
    cache.putSession("k", "row", cache.generation);
    const node = db.deleteFrom("session").toOperationNode();
    const queryId = { queryId: "q1" };
    cache.plugin.transformQuery({ node, queryId });
    expect(cache.getSession("k")).toBeUndefined();
    const readAt = cache.generation;
    await cache.plugin.transformResult({ queryId, result: { rows: [] } });
    cache.putSession("k", "read during the write", readAt);
    expect(cache.getSession("k")).toBeUndefined();
  });

  it("holds at most maxEntries, the oldest going first; keys are hashes", () => {
    const { cache } = cacheAt();
    for (const k of ["a", "b", "c", "d"]) cache.putSession(k, k, cache.generation);
    expect(cache.getSession("a")).toBeUndefined();
    expect(cache.getSession("d")).toBe("d");
    expect(cache.stats().sessions).toBe(3);
    expect(cache.sessionKey("token")).not.toContain("token");
    expect(cache.sessionKey("token")).toBe(cache.sessionKey("token"));
  });

  it("revalidates on a revision read that started after the caller arrived, shared by callers", async () => {
    let revision = 1;
    let reads = 0;
    const gates: Array<() => void> = [];
    const cache = createIdentityCache<string, string>({
      readRevision: () =>
        new Promise<number>((resolve) => {
          reads++;
          const seen = revision;
          gates.push(() => resolve(seen));
        }),
    });
    const first = cache.revalidate();
    gates.shift()!();
    await first;
    cache.putSession("k", "row", cache.generation);

    const inFlight = cache.revalidate(); // reads revision 1
    revision = 2; // a write lands while that read is in flight
    const late = [cache.revalidate(), cache.revalidate()]; // must not trust the read in flight
    gates.shift()!();
    await inFlight;
    expect(cache.getSession("k")).toBe("row");
    gates.shift()!();
    await Promise.all(late);
    expect(reads).toBe(3);
    expect(cache.getSession("k")).toBeUndefined();
  });
});
