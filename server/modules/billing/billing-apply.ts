/**
 * The one write path of subscription state (decision 019): a provider's normalized state applied
 * to the `user_subscription` row (found by its provider id, or created), and when the owner's
 * effective tier changes, the `entitlement_changed` audit row and the e-mail of the change.
 * Applying the same state twice changes nothing and sends nothing; a row changed in between
 * (optimistic `version`) is re-read and the state applied again.
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { effectiveSubscription } from "../../../core/effective-subscription.ts";
import { parseTier } from "../../../core/tiers.ts";
import type { DB } from "../../db/schema.ts";
import { ConflictError, DataIntegrityError } from "../../errors.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import {
  createSubscriptionsRepo,
  loadSubscriptionCandidates,
  type UserSubscription,
  type UserSubscriptionPatch,
} from "../subscriptions/subscriptions.repo.ts";
import type { PlanTier, ProviderKind, ProviderSubscriptionState } from "./billing.types.ts";
import { subscriptionMail } from "./billing-mail.ts";
import type { PlansRepo } from "./plans.repo.ts";

const DAY = 86_400_000;

export interface ApplyCause {
  /** Why: checkout, upgrade, downgrade, cancel, resume, renewal, scheduled_change, period_end, grace_ended, payment_failed, webhook … */
  reason: string;
  /** The acting user; null for the scheduler and the provider's events. */
  actorId: string | null;
  provider: ProviderKind;
  /** The provider event behind the change (webhooks), else null. */
  sourceEventId: string | null;
  /** The row to update when known (older rows have no provider id yet). */
  subscriptionId?: string;
  /** Update only this version of the row (a lost race → ConflictError, not retried). */
  expectedVersion?: number;
  /** Further fields written with the state (a pending change set or cleared). */
  patch?: UserSubscriptionPatch;
  /** When the owner's tier "before" is read: just before an end that already took effect. */
  beforeAt?: string;
  /** An administrator's note (admin grant/extend/cancel), kept in the audit row's details. */
  note?: string;
}

export interface ApplyResult {
  subscription: UserSubscription;
  changed: boolean;
  fromTier: PlanTier;
  toTier: PlanTier;
}

export interface ApplyDeps {
  db: Kysely<DB>;
  plans: PlansRepo;
  mailer: Mailer;
  now(): number;
  baseUrl: string;
  graceDays: number;
  logger?: Pick<Logger, "warn" | "error">;
}

const ENDED = new Set(["canceled", "expired"]);
const COMPARED = [
  "planId",
  "tier",
  "billingInterval",
  "seats",
  "status",
  "providerSubscriptionId",
  "periodStart",
  "periodEnd",
  "cancelAtPeriodEnd",
  "canceledAt",
  "expiresAt",
  "graceUntil",
  "pendingPlanId",
  "pendingInterval",
  "pendingSeats",
] as const;

/** A stored tier spelling as the wire's lowercase plan tier ("business" reads as enterprise). */
export function planTierOf(value: unknown): PlanTier {
  const tier = parseTier(value);
  return tier ? (tier.toLowerCase() as PlanTier) : "free";
}

/** Whether the row is billed through Stripe (every other source is managed as manual). */
export const isStripeRow = (row: Pick<UserSubscription, "source">) => row.source === "stripe";

export function createApplier(deps: ApplyDeps) {
  const { db } = deps;
  const subscriptions = createSubscriptionsRepo(db);
  const audit = createAuditRepo(db);
  const nowIso = () => new Date(deps.now()).toISOString();

  /** The organisations (ids) a user belongs to, from their groups. */
  async function tenantIdsOf(userId: string): Promise<string[]> {
    const groups = await db
      .selectFrom("user_group")
      .select("groupName")
      .where("userId", "=", userId)
      .execute();
    const slugs = groups
      .map((g) => g.groupName)
      .filter((g) => g.startsWith("org-") && !g.endsWith("-admin"))
      .map((g) => g.slice(4));
    if (!slugs.length) return [];
    return (await db.selectFrom("organization").select("id").where("slug", "in", slugs).execute()).map(
      (o) => o.id,
    );
  }

  /** The tier an owner reads with at `at`: a reader (their rows and organisations') or an organisation. */
  async function ownerTier(
    owner: { userId: string; tenantId: string | null },
    at: string,
  ): Promise<PlanTier> {
    const rows = owner.tenantId
      ? await db
          .selectFrom("user_subscription")
          .select(["id", "tier", "status", "tenantId", "expiresAt", "canceledAt", "startedAt", "createdAt"])
          .where("tenantId", "=", owner.tenantId)
          .execute()
      : await loadSubscriptionCandidates(db, owner.userId, await tenantIdsOf(owner.userId));
    const best = effectiveSubscription(rows, new Date(at));
    return best ? planTierOf(best.tier) : "free";
  }

  async function findRow(
    state: ProviderSubscriptionState,
    cause: ApplyCause,
  ): Promise<UserSubscription | null> {
    if (cause.subscriptionId) return subscriptions.getById(cause.subscriptionId);
    let query = db
      .selectFrom("user_subscription")
      .select("id")
      .where("providerSubscriptionId", "=", state.providerSubscriptionId);
    query =
      cause.provider === "stripe"
        ? query.where("source", "=", "stripe")
        : query.where((eb) => eb.or([eb("source", "is", null), eb("source", "<>", "stripe")]));
    const found = await query.executeTakeFirst();
    return found ? subscriptions.getById(found.id) : null;
  }

  /** The row's fields for `state` (the contract's semantics). */
  async function fieldsFor(
    state: ProviderSubscriptionState,
    row: UserSubscription | null,
    at: string,
  ): Promise<UserSubscriptionPatch> {
    const plan = await deps.plans.get(state.planId);
    if (!plan) throw new DataIntegrityError(`billing: unknown plan ${state.planId}`);
    const ended = ENDED.has(state.status);
    let expiresAt: string | null = null;
    let graceUntil: string | null = null;
    if (state.status === "past_due") {
      graceUntil =
        row?.status === "past_due" && row.graceUntil
          ? row.graceUntil
          : new Date(Date.parse(at) + deps.graceDays * DAY).toISOString();
      expiresAt = graceUntil;
    } else if (ended) {
      expiresAt = row?.expiresAt ?? null;
    }
    const canceledAt = ended
      ? (row?.canceledAt ?? state.canceledAt ?? at)
      : state.cancelAtPeriodEnd
        ? state.periodEnd
        : null;
    const seats = plan.perSeat ? state.seats : null;
    // A pending change is done once the provider's state is it, or the subscription ended.
    const pendingDone =
      ended ||
      (row?.pendingPlanId != null &&
        row.pendingPlanId === state.planId &&
        (row.pendingInterval ?? state.interval) === state.interval &&
        (row.pendingSeats ?? seats) === seats);
    return {
      planId: plan.id,
      tier: plan.tier,
      billingInterval: state.interval,
      seats,
      status: state.status,
      providerSubscriptionId: state.providerSubscriptionId,
      periodStart: state.periodStart,
      periodEnd: state.periodEnd,
      cancelAtPeriodEnd: ended ? false : state.cancelAtPeriodEnd,
      canceledAt,
      expiresAt,
      graceUntil,
      ...(pendingDone ? { pendingPlanId: null, pendingInterval: null, pendingSeats: null } : {}),
    };
  }

  function differs(row: UserSubscription, patch: UserSubscriptionPatch): boolean {
    for (const key of COMPARED) {
      if (!(key in patch)) continue;
      const next = patch[key as keyof UserSubscriptionPatch];
      const current = row[key as keyof UserSubscription];
      if ((next ?? null) !== (current ?? null)) return true;
    }
    return false;
  }

  async function notify(
    row: UserSubscription,
    fromTier: PlanTier,
    toTier: PlanTier,
    kind: "tier" | "failed",
  ) {
    const user = await db
      .selectFrom("user")
      .select(["email", "name"])
      .where("id", "=", row.userId)
      .executeTakeFirst();
    if (!user) return;
    const plan = row.planId ? await deps.plans.get(row.planId) : null;
    const message = subscriptionMail({
      kind:
        kind === "failed"
          ? "renewal_failed"
          : fromTier === "free"
            ? "started"
            : toTier === "free" || ENDED.has(row.status)
              ? "ended"
              : "changed",
      name: user.name,
      planName: plan?.name ?? toTier,
      fromTier,
      toTier,
      interval: row.billingInterval,
      periodEnd: row.periodEnd,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      graceUntil: row.graceUntil,
      organization: row.tenantId !== null,
      baseUrl: deps.baseUrl,
    });
    try {
      await deps.mailer.send({ to: user.email, ...message });
    } catch (error) {
      // The change stands; the mail is best effort (the outbox or SMTP may be down).
      deps.logger?.warn({ err: error, subscriptionId: row.id }, "billing: the subscription e-mail failed");
    }
  }

  async function applyOnce(state: ProviderSubscriptionState, cause: ApplyCause): Promise<ApplyResult> {
    const at = nowIso();
    const row = await findRow(state, cause);
    const owner = {
      userId: row?.userId ?? state.userId ?? "",
      tenantId: row ? row.tenantId : state.tenantId,
    };
    if (!owner.userId) throw new DataIntegrityError("billing: a subscription state without its reader");
    const fields = { ...(await fieldsFor(state, row, at)), ...(cause.patch ?? {}) };
    const fromTier = await ownerTier(owner, cause.beforeAt ?? at);
    let subscription: UserSubscription;
    if (row) {
      if (!differs(row, fields)) return { subscription: row, changed: false, fromTier, toTier: fromTier };
      subscription = await subscriptions.update(row.id, fields, cause.expectedVersion ?? row.version);
    } else {
      subscription = await subscriptions.create({
        ...fields,
        userId: owner.userId,
        tier: fields.tier ?? state.planId,
        tenantId: owner.tenantId,
        source: cause.patch?.source ?? cause.provider,
        startedAt: at,
        createdAt: at,
      });
    }
    const toTier = await ownerTier(owner, at);
    if (fromTier !== toTier) {
      await audit.append({
        action: "entitlement_changed",
        actorId: cause.actorId,
        targetType: owner.tenantId ? "organization" : "user",
        targetId: owner.tenantId ?? owner.userId,
        at,
        details: {
          fromTier,
          toTier,
          reason: cause.reason,
          provider: cause.provider,
          sourceEventId: cause.sourceEventId,
          subscriptionId: subscription.id,
          ...(cause.note ? { note: cause.note } : {}),
        },
      });
      await notify(subscription, fromTier, toTier, "tier");
    } else if (subscription.status === "past_due" && row?.status !== "past_due") {
      await notify(subscription, fromTier, toTier, "failed");
    }
    return { subscription, changed: true, fromTier, toTier };
  }

  return {
    ownerTier,
    tenantIdsOf,
    /**
     * Applies `state` (see the file comment). With `cause.expectedVersion` a lost race throws
     * ConflictError; otherwise the state is re-applied to the row as it is now (twice at most).
     */
    async apply(state: ProviderSubscriptionState, cause: ApplyCause): Promise<ApplyResult> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await applyOnce(state, cause);
        } catch (error) {
          const lostRace =
            error instanceof ConflictError || (error as { code?: string })?.code === "CONFLICT";
          if (!lostRace || cause.expectedVersion !== undefined || attempt >= 2) throw error;
        }
      }
    },
  };
}

export type Applier = ReturnType<typeof createApplier>;
