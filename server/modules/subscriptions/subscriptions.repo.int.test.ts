import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDialects } from "../../db/test-database.ts";
import { BadInputError, NotFoundError } from "../../errors.ts";
import { createUsersRepo } from "../users/users.repo.ts";
import { createSubscriptionsRepo, loadSubscriptionCandidates } from "./subscriptions.repo.ts";

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testDialects())("subscriptions repository on %s", (dialect) => {
  let t: TestDatabase;
  let subs: ReturnType<typeof createSubscriptionsRepo>;
  const newUser = async () =>
    (await createUsersRepo(t.db).create({ name: "Sub", email: `${unique("sub")}@demo.local` })).id;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    subs = createSubscriptionsRepo(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("round-trips a subscription with its JSON metadata", async () => {
    const userId = await newUser();
    const created = await subs.create({
      userId,
      tier: "Pro",
      tenantId: "org-1",
      status: "trialing",
      source: "stripe",
      startedAt: "2026-01-01T00:00:00.000Z",
      expiresAt: "2027-01-01T00:00:00+00:00",
      metadata: { stripeSubscriptionId: "sub_123", seats: 3, flags: [true, null] },
    });
    expect(created).toMatchObject({
      userId,
      tier: "Pro",
      status: "trialing",
      expiresAt: "2027-01-01T00:00:00.000Z",
      canceledAt: null,
      metadata: { stripeSubscriptionId: "sub_123", seats: 3, flags: [true, null] },
    });
    expect(await subs.getById(created.id)).toEqual(created);
    const defaults = await subs.create({ userId, tier: "Free" });
    expect(defaults).toMatchObject({ status: "active", metadata: null, tenantId: null });

    const updated = await subs.update(created.id, {
      status: "canceled",
      canceledAt: "2026-06-01T00:00:00.000Z",
    });
    expect(updated).toMatchObject({ status: "canceled", canceledAt: "2026-06-01T00:00:00.000Z" });
    await expect(
      subs.update(created.id, { metadata: "x" as unknown as Record<string, never> }),
    ).rejects.toThrow(BadInputError);
    await expect(subs.update("missing", { status: "active" })).rejects.toThrow(NotFoundError);
    await expect(subs.create({ userId: "no-such-user", tier: "Pro" })).rejects.toThrow(BadInputError);
    expect(await subs.delete(defaults.id)).toBe(true);
    expect(await subs.delete(defaults.id)).toBe(false);
  });

  it("looks up by user (newest first) and by tenant + tier", async () => {
    const userId = await newUser();
    const tenantId = unique("tenant");
    const a = await subs.create({ userId, tier: "Basic", tenantId, createdAt: "2026-01-01T00:00:00.000Z" });
    const b = await subs.create({
      userId,
      tier: "Enterprise",
      tenantId,
      createdAt: "2026-02-01T00:00:00.000Z",
    });
    const other = await newUser();
    const c = await subs.create({
      userId: other,
      tier: "Enterprise",
      tenantId,
      createdAt: "2026-03-01T00:00:00.000Z",
    });
    expect((await subs.listByUserId(userId)).map((s) => s.id)).toEqual([b.id, a.id]);
    expect((await subs.listByTenant(tenantId, "Enterprise")).map((s) => s.id)).toEqual([c.id, b.id]);
    expect((await subs.listByTenant(tenantId)).map((s) => s.id)).toEqual([c.id, b.id, a.id]);
    expect(await subs.listByTenant(tenantId, "Pro")).toEqual([]);
  });

  it("loads the candidates of a user (own rows and their organisations' rows) and applies the effective rule", async () => {
    const now = Date.now();
    const userId = await newUser();
    const admin = await newUser();
    const tenantId = unique("tenant");
    const otherTenant = unique("tenant");
    expect(await subs.getEffectiveForUser(userId, [tenantId])).toBeNull();

    await subs.create({ userId, tier: "Enterprise", status: "active", expiresAt: iso(now - DAY) }); // expired
    await subs.create({ userId, tier: "Enterprise", status: "active", canceledAt: iso(now - DAY) }); // canceled
    await subs.create({ userId, tier: "Enterprise", status: "past_due" }); // wrong status
    await subs.create({ userId, tier: "Enterprise", status: "canceled" });
    await subs.create({ userId: admin, tier: "Enterprise", tenantId: otherTenant }); // not their organisation
    const basic = await subs.create({ userId, tier: "Basic", status: "active", expiresAt: iso(now + DAY) });
    expect((await subs.getEffectiveForUser(userId, [tenantId]))?.id).toBe(basic.id);

    // canceled in the future: still active until then
    const pro = await subs.create({ userId, tier: "Pro", status: "trialing", canceledAt: iso(now + DAY) });
    expect((await subs.getEffectiveForUser(userId, [tenantId]))?.id).toBe(pro.id);

    // an organisation seat plan held by another member counts for this user too
    const seat = await subs.create({
      userId: admin,
      tier: "business",
      tenantId,
      expiresAt: iso(now + 3 * DAY),
    });
    expect((await subs.getEffectiveForUser(userId, [tenantId]))?.id).toBe(seat.id);
    expect((await subs.getEffectiveForUser(userId))?.id).toBe(pro.id);

    const candidates = (await loadSubscriptionCandidates(t.db, userId, [tenantId])).map((s) => s.id).sort();
    expect(candidates).toHaveLength(7); // every own and member-organisation row; not the other tenant
    expect(candidates).toEqual(expect.arrayContaining([basic.id, pro.id, seat.id]));

    // seen from two days later, the own rows have lapsed; from four days, everything has
    expect((await subs.getEffectiveForUser(userId, [tenantId], new Date(now + 2 * DAY)))?.id).toBe(seat.id);
    expect(await subs.getEffectiveForUser(userId, [], new Date(now + 2 * DAY))).toBeNull();
    expect(await subs.getEffectiveForUser(userId, [tenantId], new Date(now + 4 * DAY))).toBeNull();
  });
});
