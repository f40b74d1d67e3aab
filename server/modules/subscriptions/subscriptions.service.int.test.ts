import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiKeyActor,
  type Outcome,
  outcome,
  serviceCredentialActor,
  userActor,
  visitor,
} from "../../../tests/factories/actors.ts";
import { buildSubscription } from "../../../tests/factories/index.ts";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError, ConflictError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createUsersRepo } from "../users/users.repo.ts";
import { createSubscriptionsRepo, type UserSubscription } from "./subscriptions.repo.ts";
import { createSubscriptionsService, type SubscriptionsService } from "./subscriptions.service.ts";

const tag = randomUUID().slice(0, 8);
const ids = {
  free: `free-${tag}`,
  pro: `pro-${tag}`,
  orgAdmin: `acme-admin-${tag}`,
  otherOrgAdmin: `globex-admin-${tag}`,
  manager: `manager-${tag}`,
  admin: `admin-${tag}`,
};
const acme = `org-acme-${tag}`;
const globex = `org-globex-${tag}`;

const actors: Record<string, () => Actor> = {
  visitor: () => visitor(),
  free: () => userActor({ userId: ids.free, groups: ["individual-free"], tier: "free" }),
  pro: () => userActor({ userId: ids.pro, groups: ["individual-pro"], tier: "pro" }, "bearer"),
  orgAdmin: () =>
    userActor({ userId: ids.orgAdmin, groups: [`org-acme${tag}`, `org-acme${tag}-admin`], tenantId: acme }),
  otherOrgAdmin: () =>
    userActor({
      userId: ids.otherOrgAdmin,
      groups: [`org-globex${tag}`, `org-globex${tag}-admin`],
      tenantId: globex,
    }),
  manager: () => userActor({ userId: ids.manager, groups: ["ContentManager"] }),
  admin: () => userActor({ userId: ids.admin, groups: ["app-admin"] }),
  apiKey: () => apiKeyActor(),
  service: () => serviceCredentialActor(),
};

describe.each(testDialects())("subscriptions service on %s", (dialect) => {
  let t: TestDatabase;
  let service: SubscriptionsService;
  const subs: Record<string, UserSubscription> = {};

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    service = createSubscriptionsService({ db: t.db });
    const users = createUsersRepo(t.db);
    for (const id of Object.values(ids)) await users.create({ id, name: id, email: `${id}@demo.local` });
    const createdAt = new Date().toISOString();
    await t.db
      .insertInto("organization")
      .values([
        { id: acme, name: "Acme", slug: `acme${tag}`, logo: null, createdAt, metadata: null },
        { id: globex, name: "Globex", slug: `globex${tag}`, logo: null, createdAt, metadata: null },
      ])
      .execute();
    const repo = createSubscriptionsRepo(t.db);
    subs.free = await repo.create(buildSubscription(ids.free, { source: "fixture" }));
    subs.pro = await repo.create(buildSubscription(ids.pro, { tier: "pro", source: "fixture" }));
    subs.acme = await repo.create(
      buildSubscription(ids.orgAdmin, { tier: "business", tenantId: acme, source: "fixture" }),
    );
    subs.globex = await repo.create(
      buildSubscription(ids.otherOrgAdmin, { tier: "business", tenantId: globex, source: "fixture" }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  // Who reads which subscription: owners, organisation admins for their tenant, platform admins.
  const readable: Record<string, string[] | Outcome> = {
    visitor: "UNAUTHENTICATED",
    free: ["free"],
    pro: ["pro"],
    orgAdmin: ["acme"],
    otherOrgAdmin: ["globex"],
    manager: [],
    admin: ["free", "pro", "acme", "globex"],
    apiKey: "FORBIDDEN",
    service: "FORBIDDEN",
  };

  it.each(Object.entries(readable))("get and list as %s", async (who, expected) => {
    const actor = actors[who]!();
    for (const [name, sub] of Object.entries(subs)) {
      const want = typeof expected === "string" ? expected : expected.includes(name) ? "ok" : "NOT_FOUND";
      expect(await outcome(() => service.get(actor, sub.id)), `${who} get ${name}`).toBe(want);
    }
    const fixture = { source: { eq: "fixture" } };
    if (typeof expected === "string") {
      expect(await outcome(() => service.list(actor, { filter: fixture }))).toBe(expected);
      expect(await outcome(() => service.listByUserId(actor, ids.free))).toBe(expected);
      return;
    }
    const listed = (await service.list(actor, { filter: fixture, limit: 100 })).items.map((s) => s.id);
    expect(listed.sort()).toEqual(expected.map((n) => subs[n]!.id).sort());
    // list-by-key queries apply the same rule
    const byUser = await service.listByUserId(actor, ids.free);
    expect(byUser.items.map((s) => s.id)).toEqual(expected.includes("free") ? [subs.free!.id] : []);
    const byTenant = await service.listByTenantIdAndTier(actor, acme);
    expect(byTenant.items.map((s) => s.id)).toEqual(expected.includes("acme") ? [subs.acme!.id] : []);
  });

  const writers: Record<string, Outcome> = {
    visitor: "UNAUTHENTICATED",
    free: "FORBIDDEN",
    pro: "FORBIDDEN",
    orgAdmin: "FORBIDDEN",
    otherOrgAdmin: "FORBIDDEN",
    manager: "FORBIDDEN",
    admin: "ok",
    apiKey: "FORBIDDEN",
    service: "FORBIDDEN",
  };

  it.each(Object.entries(writers))("create, update and delete as %s", async (who, expected) => {
    const actor = actors[who]!();
    expect(await outcome(() => service.create(actor, { userId: ids.free, tier: "basic" }))).toBe(expected);
    const target = await createSubscriptionsRepo(t.db).create(buildSubscription(ids.pro, { source: who }));
    expect(
      await outcome(() => service.update(actor, target.id, target.version, { tier: "enterprise" })),
    ).toBe(expected);
    const stored = await createSubscriptionsRepo(t.db).getById(target.id);
    expect(stored?.tier).toBe(expected === "ok" ? "enterprise" : "free");
    expect(await outcome(() => service.delete(actor, target.id))).toBe(expected);
    expect((await createSubscriptionsRepo(t.db).getById(target.id)) === null).toBe(expected === "ok");
  });

  it("refuses mass assignment and bad input, naming the field", async () => {
    const admin = actors.admin!();
    await expect(service.create(admin, { userId: ids.free, tier: "pro", id: "x" })).rejects.toThrow(
      /input\.id/,
    );
    await expect(service.create(admin, { userId: ids.free, tier: "pro", version: 7 })).rejects.toThrow(
      /input\.version/,
    );
    await expect(service.create(admin, { userId: ids.free, tier: "platinum" })).rejects.toThrow(
      /input\.tier/,
    );
    await expect(
      service.update(admin, subs.free!.id, subs.free!.version, { userId: ids.pro }),
    ).rejects.toThrow(BadInputError);
    await expect(service.create(admin, { userId: "nobody", tier: "pro" })).rejects.toThrow(BadInputError);
  });

  it("refuses a stale version and keeps the stored write", async () => {
    const admin = actors.admin!();
    const created = await service.create(admin, { userId: ids.pro, tier: "basic", source: "stale" });
    expect(created.version).toBe(1);
    const first = await service.update(admin, created.id, 1, { status: "trialing" });
    expect(first.version).toBe(2);
    await expect(service.update(admin, created.id, 1, { status: "canceled" })).rejects.toThrow(ConflictError);
    const stored = await service.get(admin, created.id);
    expect(stored).toMatchObject({ status: "trialing", version: 2 });
  });

  describe("lists", () => {
    const tenant = `tenant-${tag}`;
    const tiers = ["basic", "enterprise", "free", "pro"];
    let batch: UserSubscription[] = [];

    beforeAll(async () => {
      const admin = actors.admin!();
      batch = [];
      for (let i = 1; i <= 25; i++) {
        batch.push(
          await service.create(admin, {
            userId: ids.free,
            tier: tiers[i % 4]!,
            tenantId: tenant,
            source: `batch-${String(i).padStart(2, "0")}`,
          }),
        );
      }
    });

    it("pages through every row exactly once, both directions", async () => {
      const admin = actors.admin!();
      for (const sortDirection of ["ASC", "DESC"] as const) {
        const seen: string[] = [];
        let nextToken: string | null = null;
        do {
          const page: Awaited<ReturnType<SubscriptionsService["listByTenantIdAndTier"]>> =
            await service.listByTenantIdAndTier(admin, tenant, { limit: 7, nextToken, sortDirection });
          seen.push(...page.items.map((s) => `${s.tier}|${s.id}`));
          nextToken = page.nextToken;
        } while (nextToken);
        expect(seen).toHaveLength(25);
        expect(new Set(seen).size).toBe(25);
        const sorted = [...seen].sort();
        expect(seen).toEqual(sortDirection === "ASC" ? sorted : sorted.reverse());
      }
    });

    it("applies sort-key conditions on tier", async () => {
      const admin = actors.admin!();
      const tiersOf = async (sortKey: object, sortDirection: "ASC" | "DESC" = "ASC") =>
        (
          await service.listByTenantIdAndTier(admin, tenant, { sortKey, sortDirection, limit: 100 })
        ).items.map((s) => s.tier);
      const count = (tier: string) => batch.filter((s) => s.tier === tier).length;
      expect(await tiersOf({ eq: "pro" })).toEqual(Array(count("pro")).fill("pro"));
      expect(new Set(await tiersOf({ lt: "free" }))).toEqual(new Set(["basic", "enterprise"]));
      expect(new Set(await tiersOf({ le: "basic" }))).toEqual(new Set(["basic"]));
      expect(new Set(await tiersOf({ gt: "free" }))).toEqual(new Set(["pro"]));
      expect(new Set(await tiersOf({ ge: "free" }))).toEqual(new Set(["free", "pro"]));
      expect(await tiersOf({ between: ["enterprise", "free"] }, "DESC")).toEqual([
        ...Array(count("free")).fill("free"),
        ...Array(count("enterprise")).fill("enterprise"),
      ]);
      expect(new Set(await tiersOf({ beginsWith: "ent" }))).toEqual(new Set(["enterprise"]));
      await expect(tiersOf({ eq: "pro", lt: "x" })).rejects.toThrow(BadInputError);
      await expect(tiersOf({ contains: "r" })).rejects.toThrow(BadInputError);
      await expect(service.listByUserId(admin, ids.free, { sortKey: { eq: "x" } })).rejects.toThrow(
        BadInputError,
      );
    });

    it("filters with every operator", async () => {
      const admin = actors.admin!();
      const sources = async (source: object) =>
        (await service.list(admin, { filter: { tenantId: { eq: tenant }, source }, limit: 100 })).items
          .map((s) => s.source)
          .sort();
      expect(await sources({ eq: "batch-05" })).toEqual(["batch-05"]);
      expect(await sources({ ne: "batch-05" })).toHaveLength(24);
      expect(await sources({ lt: "batch-03" })).toEqual(["batch-01", "batch-02"]);
      expect(await sources({ gt: "batch-23" })).toEqual(["batch-24", "batch-25"]);
      expect(await sources({ between: ["batch-10", "batch-12"] })).toEqual([
        "batch-10",
        "batch-11",
        "batch-12",
      ]);
      expect(await sources({ beginsWith: "batch-1" })).toHaveLength(10);
      expect(await sources({ contains: "h-2" })).toEqual([
        "batch-20",
        "batch-21",
        "batch-22",
        "batch-23",
        "batch-24",
        "batch-25",
      ]);
      // case-sensitive on both dialects
      expect(await sources({ beginsWith: "BATCH" })).toEqual([]);
      await expect(sources({ like: "x" })).rejects.toThrow(/filter\.source/);
      await expect(service.list(admin, { filter: { metadata: { eq: "x" } } })).rejects.toThrow(
        /filter\.metadata/,
      );
    });

    it("refuses a malformed nextToken and an out-of-range limit", async () => {
      const admin = actors.admin!();
      await expect(service.list(admin, { nextToken: "!!" })).rejects.toThrow(BadInputError);
      await expect(service.list(admin, { limit: 101 })).rejects.toThrow(BadInputError);
    });
  });
});
