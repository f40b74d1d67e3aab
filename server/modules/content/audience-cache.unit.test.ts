import { describe, expect, it } from "vitest";
import { buildUserContext, visitorContext } from "../../../core/index.ts";
import { PERSONA_CLAIMS } from "../../../core/test-personas.ts";
import { actorOf } from "../../../tests/factories/actors.ts";
import { audienceKey, createAudienceCache } from "./audience-cache.ts";

const persona = (name: keyof typeof PERSONA_CLAIMS) => actorOf(buildUserContext(PERSONA_CLAIMS[name]));

describe("audienceKey", () => {
  it("keeps apart visitors, each tier, role holders and content writers", () => {
    const keys = [
      audienceKey(actorOf(visitorContext())),
      audienceKey(persona("free")),
      audienceKey(persona("basic")),
      audienceKey(persona("pro")),
      audienceKey(persona("enterprise")),
      audienceKey(persona("manager")),
      audienceKey(persona("writer")),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("is the same for two readers with the same tier and roles", () => {
    const a = actorOf(buildUserContext({ ...PERSONA_CLAIMS.pro, sub: "someone-else" }));
    expect(audienceKey(a)).toBe(audienceKey(persona("pro")));
  });
});

describe("createAudienceCache", () => {
  it("computes once, then serves the stored value until cleared", async () => {
    const cache = createAudienceCache<number>({ max: 10, ttlMs: 60_000 });
    let calls = 0;
    const compute = async () => ++calls;
    expect(await cache.get("k", compute)).toBe(1);
    expect(await cache.get("k", compute)).toBe(1);
    cache.clear();
    expect(await cache.get("k", compute)).toBe(2);
  });

  it("does not store a value computed while the content changed", async () => {
    const cache = createAudienceCache<string>({ max: 10, ttlMs: 60_000 });
    let release: (value: string) => void = () => {};
    const stale = cache.get("k", () => new Promise<string>((resolve) => (release = resolve)));
    cache.clear();
    release("before the change");
    expect(await stale).toBe("before the change");
    expect(await cache.get("k", async () => "after the change")).toBe("after the change");
  });

  it("answers an entry expired by age from the store while one refresh runs", async () => {
    let now = 0;
    const cache = createAudienceCache<string>({ max: 10, ttlMs: 1000, now: () => now });
    await cache.get("k", async () => "first");
    now = 1500; // expired, within twice the lifetime
    let release: (value: string) => void = () => {};
    let refreshes = 0;
    const slow = () => {
      refreshes++;
      return new Promise<string>((resolve) => (release = resolve));
    };
    expect(await cache.get("k", slow)).toBe("first");
    expect(await cache.get("k", slow)).toBe("first");
    expect(refreshes).toBe(1);
    release("second");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cache.get("k", async () => "unused")).toBe("second");
  });

  it("retries a failed refresh and waits for a fresh value past twice the lifetime", async () => {
    let now = 0;
    const cache = createAudienceCache<string>({ max: 10, ttlMs: 1000, now: () => now });
    await cache.get("k", async () => "first");
    now = 1200;
    expect(await cache.get("k", async () => Promise.reject(new Error("down")))).toBe("first");
    await new Promise((resolve) => setTimeout(resolve, 0));
    now = 2500; // past twice the lifetime: no stale answer any more
    expect(await cache.get("k", async () => "fresh")).toBe("fresh");
  });

  it("never answers from the store after content changed, even within the stale window", async () => {
    let now = 0;
    const cache = createAudienceCache<string>({ max: 10, ttlMs: 1000, now: () => now });
    await cache.get("k", async () => "before");
    now = 1500;
    cache.clear();
    expect(await cache.get("k", async () => "after")).toBe("after");
  });

  it("expires entries and keeps at most `max`", async () => {
    let now = 0;
    const cache = createAudienceCache<number>({ max: 2, ttlMs: 1000, now: () => now });
    await cache.get("a", async () => 1);
    now = 2500; // past twice the lifetime (within it, the stored value answers during a refresh)
    expect(await cache.get("a", async () => 2)).toBe(2);
    await cache.get("b", async () => 3);
    await cache.get("c", async () => 4);
    expect(cache.size).toBe(2);
    expect(await cache.get("a", async () => 5)).toBe(5);
  });
});
