/**
 * Plans as data (decision 019): what readers are offered and what each plan opens in the live
 * library, and the platform admins' edits of the plans.
 *
 * - reads (`list`, `get`, `unlocks`, `cheapestFor`): public, active plans only;
 * - admin operations (`listAll`, `create`, `update`, `archive`, `restore`): signed-in platform
 *   administrators (core `adminAccess("plans.manage")`, decision 009: an organisation admin is
 *   never one; API keys and service tokens are refused). Input is validated here (field errors),
 *   writes carry the version read (409 STALE_VERSION), and every write is one `audit_log` row
 *   (`plan_created`, `plan_updated`, `plan_archived`, `plan_restored`, details = what changed) in
 *   the same transaction. A write also moves the content revision: visitors' cached pages
 *   (/pricing, paywalls) show prices, so every process drops them.
 * - the free plan (id "free") cannot be archived, priced above 0 or moved to another tier or kind;
 *   no plan granting the Free tier may cost anything.
 */
import type { Kysely } from "kysely";
import { z } from "zod";
import { adminAccess, parseTier, type Tier, tierLevel } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import {
  BadInputError,
  badInputFromZod,
  ConflictError,
  ForbiddenError,
  isUniqueViolation,
  NotFoundError,
  StaleVersionError,
  UnauthenticatedError,
} from "../../errors.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { bumpContentRevision } from "../content/content-revision.ts";
import { tierInventory } from "../content/tier-inventory.ts";
import type { AdminPlanView, PlanTier, PlanUnlocks, PlanView } from "./billing.types.ts";
import { createPlansRepo, publicPlan } from "./plans.repo.ts";
import { createPlansAdminRepo, type PlanFields, type PlanWrite } from "./plans-admin.repo.ts";

export const FREE_PLAN_ID = "free";
/** The highest price of one period a plan may carry (cents): $100,000. */
export const MAX_PRICE_CENTS = 10_000_000;
export const MAX_FEATURES = 10;
export const MAX_FEATURE_LENGTH = 120;

const PLAN_TIERS = ["free", "basic", "pro", "enterprise"] as const;
const PLAN_KINDS = ["individual", "organization"] as const;

const price = z
  .number({ message: "expected a whole number of cents" })
  .int("expected a whole number of cents")
  .min(0, "cannot be negative")
  .max(MAX_PRICE_CENTS, `at most ${MAX_PRICE_CENTS} cents`);
const seats = z
  .number({ message: "expected a whole number" })
  .int("expected a whole number")
  .min(1, "at least 1")
  .max(1_000_000, "at most 1000000");
const stripePrice = z
  .string({ message: "expected a Stripe price id (price_…) or null" })
  .trim()
  .regex(/^price_[A-Za-z0-9_]{1,200}$/, "expected a Stripe price id (price_…) or null")
  .nullable()
  .or(z.literal("").transform(() => null));

const fieldSchemas = {
  name: z.string({ message: "required" }).trim().min(1, "required").max(60, "at most 60 characters"),
  tier: z.enum(PLAN_TIERS, { message: "one of free, basic, pro, enterprise" }),
  kind: z.enum(PLAN_KINDS, { message: "one of individual, organization" }),
  description: z.string({ message: "expected text" }).trim().max(500, "at most 500 characters"),
  currency: z
    .string({ message: "expected a 3-letter currency code" })
    .trim()
    .regex(/^[A-Za-z]{3}$/, "expected a 3-letter currency code")
    .transform((v) => v.toLowerCase()),
  monthlyPriceCents: price,
  yearlyPriceCents: price,
  perSeat: z.boolean({ message: "expected true or false" }),
  minSeats: seats,
  maxSeats: seats.nullable(),
  stripeMonthlyPriceId: stripePrice,
  stripeYearlyPriceId: stripePrice,
  features: z
    .array(
      z
        .string({ message: "expected text" })
        .trim()
        .min(1, "a feature cannot be empty")
        .max(MAX_FEATURE_LENGTH, `at most ${MAX_FEATURE_LENGTH} characters`),
      { message: "expected a list of texts" },
    )
    .max(MAX_FEATURES, `at most ${MAX_FEATURES} features`),
  sortOrder: z
    .number({ message: "expected a whole number" })
    .int("expected a whole number")
    .min(-1_000_000, "at least -1000000")
    .max(1_000_000, "at most 1000000"),
};

export const createSchema = z.strictObject({
  id: z
    .string({ message: "required" })
    .trim()
    .min(1, "required")
    .max(40, "at most 40 characters")
    .regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case letters, digits and hyphens"),
  name: fieldSchemas.name,
  tier: fieldSchemas.tier,
  kind: fieldSchemas.kind.default("individual"),
  description: fieldSchemas.description.default(""),
  currency: fieldSchemas.currency.default("usd"),
  monthlyPriceCents: fieldSchemas.monthlyPriceCents,
  yearlyPriceCents: fieldSchemas.yearlyPriceCents,
  perSeat: fieldSchemas.perSeat.optional(),
  minSeats: fieldSchemas.minSeats.default(1),
  maxSeats: fieldSchemas.maxSeats.default(null),
  stripeMonthlyPriceId: fieldSchemas.stripeMonthlyPriceId.default(null),
  stripeYearlyPriceId: fieldSchemas.stripeYearlyPriceId.default(null),
  features: fieldSchemas.features.default([]),
  sortOrder: fieldSchemas.sortOrder.optional(),
});

export const updateSchema = z.strictObject({
  version: z
    .number({ message: "required: the version you loaded" })
    .int("expected a whole number")
    .min(1, "expected a whole number from 1"),
  name: fieldSchemas.name.optional(),
  tier: fieldSchemas.tier.optional(),
  kind: fieldSchemas.kind.optional(),
  description: fieldSchemas.description.optional(),
  currency: fieldSchemas.currency.optional(),
  monthlyPriceCents: fieldSchemas.monthlyPriceCents.optional(),
  yearlyPriceCents: fieldSchemas.yearlyPriceCents.optional(),
  perSeat: fieldSchemas.perSeat.optional(),
  minSeats: fieldSchemas.minSeats.optional(),
  maxSeats: fieldSchemas.maxSeats.optional(),
  stripeMonthlyPriceId: fieldSchemas.stripeMonthlyPriceId.optional(),
  stripeYearlyPriceId: fieldSchemas.stripeYearlyPriceId.optional(),
  features: fieldSchemas.features.optional(),
  sortOrder: fieldSchemas.sortOrder.optional(),
});

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    throw new BadInputError("The plan must be a JSON object.", { field: { body: "expected an object" } });
  }
  const result = schema.safeParse(input);
  if (!result.success) {
    throw badInputFromZod(result.error, {
      fallback: "body",
      message: (field, problem) => `${field}: ${problem}`,
      unknownKey: () => "cannot be set on a plan",
    });
  }
  return result.data;
}

function fieldError(field: string, problem: string): BadInputError {
  return new BadInputError(`${field}: ${problem}`, { field: { [field]: problem } });
}

/** The rules across fields, on the plan as it would be stored. */
function checkPlan(id: string, plan: PlanFields): void {
  if (plan.maxSeats !== null && plan.maxSeats < plan.minSeats) {
    throw fieldError("maxSeats", "cannot be below minSeats");
  }
  if (plan.tier === "free" || id === FREE_PLAN_ID) {
    if (plan.monthlyPriceCents > 0) throw fieldError("monthlyPriceCents", "the free plan costs nothing");
    if (plan.yearlyPriceCents > 0) throw fieldError("yearlyPriceCents", "the free plan costs nothing");
  }
  if (id === FREE_PLAN_ID && plan.tier !== "free") throw fieldError("tier", "the free plan grants Free");
  if (id === FREE_PLAN_ID && plan.kind !== "individual") {
    throw fieldError("kind", "the free plan is an individual plan");
  }
}

function fieldsOf(plan: AdminPlanView): PlanFields {
  return {
    name: plan.name,
    tier: plan.tier,
    kind: plan.kind,
    description: plan.description,
    currency: plan.currency,
    monthlyPriceCents: plan.monthlyPriceCents,
    yearlyPriceCents: plan.yearlyPriceCents,
    perSeat: plan.perSeat,
    minSeats: plan.minSeats,
    maxSeats: plan.maxSeats,
    stripeMonthlyPriceId: plan.stripeMonthlyPriceId,
    stripeYearlyPriceId: plan.stripeYearlyPriceId,
    features: plan.features,
    sortOrder: plan.sortOrder,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The platform admin asking, or the refusal (401 visitor, 403 key, token without user, others). */
export function requirePlansAdmin(actor: Actor): string {
  if (actor.kind === "visitor") throw new UnauthenticatedError("Sign in first.");
  if (actor.kind !== "user" || !actor.userId) {
    throw new ForbiddenError(
      "Plans are managed by a signed-in platform administrator; API keys are refused.",
    );
  }
  const decision = adminAccess("plans.manage", actor.access);
  if (decision.kind === "denied") {
    if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
    throw new ForbiddenError(decision.message);
  }
  return actor.userId;
}

/** The tier a plan grants, as core reads tiers. */
export function planTier(plan: Pick<PlanView, "tier">): Tier {
  return parseTier(plan.tier) ?? "Enterprise";
}

export interface PlansServiceDeps {
  db: Kysely<DB>;
  now?: () => number;
}

export function createPlansService(deps: PlansServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const plans = createPlansRepo(db);
  const nowIso = () => new Date(now()).toISOString();

  async function unlocksOf(list: readonly PlanView[]): Promise<PlanUnlocks[]> {
    const inventory = await tierInventory(db);
    return list
      .filter((p) => p.kind === "individual")
      .map((plan) => {
        const entry = inventory.find((e) => e.tier === planTier(plan));
        return {
          planId: plan.id,
          tier: plan.tier,
          newItems: entry?.items ?? 0,
          highlights: entry?.highlights ?? [],
        };
      });
  }

  /** A write with its audit row and the content revision, in one transaction. */
  async function audited(
    actorId: string,
    action: "plan_created" | "plan_updated" | "plan_archived" | "plan_restored",
    planId: string,
    details: Record<string, unknown>,
    write: (trx: Kysely<DB>) => Promise<PlanWrite>,
  ): Promise<AdminPlanView> {
    return inTransaction(db, async (trx) => {
      const result = await write(trx);
      if (!result.ok) {
        if (result.reason === "not-found") throw new NotFoundError("plan", planId);
        throw new StaleVersionError(
          `The plan "${planId}" was changed by someone else (now version ${result.current?.version}); reload it and make your change again.`,
          { field: { version: "stale: reload the plan" } },
        );
      }
      await createAuditRepo(trx).append({
        action,
        actorId,
        targetType: "plan",
        targetId: planId,
        at: nowIso(),
        details: JSON.parse(JSON.stringify({ planId, ...details })),
      });
      await bumpContentRevision(trx);
      return result.plan;
    });
  }

  async function existing(id: string): Promise<AdminPlanView> {
    const plan = await plans.get(id);
    if (!plan) throw new NotFoundError("plan", id);
    return plan;
  }

  return {
    /** The plans offered now (not archived), in display order. */
    async list(): Promise<PlanView[]> {
      return (await plans.list()).map(publicPlan);
    },

    /** One plan as readers see it (archived ones too: a subscription may be on one); null if none. */
    async get(id: string): Promise<PlanView | null> {
      const plan = await plans.get(id);
      return plan ? publicPlan(plan) : null;
    },

    /** What each offered individual plan opens that the plan below does not (live library). */
    async unlocks(): Promise<PlanUnlocks[]> {
      return unlocksOf(await plans.list());
    },

    /**
     * The cheapest offered individual plan that opens `tier` (its tier ranks at least as high),
     * with what it opens; null when none is offered. Ties go to the lower tier, then the order.
     */
    async cheapestFor(
      tier: Tier | PlanTier | string,
    ): Promise<{ plan: PlanView; unlocks: PlanUnlocks } | null> {
      const required = parseTier(tier) ?? "Enterprise";
      const candidates = (await plans.list())
        .filter((p) => p.kind === "individual" && tierLevel(planTier(p)) >= tierLevel(required))
        .sort(
          (a, b) =>
            a.monthlyPriceCents - b.monthlyPriceCents ||
            tierLevel(planTier(a)) - tierLevel(planTier(b)) ||
            a.sortOrder - b.sortOrder,
        );
      const plan = candidates[0];
      if (!plan) return null;
      const view = publicPlan(plan);
      const [unlocks] = await unlocksOf([view]);
      return { plan: view, unlocks: unlocks! };
    },

    /** Every plan, archived ones too, with the provider ids and versions (platform admins). */
    async listAll(actor: Actor): Promise<AdminPlanView[]> {
      requirePlansAdmin(actor);
      return plans.list({ includeArchived: true });
    },

    async create(actor: Actor, input: unknown): Promise<AdminPlanView> {
      const actorId = requirePlansAdmin(actor);
      const { id, ...body } = parse(createSchema, input);
      const fields: PlanFields = {
        ...body,
        perSeat: body.perSeat ?? body.kind === "organization",
        sortOrder:
          body.sortOrder ??
          (await plans.list({ includeArchived: true })).reduce((max, p) => Math.max(max, p.sortOrder), 0) + 1,
      };
      checkPlan(id, fields);
      const at = nowIso();
      try {
        return await audited(actorId, "plan_created", id, { fields }, async (trx) => ({
          ok: true,
          plan: await createPlansAdminRepo(trx).insert(id, fields, at),
        }));
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new ConflictError(`A plan with the id "${id}" exists already.`, { field: { id: "taken" } });
        }
        throw error;
      }
    },

    /** Applies the fields sent at `version`; details of the audit row: each changed field, from → to. */
    async update(actor: Actor, id: string, input: unknown): Promise<AdminPlanView> {
      const actorId = requirePlansAdmin(actor);
      const { version, ...patch } = parse(updateSchema, input);
      const current = await existing(id);
      const before = fieldsOf(current);
      const after: PlanFields = { ...before, ...(patch as Partial<PlanFields>) };
      checkPlan(id, after);
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      const changed: Partial<PlanFields> = {};
      for (const key of Object.keys(patch) as (keyof PlanFields)[]) {
        if (same(before[key], after[key])) continue;
        changes[key] = { from: before[key], to: after[key] };
        (changed as Record<string, unknown>)[key] = after[key];
      }
      if (Object.keys(changes).length === 0) {
        if (current.version !== version) {
          throw new StaleVersionError(
            `The plan "${id}" was changed by someone else (now version ${current.version}); reload it and make your change again.`,
            { field: { version: "stale: reload the plan" } },
          );
        }
        return current;
      }
      return audited(actorId, "plan_updated", id, { changes }, (trx) =>
        createPlansAdminRepo(trx).update(id, version, changed, nowIso()),
      );
    },

    /** No longer offered; subscriptions on it run to their end. The free plan: 409. */
    async archive(actor: Actor, id: string): Promise<AdminPlanView> {
      const actorId = requirePlansAdmin(actor);
      const current = await existing(id);
      if (id === FREE_PLAN_ID) {
        throw new ConflictError("The free plan cannot be archived: every reader falls back to it.");
      }
      if (current.archived) return current;
      return audited(
        actorId,
        "plan_archived",
        id,
        { changes: { archived: { from: false, to: true } } },
        (trx) => createPlansAdminRepo(trx).setArchived(id, current.version, nowIso(), nowIso()),
      );
    },

    /** Offered again. */
    async restore(actor: Actor, id: string): Promise<AdminPlanView> {
      const actorId = requirePlansAdmin(actor);
      const current = await existing(id);
      if (!current.archived) return current;
      return audited(
        actorId,
        "plan_restored",
        id,
        { changes: { archived: { from: true, to: false } } },
        (trx) => createPlansAdminRepo(trx).setArchived(id, current.version, null, nowIso()),
      );
    },
  };
}

export type PlansService = ReturnType<typeof createPlansService>;
