/**
 * Plans as data (migration 023, decision 019): reads of the `plan` table and the price arithmetic
 * every screen and the providers share. Writes and their access rules: plans.service.ts.
 */
import type { Kysely, Selectable } from "kysely";
import { z } from "zod";
import { fromJson } from "../../db/json.ts";
import type { DB, PlanTable } from "../../db/schema.ts";
import { toBool } from "../../db/values.ts";
import type { AdminPlanView, BillingInterval, PlanKind, PlanTier, PlanView } from "./billing.types.ts";

const featuresSchema = z.array(z.string()).nullable();

type Row = Selectable<PlanTable>;

/** What a year saves against twelve monthly payments (cents, and a whole percent). */
export function yearlySaving(monthlyCents: number, yearlyCents: number): { cents: number; percent: number } {
  const twelve = monthlyCents * 12;
  if (twelve <= 0 || yearlyCents >= twelve) return { cents: 0, percent: 0 };
  return { cents: twelve - yearlyCents, percent: Math.round(((twelve - yearlyCents) / twelve) * 100) };
}

/** The price of one period of a plan for `seats` seats (a plan that is not per seat ignores seats). */
export function periodPrice(
  plan: Pick<PlanView, "monthlyPriceCents" | "yearlyPriceCents" | "perSeat">,
  interval: BillingInterval,
  seats = 1,
): number {
  const unit = interval === "year" ? plan.yearlyPriceCents : plan.monthlyPriceCents;
  return plan.perSeat ? unit * Math.max(1, seats) : unit;
}

export function planFromRow(row: Row): AdminPlanView {
  const saving = yearlySaving(row.monthlyPriceCents, row.yearlyPriceCents);
  return {
    id: row.id,
    name: row.name,
    tier: row.tier as PlanTier,
    kind: row.kind as PlanKind,
    description: row.description,
    currency: row.currency,
    monthlyPriceCents: row.monthlyPriceCents,
    yearlyPriceCents: row.yearlyPriceCents,
    yearlySavingCents: saving.cents,
    yearlySavingPercent: saving.percent,
    perSeat: toBool(row.perSeat),
    minSeats: row.minSeats,
    maxSeats: row.maxSeats,
    features: fromJson(featuresSchema, row.features, "features") ?? [],
    sortOrder: row.sortOrder,
    archived: row.archivedAt !== null,
    stripeMonthlyPriceId: row.stripeMonthlyPriceId,
    stripeYearlyPriceId: row.stripeYearlyPriceId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}

/** The reader's view of a plan: without the provider ids and bookkeeping. */
export function publicPlan(plan: AdminPlanView): PlanView {
  const {
    stripeMonthlyPriceId: _m,
    stripeYearlyPriceId: _y,
    createdAt: _c,
    updatedAt: _u,
    version: _v,
    ...view
  } = plan;
  return view;
}

export function createPlansRepo(db: Kysely<DB>) {
  return {
    async get(id: string): Promise<AdminPlanView | null> {
      const row = await db.selectFrom("plan").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? planFromRow(row) : null;
    },

    /** Every plan in display order; archived ones only when asked. */
    async list(options: { includeArchived?: boolean } = {}): Promise<AdminPlanView[]> {
      let query = db.selectFrom("plan").selectAll();
      if (!options.includeArchived) query = query.where("archivedAt", "is", null);
      const rows = await query.orderBy("sortOrder").orderBy("id").execute();
      return rows.map(planFromRow);
    },

    /** The plan and interval a Stripe price id stands for (archived plans included: old subscriptions). */
    async byStripePrice(priceId: string): Promise<{ plan: AdminPlanView; interval: BillingInterval } | null> {
      const row = await db
        .selectFrom("plan")
        .selectAll()
        .where((eb) =>
          eb.or([eb("stripeMonthlyPriceId", "=", priceId), eb("stripeYearlyPriceId", "=", priceId)]),
        )
        .executeTakeFirst();
      if (!row) return null;
      return { plan: planFromRow(row), interval: row.stripeYearlyPriceId === priceId ? "year" : "month" };
    },
  };
}

export type PlansRepo = ReturnType<typeof createPlansRepo>;
