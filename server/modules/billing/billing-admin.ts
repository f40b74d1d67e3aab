/**
 * Platform administrators' subscription operations (issue 14, /admin/subscriptions): every
 * `user_subscription` row with its reader and organisation (filters, keyset paging, a summary),
 * and grant / extend / cancel with a required note. Writes go through the billing service's one
 * write path (billing-apply.ts), so a tier change gets its `entitlement_changed` audit row (with
 * the note) and its e-mail; every admin action also gets its own audit row (`subscription_granted`,
 * `subscription_extended`, `subscription_canceled`) naming the actor and the note.
 *
 * Access: `core/admin-scope.ts` operation `subscriptions.manage` (platform admins only;
 * organisation admins, API keys and service tokens are refused).
 *
 * Providers: a Stripe row is cancelled at its period end through Stripe (`cancelAtPeriodEnd`);
 * Stripe owns a Stripe row's periods, so extending it or ending it now is refused (409) with where
 * to do it instead. Every other row is managed as manual (decision 019).
 */
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { z } from "zod";
import { adminAccess } from "../../../core/admin-scope.ts";
import { decodeCursor, encodeCursor } from "../../db/pagination.ts";
import type { DB } from "../../db/schema.ts";
import { toBool } from "../../db/values.ts";
import {
  BadInputError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  StaleVersionError,
  UnauthenticatedError,
} from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { createSubscriptionsRepo, type UserSubscription } from "../subscriptions/subscriptions.repo.ts";
import type { BillingProvider, PlanTier, ProviderSubscriptionState } from "./billing.types.ts";
import { type Applier, isStripeRow, planTierOf } from "./billing-apply.ts";
import { parse } from "./billing-inputs.ts";
import { manualSubscriptionId, stateOfManualRow } from "./manual-provider.ts";
import type { PlansRepo } from "./plans.repo.ts";

const DAY = 86_400_000;
const LIVE = ["active", "trialing", "past_due"] as const;
export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "canceled", "expired"] as const;
export const ADMIN_SUBSCRIPTIONS_LIMIT = 50;

/** One row of the admin list. */
export interface AdminSubscriptionView {
  id: string;
  version: number;
  user: { id: string; name: string; email: string };
  organization: { id: string; name: string } | null;
  planId: string | null;
  tier: PlanTier;
  status: string;
  /** The stored source: manual, stripe, admin, demo, sign-up … */
  source: string | null;
  /** Who manages it: Stripe for Stripe's rows, the manual logic for every other. */
  provider: "stripe" | "manual";
  billingInterval: string | null;
  seats: number | null;
  periodEnd: string | null;
  expiresAt: string | null;
  canceledAt: string | null;
  cancelAtPeriodEnd: boolean;
  createdAt: string;
}

export interface AdminSubscriptionSummary {
  /** Live (active, trialing, past due) paid subscriptions by tier, and distinct paying readers. */
  byTier: { tier: PlanTier; subscriptions: number }[];
  payingReaders: number;
}

export interface AdminSubscriptionPage {
  items: AdminSubscriptionView[];
  nextCursor: string | null;
  summary: AdminSubscriptionSummary;
}

const text = (max: number) => z.string().trim().max(max);
const isoDate = z
  .string()
  .trim()
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)),
    {
      message: "expected a date (YYYY-MM-DD)",
    },
  );

export const listQuerySchema = z.strictObject({
  tier: z.enum(["free", "basic", "pro", "enterprise"]).optional(),
  plan: text(60).min(1).optional(),
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  source: text(40).min(1).optional(),
  owner: z.enum(["personal", "organisation"]).optional(),
  q: text(200).optional(),
  endingBefore: isoDate.optional(),
  cursor: z.string().max(1024).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export type AdminSubscriptionQuery = z.input<typeof listQuerySchema>;

const note = z.string().trim().min(1, "a note is required").max(500);
const days = z.coerce.number().int().min(1).max(3650);

export const grantSchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(3).max(320),
  planId: z.string().trim().min(1).max(60),
  days: days.optional(),
  until: isoDate.optional(),
  note,
});
export const extendSchema = z.strictObject({
  version: z.coerce.number().int().min(1),
  days: days.optional(),
  until: isoDate.optional(),
  note,
});
export const cancelSchema = z.strictObject({
  version: z.coerce.number().int().min(1),
  when: z.enum(["period_end", "now"]),
  note,
});

const cursorSchema = z.strictObject({ createdAt: z.string().min(1).max(64), id: z.string().min(1).max(200) });

/** The platform administrator acting (throws 401/403 otherwise). */
export function requireSubscriptionsAdmin(actor: Actor): string {
  if (actor.kind === "visitor") throw new UnauthenticatedError("Sign in first.");
  if (actor.kind !== "user" || !actor.userId) {
    throw new ForbiddenError(
      "Subscriptions are managed by a signed-in platform administrator; API keys are refused.",
    );
  }
  const decision = adminAccess("subscriptions.manage", actor.access);
  if (decision.kind === "denied") {
    if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
    throw new ForbiddenError(decision.message);
  }
  return actor.userId;
}

/** `days` or `until` (exactly one) as an end after `from`; 400 naming the field otherwise. */
function endOf(input: { days?: number; until?: string }, from: number, now: number): string {
  if (input.days !== undefined && input.until !== undefined) {
    throw new BadInputError("Give either days or until, not both.", {
      field: { until: "give days or until" },
    });
  }
  if (input.days !== undefined) return new Date(from + input.days * DAY).toISOString();
  if (input.until === undefined) {
    throw new BadInputError("Say how long: days or until.", { field: { days: "required (or until)" } });
  }
  const until = /^\d{4}-\d{2}-\d{2}$/.test(input.until)
    ? Date.parse(`${input.until}T23:59:59.999Z`)
    : Date.parse(input.until);
  if (until <= now) {
    throw new BadInputError("The end date must be in the future.", {
      field: { until: "must be in the future" },
    });
  }
  if (until <= from) {
    throw new BadInputError("The new end must be after the current end.", {
      field: { until: "must be after the current end" },
    });
  }
  return new Date(until).toISOString();
}

const likeEscape = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface BillingAdminDeps {
  db: Kysely<DB>;
  plans: PlansRepo;
  applier: Applier;
  /** The provider that manages a row (Stripe's rows: Stripe; every other: manual). */
  providerFor(row: UserSubscription): BillingProvider;
  now(): number;
}

export function createBillingAdmin(deps: BillingAdminDeps) {
  const { db } = deps;
  const subscriptions = createSubscriptionsRepo(db);
  const audit = createAuditRepo(db);
  const nowIso = () => new Date(deps.now()).toISOString();

  function baseQuery() {
    return db
      .selectFrom("user_subscription as s")
      .innerJoin("user as u", "u.id", "s.userId")
      .leftJoin("organization as o", "o.id", "s.tenantId");
  }

  async function viewsOf(
    where: (q: ReturnType<typeof baseQuery>) => ReturnType<typeof baseQuery>,
    limit: number,
  ) {
    const rows = await where(baseQuery())
      .select([
        "s.id",
        "s.version",
        "s.userId",
        "u.name as userName",
        "u.email as userEmail",
        "s.tenantId",
        "o.name as orgName",
        "s.planId",
        "s.tier",
        "s.status",
        "s.source",
        "s.billingInterval",
        "s.seats",
        "s.periodEnd",
        "s.expiresAt",
        "s.canceledAt",
        "s.cancelAtPeriodEnd",
        "s.createdAt",
      ])
      .orderBy("s.createdAt", "desc")
      .orderBy("s.id", "desc")
      .limit(limit)
      .execute();
    return rows.map(
      (r): AdminSubscriptionView => ({
        id: r.id,
        version: Number(r.version),
        user: { id: r.userId, name: r.userName, email: r.userEmail },
        organization: r.tenantId ? { id: r.tenantId, name: r.orgName ?? r.tenantId } : null,
        planId: r.planId,
        tier: planTierOf(r.tier),
        status: r.status,
        source: r.source,
        provider: r.source === "stripe" ? "stripe" : "manual",
        billingInterval: r.billingInterval,
        seats: r.seats === null ? null : Number(r.seats),
        periodEnd: r.periodEnd,
        expiresAt: r.expiresAt,
        canceledAt: r.canceledAt,
        cancelAtPeriodEnd: toBool(r.cancelAtPeriodEnd),
        createdAt: r.createdAt,
      }),
    );
  }

  async function viewById(id: string): Promise<AdminSubscriptionView> {
    const [view] = await viewsOf((q) => q.where("s.id", "=", id), 1);
    if (!view) throw new NotFoundError("subscription", "There is no such subscription");
    return view;
  }

  async function summary(): Promise<AdminSubscriptionSummary> {
    const live = db
      .selectFrom("user_subscription")
      .where("status", "in", [...LIVE])
      .where(sql<string>`lower(tier)`, "<>", "free");
    const byTierRows = await live
      .select(["tier", db.fn.countAll<number | string>().as("n")])
      .groupBy("tier")
      .execute();
    const counts = new Map<PlanTier, number>();
    for (const row of byTierRows) {
      const tier = planTierOf(row.tier);
      if (tier === "free") continue;
      counts.set(tier, (counts.get(tier) ?? 0) + Number(row.n));
    }
    const readers = await live
      .select(db.fn.count<number | string>("userId").distinct().as("n"))
      .executeTakeFirst();
    const order: PlanTier[] = ["basic", "pro", "enterprise"];
    return {
      byTier: order.map((tier) => ({ tier, subscriptions: counts.get(tier) ?? 0 })),
      payingReaders: Number(readers?.n ?? 0),
    };
  }

  async function rowFor(id: string, version: number): Promise<UserSubscription> {
    const row = await subscriptions.getById(id);
    if (!row) throw new NotFoundError("subscription", "There is no such subscription");
    if (row.version !== version) {
      throw new StaleVersionError(
        "The subscription changed since you loaded it (the reader, the provider or another administrator): reload and try again.",
      );
    }
    if (!(LIVE as readonly string[]).includes(row.status)) {
      throw new ConflictError(`This subscription has ended (${row.status}): grant a plan instead.`);
    }
    return row;
  }

  const stale = (error: unknown): never => {
    if (error instanceof ConflictError && !(error instanceof StaleVersionError)) {
      throw new StaleVersionError(
        "The subscription changed while you were changing it: reload and try again.",
      );
    }
    throw error;
  };

  return {
    /** Every subscription, newest first, with filters and keyset paging, and the summary. */
    async listSubscriptions(actor: Actor, query: unknown): Promise<AdminSubscriptionPage> {
      requireSubscriptionsAdmin(actor);
      const f = parse(listQuerySchema, query);
      const limit = f.limit ?? ADMIN_SUBSCRIPTIONS_LIMIT;
      const cursor = f.cursor ? decodeCursor(cursorSchema, f.cursor) : null;
      const ending = f.endingBefore
        ? new Date(
            /^\d{4}-\d{2}-\d{2}$/.test(f.endingBefore) ? `${f.endingBefore}T00:00:00.000Z` : f.endingBefore,
          ).toISOString()
        : null;
      const items = await viewsOf((q) => {
        let out = q;
        if (f.tier) {
          const tiers = f.tier === "enterprise" ? ["enterprise", "business"] : [f.tier];
          out = out.where(sql<string>`lower(s.tier)`, "in", tiers);
        }
        if (f.plan) out = out.where("s.planId", "=", f.plan);
        if (f.status) out = out.where("s.status", "=", f.status);
        if (f.source) {
          const source = f.source;
          out =
            source === "manual"
              ? out.where((eb) => eb.or([eb("s.source", "is", null), eb("s.source", "<>", "stripe")]))
              : out.where("s.source", "=", source);
        }
        if (f.owner === "personal") out = out.where("s.tenantId", "is", null);
        if (f.owner === "organisation") out = out.where("s.tenantId", "is not", null);
        if (f.q) {
          const pattern = `%${likeEscape(f.q.toLowerCase())}%`;
          out = out.where((eb) =>
            eb.or([
              eb(sql<string>`lower(u.email)`, "like", sql<string>`${pattern} escape '\\'`),
              eb(sql<string>`lower(u.name)`, "like", sql<string>`${pattern} escape '\\'`),
            ]),
          );
        }
        if (ending) {
          out = out
            .where("s.status", "in", [...LIVE])
            .where(sql<string | null>`coalesce(s."expiresAt", s."canceledAt", s."periodEnd")`, "<", ending);
        }
        if (cursor) {
          out = out.where((eb) =>
            eb.or([
              eb("s.createdAt", "<", cursor.createdAt),
              eb.and([eb("s.createdAt", "=", cursor.createdAt), eb("s.id", "<", cursor.id)]),
            ]),
          );
        }
        return out;
      }, limit + 1);
      const hasMore = items.length > limit;
      const kept = hasMore ? items.slice(0, limit) : items;
      const last = kept[kept.length - 1];
      return {
        items: kept,
        nextCursor: hasMore && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
        summary: await summary(),
      };
    },

    /** Grants an individual plan to a reader (by e-mail) for N days or until a date: a manual row, source "admin". */
    async grant(actor: Actor, input: unknown): Promise<AdminSubscriptionView> {
      const actorId = requireSubscriptionsAdmin(actor);
      const data = parse(grantSchema, input);
      const now = deps.now();
      const end = endOf(data, now, now);
      const user = await db
        .selectFrom("user")
        .select(["id"])
        .where(sql<string>`lower(email)`, "=", data.email)
        .executeTakeFirst();
      if (!user) {
        throw new BadInputError(`There is no reader with the e-mail ${data.email}.`, {
          field: { email: "no reader with this e-mail" },
        });
      }
      const plan = await deps.plans.get(data.planId);
      if (!plan || plan.archived || plan.tier === "free" || plan.perSeat) {
        throw new BadInputError(
          plan?.perSeat
            ? `"${plan.name}" is sold per seat to organisations: grant an individual plan.`
            : "Choose an offered, paid individual plan.",
          { field: { planId: "not a grantable plan" } },
        );
      }
      const at = new Date(now).toISOString();
      const state: ProviderSubscriptionState = {
        providerSubscriptionId: manualSubscriptionId(`adm_${randomUUID()}`),
        providerCustomerId: null,
        planId: plan.id,
        interval: "month",
        seats: 1,
        status: "active",
        periodStart: at,
        periodEnd: end,
        cancelAtPeriodEnd: true,
        canceledAt: end,
        checkoutId: null,
        userId: user.id,
        tenantId: null,
      };
      const result = await deps.applier.apply(state, {
        reason: "admin_grant",
        actorId,
        provider: "manual",
        sourceEventId: null,
        note: data.note,
        patch: { source: "admin", expiresAt: end },
      });
      await audit.append({
        action: "subscription_granted",
        actorId,
        targetType: "user",
        targetId: user.id,
        at,
        details: { subscriptionId: result.subscription.id, planId: plan.id, until: end, note: data.note },
      });
      return viewById(result.subscription.id);
    },

    /** Moves a manual subscription's end (`days` more, or `until` a date). */
    async extend(actor: Actor, id: string, input: unknown): Promise<AdminSubscriptionView> {
      const actorId = requireSubscriptionsAdmin(actor);
      const data = parse(extendSchema, input);
      const row = await rowFor(id, data.version);
      if (isStripeRow(row)) {
        throw new ConflictError(
          "Stripe bills this subscription and owns its periods: change it in Stripe, or grant a plan here.",
        );
      }
      const now = deps.now();
      const current = stateOfManualRow(row, nowIso());
      const currentEnd = Date.parse(row.expiresAt ?? current.periodEnd ?? nowIso());
      const end = endOf(data, Math.max(currentEnd, now), now);
      const state: ProviderSubscriptionState = { ...current, periodEnd: end };
      const ends = row.cancelAtPeriodEnd || row.expiresAt !== null;
      const result = await deps.applier
        .apply(state, {
          reason: "admin_extend",
          actorId,
          provider: "manual",
          sourceEventId: null,
          subscriptionId: row.id,
          expectedVersion: row.version,
          note: data.note,
          patch: row.status === "past_due" ? {} : { expiresAt: ends ? end : null },
        })
        .catch(stale);
      await audit.append({
        action: "subscription_extended",
        actorId,
        targetType: row.tenantId ? "organization" : "user",
        targetId: row.tenantId ?? row.userId,
        at: nowIso(),
        details: {
          subscriptionId: row.id,
          from: row.expiresAt ?? current.periodEnd ?? null,
          until: end,
          note: data.note,
        },
      });
      return viewById(result.subscription.id);
    },

    /** Cancels at the period end (through the row's provider) or now (manual rows). */
    async adminCancel(actor: Actor, id: string, input: unknown): Promise<AdminSubscriptionView> {
      const actorId = requireSubscriptionsAdmin(actor);
      const data = parse(cancelSchema, input);
      const row = await rowFor(id, data.version);
      const at = nowIso();
      let state: ProviderSubscriptionState;
      const cause = {
        reason: data.when === "now" ? "admin_cancel_now" : "admin_cancel",
        actorId,
        sourceEventId: null,
        subscriptionId: row.id,
        expectedVersion: row.version,
        note: data.note,
      };
      if (data.when === "period_end") {
        const managing = deps.providerFor(row);
        state = await managing.cancelAtPeriodEnd(
          isStripeRow(row)
            ? (row.providerSubscriptionId ?? "")
            : stateOfManualRow(row, at).providerSubscriptionId,
        );
        await deps.applier
          .apply(state, {
            ...cause,
            provider: managing.kind,
            patch: { pendingPlanId: null, pendingInterval: null, pendingSeats: null },
          })
          .catch(stale);
      } else {
        if (isStripeRow(row)) {
          throw new ConflictError(
            "Stripe bills this subscription: cancel it at the period end here, or end it now in Stripe's dashboard.",
          );
        }
        state = {
          ...stateOfManualRow(row, at),
          status: "canceled",
          cancelAtPeriodEnd: false,
          canceledAt: at,
        };
        await deps.applier
          .apply(state, {
            ...cause,
            provider: "manual",
            patch: {
              canceledAt: at,
              expiresAt: at,
              pendingPlanId: null,
              pendingInterval: null,
              pendingSeats: null,
            },
          })
          .catch(stale);
      }
      await audit.append({
        action: "subscription_canceled",
        actorId,
        targetType: row.tenantId ? "organization" : "user",
        targetId: row.tenantId ?? row.userId,
        at,
        details: { subscriptionId: row.id, when: data.when, note: data.note },
      });
      return viewById(row.id);
    },
  };
}

export type BillingAdmin = ReturnType<typeof createBillingAdmin>;
