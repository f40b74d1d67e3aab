/**
 * Writes of the `plan` table (plans.service.ts decides who may and validates first). Optimistic
 * concurrency on `version`: an update or archive at a stale version changes nothing and answers
 * "stale". Booleans are written as JS booleans, times as ISO text.
 */
import type { Kysely, Updateable } from "kysely";
import type { DB, PlanTable } from "../../db/schema.ts";
import type { AdminPlanView, PlanKind, PlanTier } from "./billing.types.ts";
import { createPlansRepo } from "./plans.repo.ts";

/** Every field a platform admin sets on a plan. */
export interface PlanFields {
  name: string;
  tier: PlanTier;
  kind: PlanKind;
  description: string;
  currency: string;
  monthlyPriceCents: number;
  yearlyPriceCents: number;
  perSeat: boolean;
  minSeats: number;
  maxSeats: number | null;
  stripeMonthlyPriceId: string | null;
  stripeYearlyPriceId: string | null;
  features: string[];
  sortOrder: number;
}

export type PlanWrite =
  | { ok: true; plan: AdminPlanView }
  | { ok: false; reason: "not-found" | "stale"; current: AdminPlanView | null };

function columns(fields: Partial<PlanFields>): Updateable<PlanTable> {
  const { features, ...rest } = fields;
  return {
    ...rest,
    ...(features !== undefined ? { features: JSON.stringify(features) } : {}),
  };
}

export function createPlansAdminRepo(db: Kysely<DB>) {
  const reads = createPlansRepo(db);

  async function outcome(id: string, updated: bigint | number): Promise<PlanWrite> {
    const current = await reads.get(id);
    if (Number(updated) > 0 && current) return { ok: true, plan: current };
    return { ok: false, reason: current ? "stale" : "not-found", current };
  }

  return {
    async insert(id: string, fields: PlanFields, at: string): Promise<AdminPlanView> {
      await db
        .insertInto("plan")
        .values({
          id,
          ...columns(fields),
          name: fields.name,
          tier: fields.tier,
          archivedAt: null,
          createdAt: at,
          updatedAt: at,
          version: 1,
        })
        .execute();
      return (await reads.get(id))!;
    },

    /** Applies `patch` when the stored version is still `version`. */
    async update(id: string, version: number, patch: Partial<PlanFields>, at: string): Promise<PlanWrite> {
      const result = await db
        .updateTable("plan")
        .set((eb) => ({ ...columns(patch), updatedAt: at, version: eb("version", "+", 1) }))
        .where("id", "=", id)
        .where("version", "=", version)
        .executeTakeFirst();
      return outcome(id, result.numUpdatedRows);
    },

    /** Archives (a time) or restores (null) at `version`. */
    async setArchived(
      id: string,
      version: number,
      archivedAt: string | null,
      at: string,
    ): Promise<PlanWrite> {
      const result = await db
        .updateTable("plan")
        .set((eb) => ({ archivedAt, updatedAt: at, version: eb("version", "+", 1) }))
        .where("id", "=", id)
        .where("version", "=", version)
        .executeTakeFirst();
      return outcome(id, result.numUpdatedRows);
    },
  };
}
