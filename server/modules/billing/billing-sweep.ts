/**
 * What happens at a time rather than on a request (decision 019: "an expiry needs no request to
 * take effect"): one pass over the due rows, run by billing-scheduler.ts on one process per tick
 * (the job's lease, decision 028).
 * - manual rows (every source but Stripe) at their period end: cancelled at period end → canceled;
 *   a pending change → applied, with a receipt for the new period; else renewed, with a receipt;
 * - past_due rows past their grace → expired;
 * - Stripe rows cancelled at period end and past it → canceled (the rest is Stripe's to say);
 * - open checkouts past their expiry → expired.
 * Each row moves through the write path with its `version` expected, so of two processes that saw
 * it due exactly one moves it (the other's update matches nothing and is skipped).
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { DB } from "../../db/schema.ts";
import { ConflictError } from "../../errors.ts";
import { createSubscriptionsRepo, type UserSubscription } from "../subscriptions/subscriptions.repo.ts";
import type { BillingInterval, ProviderSubscriptionState } from "./billing.types.ts";
import type { Applier } from "./billing-apply.ts";
import { addInterval } from "./billing-periods.ts";
import type { ManualProvider } from "./manual-provider.ts";
import { type PlansRepo, periodPrice } from "./plans.repo.ts";

export interface BillingSweepDeps {
  db: Kysely<DB>;
  plans: PlansRepo;
  applier: Applier;
  manual: ManualProvider;
  stateOfRow(row: UserSubscription): ProviderSubscriptionState;
  recordManualReceipt(
    row: UserSubscription,
    input: {
      key: string;
      amountCents: number;
      currency: string;
      description: string;
      periodStart: string | null;
      periodEnd: string | null;
    },
  ): Promise<void>;
  expireCheckouts(nowIso: string): Promise<number>;
  now(): number;
  logger?: Pick<Logger, "warn" | "error" | "info">;
}

const BATCH = 100;
const justBefore = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

export function createBillingSweep(deps: BillingSweepDeps) {
  const { db } = deps;
  const subscriptions = createSubscriptionsRepo(db);

  async function dueRows(
    kind: "manual" | "stripe-canceling" | "grace",
    at: string,
  ): Promise<UserSubscription[]> {
    let query = db.selectFrom("user_subscription").select("id");
    if (kind === "grace") {
      query = query.where("status", "=", "past_due").where("graceUntil", "<=", at);
    } else {
      query = query.where("status", "in", ["active", "trialing"]).where("periodEnd", "<=", at);
      query =
        kind === "manual"
          ? query.where((eb) => eb.or([eb("source", "is", null), eb("source", "<>", "stripe")]))
          : query.where("source", "=", "stripe").where("cancelAtPeriodEnd", "=", true);
    }
    const ids = await query.limit(BATCH).execute();
    const rows = await Promise.all(ids.map((r) => subscriptions.getById(r.id)));
    return rows.filter((r): r is UserSubscription => r !== null);
  }

  /** One manual row at its period end. */
  async function settleManual(row: UserSubscription): Promise<void> {
    const state = deps.stateOfRow(row);
    const end = row.periodEnd!;
    const base = {
      actorId: null,
      provider: "manual" as const,
      sourceEventId: null,
      subscriptionId: row.id,
      expectedVersion: row.version,
    };
    if (row.cancelAtPeriodEnd) {
      await deps.applier.apply(
        { ...state, status: "canceled", cancelAtPeriodEnd: false, canceledAt: end },
        { ...base, reason: "canceled_at_period_end", beforeAt: justBefore(end) },
      );
      return;
    }
    const pending = row.pendingPlanId !== null || row.pendingInterval !== null || row.pendingSeats !== null;
    const planId = row.pendingPlanId ?? state.planId;
    const interval = (row.pendingInterval as BillingInterval | null) ?? state.interval;
    const plan = await deps.plans.get(planId);
    if (!plan) {
      deps.logger?.error({ subscriptionId: row.id, planId }, "billing: a subscription's plan is missing");
      return;
    }
    const seats = plan.perSeat ? (row.pendingSeats ?? state.seats) : 1;
    const periodStart = end;
    const periodEnd = addInterval(end, interval);
    const result = await deps.applier.apply(
      { ...state, planId, interval, seats, status: "active", periodStart, periodEnd },
      {
        ...base,
        reason: pending ? "scheduled_change" : "renewal",
        beforeAt: justBefore(end),
        patch: { pendingPlanId: null, pendingInterval: null, pendingSeats: null },
      },
    );
    await deps.recordManualReceipt(result.subscription, {
      key: `${row.id}_${periodStart}`,
      amountCents: periodPrice(plan, interval, seats),
      currency: plan.currency,
      description: `${plan.name} (${interval === "year" ? "yearly" : "monthly"}${plan.perSeat ? `, ${seats} seats` : ""}) renewed, ${periodStart.slice(0, 10)} to ${periodEnd.slice(0, 10)}`,
      periodStart,
      periodEnd,
    });
  }

  async function endRow(
    row: UserSubscription,
    status: "canceled" | "expired",
    reason: string,
    endAt: string,
  ) {
    const state = deps.stateOfRow(row);
    await deps.applier.apply(
      {
        ...state,
        providerSubscriptionId: row.providerSubscriptionId ?? state.providerSubscriptionId,
        status,
        cancelAtPeriodEnd: false,
        canceledAt: endAt,
      },
      {
        reason,
        actorId: null,
        provider: row.source === "stripe" ? "stripe" : "manual",
        sourceEventId: null,
        subscriptionId: row.id,
        expectedVersion: row.version,
        beforeAt: justBefore(endAt),
      },
    );
  }

  async function each(
    rows: UserSubscription[],
    fn: (row: UserSubscription) => Promise<void>,
  ): Promise<number> {
    let done = 0;
    for (const row of rows) {
      try {
        await fn(row);
        done++;
      } catch (error) {
        // Another process moved it first: nothing to do here.
        if (error instanceof ConflictError) continue;
        deps.logger?.error(
          { err: error, subscriptionId: row.id },
          "billing: a scheduled subscription change failed",
        );
      }
    }
    return done;
  }

  return {
    async runDue(): Promise<{ settled: number; ended: number; expiredCheckouts: number }> {
      const at = new Date(deps.now()).toISOString();
      let settled = await each(await dueRows("manual", at), settleManual);
      settled += await each(await dueRows("stripe-canceling", at), (row) =>
        endRow(row, "canceled", "canceled_at_period_end", row.periodEnd!),
      );
      const ended = await each(await dueRows("grace", at), (row) =>
        endRow(row, "expired", "grace_ended", row.graceUntil!),
      );
      const expiredCheckouts = await deps.expireCheckouts(at);
      return { settled, ended, expiredCheckouts };
    },
  };
}
