import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareSubscriptions,
  effectiveSubscription,
  type SubscriptionCandidate,
  subscriptionGrants,
} from "./effective-subscription.ts";
import { planRank } from "./tiers.ts";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();

let seq = 0;
function row(fields: Partial<SubscriptionCandidate> & { tier: string }): SubscriptionCandidate {
  seq += 1;
  return {
    id: `sub-${String(seq).padStart(4, "0")}`,
    status: "active",
    expiresAt: null,
    canceledAt: null,
    startedAt: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...fields,
  };
}

describe("effectiveSubscription", () => {
  it("no rows, or none granting → null", () => {
    expect(effectiveSubscription([], NOW)).toBeNull();
    expect(
      effectiveSubscription(
        [row({ tier: "Pro", status: "canceled" }), row({ tier: "Pro", expiresAt: at(-1) })],
        NOW,
      ),
    ).toBeNull();
  });

  it("an expired Pro and an active Basic → Basic", () => {
    const basic = row({ tier: "Basic", expiresAt: at(30) });
    expect(effectiveSubscription([row({ tier: "Pro", expiresAt: at(-1) }), basic], NOW)).toBe(basic);
  });

  it("the highest tier wins; business reads as Enterprise; unknown tiers rank below Free", () => {
    const pro = row({ tier: "Pro" });
    const seat = row({ tier: "business" });
    expect(effectiveSubscription([pro, seat, row({ tier: "basic" })], NOW)).toBe(seat);
    const free = row({ tier: "free" });
    const odd = row({ tier: "platinum" });
    expect(effectiveSubscription([odd, free], NOW)).toBe(free);
    expect(effectiveSubscription([odd], NOW)).toBe(odd);
    expect(planRank("ENTERPRISE")).toBe(3);
    expect(planRank("business")).toBe(3);
    expect(planRank("platinum")).toBe(-1);
  });

  it("grants: active or trialing, until expiresAt and until a cancellation takes effect", () => {
    expect(subscriptionGrants(row({ tier: "Pro", status: "trialing" }), NOW)).toBe(true);
    for (const status of ["past_due", "canceled", "expired", "ACTIVE", ""]) {
      expect(subscriptionGrants(row({ tier: "Pro", status }), NOW)).toBe(false);
    }
    // canceled at period end: still granting until the cancellation date, not after
    const atPeriodEnd = row({ tier: "Pro", canceledAt: at(10), expiresAt: at(10) });
    expect(subscriptionGrants(atPeriodEnd, NOW)).toBe(true);
    expect(subscriptionGrants(atPeriodEnd, new Date(at(10)))).toBe(false);
    expect(subscriptionGrants(row({ tier: "Pro", canceledAt: at(-1), expiresAt: at(10) }), NOW)).toBe(false);
    // expiry is exclusive: at the very instant of expiresAt the row no longer grants
    expect(subscriptionGrants(row({ tier: "Pro", expiresAt: NOW.toISOString() }), NOW)).toBe(false);
  });

  it("a failed payment (past_due) grants only through its grace end", () => {
    expect(subscriptionGrants(row({ tier: "Pro", status: "past_due", expiresAt: at(3) }), NOW)).toBe(true);
    expect(
      subscriptionGrants(row({ tier: "Pro", status: "past_due", expiresAt: at(3) }), new Date(at(3))),
    ).toBe(false);
    // no grace end recorded: nothing granted
    expect(subscriptionGrants(row({ tier: "Pro", status: "past_due", expiresAt: null }), NOW)).toBe(false);
    // cancelled before the grace ends: the cancellation wins
    expect(
      subscriptionGrants(row({ tier: "Pro", status: "past_due", expiresAt: at(3), canceledAt: at(-1) }), NOW),
    ).toBe(false);
  });

  it("ties: the most recently started (startedAt, else createdAt), then the greatest id", () => {
    const older = row({ tier: "Pro", status: "active", startedAt: "2026-02-01T00:00:00.000Z" });
    const newer = row({ tier: "Pro", status: "trialing", createdAt: "2026-03-01T00:00:00.000Z" });
    expect(effectiveSubscription([older, newer], NOW)).toBe(newer);
    const a = row({ id: "a", tier: "Enterprise" });
    const b = row({ id: "b", tier: "business" });
    expect(effectiveSubscription([a, b], NOW)).toBe(b);
    expect(effectiveSubscription([b, a], NOW)).toBe(b);
    expect(compareSubscriptions(a, a)).toBe(0);
  });
});

const TIER_NAMES = ["free", "Basic", "pro", "Pro", "enterprise", "business", "platinum"];
const STATUSES = ["active", "trialing", "past_due", "canceled", "expired"];
const isoArb = fc.integer({ min: -5, max: 5 }).map((d) => new Date(NOW.getTime() + d * DAY).toISOString());
const candidateArb = fc.record({
  id: fc.string({ minLength: 1, maxLength: 4 }),
  tier: fc.constantFrom(...TIER_NAMES),
  status: fc.constantFrom(...STATUSES),
  expiresAt: fc.option(isoArb, { nil: null }),
  canceledAt: fc.option(isoArb, { nil: null }),
  startedAt: fc.option(isoArb, { nil: null }),
  createdAt: isoArb,
});
const rowsArb = fc.uniqueArray(candidateArb, { selector: (r) => r.id, maxLength: 8 });

describe("effectiveSubscription properties", () => {
  it("does not depend on the order of the rows", () => {
    fc.assert(
      fc.property(
        rowsArb.chain((rows) =>
          fc.tuple(fc.constant(rows), fc.shuffledSubarray(rows, { minLength: rows.length })),
        ),
        ([rows, shuffled]) => {
          expect(effectiveSubscription(shuffled, NOW)).toBe(effectiveSubscription(rows, NOW));
        },
      ),
    );
  });

  it("an expired, canceled or non-granting row never wins; some granting row always does", () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const best = effectiveSubscription(rows, NOW);
        const granting = rows.filter((r) => subscriptionGrants(r, NOW));
        if (granting.length === 0) {
          expect(best).toBeNull();
          return;
        }
        expect(best).not.toBeNull();
        expect(["active", "trialing", "past_due"]).toContain(best!.status);
        expect(best!.expiresAt === null || best!.expiresAt > NOW.toISOString()).toBe(true);
        if (best!.status === "past_due") expect(best!.expiresAt).not.toBeNull();
        expect(best!.canceledAt === null || best!.canceledAt > NOW.toISOString()).toBe(true);
        for (const r of granting) {
          expect(planRank(best!.tier)).toBeGreaterThanOrEqual(planRank(r.tier));
        }
      }),
    );
  });

  it("adding non-granting rows changes nothing", () => {
    fc.assert(
      fc.property(rowsArb, rowsArb, (rows, noise) => {
        const dead = noise
          .map((r) => ({ ...r, id: `x-${r.id}`, status: "canceled" }))
          .concat(noise.map((r) => ({ ...r, id: `y-${r.id}`, expiresAt: NOW.toISOString() })));
        expect(effectiveSubscription([...dead, ...rows], NOW)).toBe(effectiveSubscription(rows, NOW));
      }),
    );
  });

  it("an organisation seat counts like an own subscription: the rule never looks at whose row it is", () => {
    fc.assert(
      fc.property(rowsArb, fc.array(fc.boolean()), (rows, seatFlags) => {
        const tagged = rows.map((r, i) => ({ ...r, tenantId: seatFlags[i] ? "org-1" : null }));
        const asOwn = tagged.map((r) => ({ ...r, tenantId: null }));
        expect(effectiveSubscription(tagged, NOW)?.id).toBe(effectiveSubscription(asOwn, NOW)?.id);
      }),
    );
  });
});
