/**
 * The billing service (decision 019, issue 13): checkout, plan changes, cancel and resume, seats,
 * the provider's portal, invoices and the provider's webhooks, over one write path
 * (billing-apply.ts). Access is enforced here:
 * - a reader manages their own personal subscription;
 * - an organisation's subscription is managed by that organisation's admins (`org-<slug>-admin`
 *   with the organisation as their tenant) and read, not managed, by its members;
 * - platform admins approve manual checkouts;
 * - API keys and service tokens are refused (a subscription belongs to a person).
 *
 * Rows whose source is not "stripe" (manual, and the older demo/sign-up/fixture/admin rows) are
 * managed by the manual provider whatever provider is configured.
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { z } from "zod";
import { effectiveSubscription } from "../../../core/effective-subscription.ts";
import { planRank } from "../../../core/tiers.ts";
import type { DB } from "../../db/schema.ts";
import {
  BadInputError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ProviderUnavailableError,
  ServiceError,
  StaleVersionError,
} from "../../errors.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { type Actor, requirePlatformAdmin } from "../actor.ts";
import { createOrganizationsRepo } from "../organizations/organizations.repo.ts";
import { createSubscriptionsRepo, type UserSubscription } from "../subscriptions/subscriptions.repo.ts";
import { type CheckoutRow, createBillingRepo, ownerKeyOf } from "./billing.repo.ts";
import type {
  AdminPlanView,
  BillingInterval,
  BillingOwner,
  BillingProvider,
  CheckoutStatus,
  CheckoutView,
  InvoiceView,
  PlanView,
  ProviderKind,
  ProviderSubscriptionState,
  SubscriptionOverview,
  SubscriptionStatus,
} from "./billing.types.ts";
import { createBillingAdmin } from "./billing-admin.ts";
import { type ApplyCause, createApplier, isStripeRow, planTierOf } from "./billing-apply.ts";
import {
  changeInputSchema,
  checkoutInputSchema,
  parse,
  seatsInputSchema,
  validReturnTo,
  versionInputSchema,
} from "./billing-inputs.ts";
import { changeDirection, prorate } from "./billing-periods.ts";
import { type Standing, standingOfActor } from "./billing-standing.ts";
import { createBillingSweep } from "./billing-sweep.ts";
import {
  type AdminCheckoutView,
  type ChangeQuote,
  changeQuotesFor,
  checkoutView,
  invoiceView,
} from "./billing-views.ts";
import { createWebhookHandler } from "./billing-webhooks.ts";
import { createManualProvider, type ManualProvider, stateOfManualRow } from "./manual-provider.ts";
import { createPlansRepo, periodPrice, publicPlan } from "./plans.repo.ts";

const HOUR = 3_600_000;
/** A checkout left open expires after a day. */
export const CHECKOUT_TTL_MS = 24 * HOUR;

export interface BillingServiceDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  /** The configured provider (providers.ts): Stripe or manual. */
  provider: BillingProvider;
  now(): number;
  /** The site's absolute address (e-mails, Stripe's return addresses). */
  baseUrl: string;
  graceDays: number;
  /** Manual provider: readers confirm their own checkouts (demo), else a platform admin approves. */
  selfServe: boolean;
  logger?: Pick<Logger, "warn" | "error" | "info">;
}

const LIVE_STATUSES = ["active", "trialing", "past_due"];

export function createBillingService(deps: BillingServiceDeps) {
  const { db, provider, selfServe } = deps;
  const plans = createPlansRepo(db);
  const repo = createBillingRepo(db);
  const subscriptions = createSubscriptionsRepo(db);
  const orgs = createOrganizationsRepo(db);
  const nowIso = () => new Date(deps.now()).toISOString();
  const applier = createApplier({
    db,
    plans,
    mailer: deps.mailer,
    now: deps.now,
    baseUrl: deps.baseUrl,
    graceDays: deps.graceDays,
    logger: deps.logger,
  });

  const stateOfRow = (row: UserSubscription) => stateOfManualRow(row, nowIso());

  const manual: ManualProvider =
    provider.kind === "manual"
      ? (provider as ManualProvider)
      : createManualProvider({ db, now: deps.now, baseUrl: "" });

  /** The provider that manages a row: Stripe for Stripe's rows, the manual logic for every other. */
  function providerFor(row: UserSubscription): BillingProvider {
    if (!isStripeRow(row)) return manual;
    if (provider.kind !== "stripe") {
      throw new ProviderUnavailableError(
        "This subscription is billed through Stripe, which this installation no longer has configured. Ask an administrator.",
      );
    }
    return provider;
  }

  const standingOf = (actor: Actor) => standingOfActor(db, orgs, actor);

  async function planOrThrow(id: string, field = "planId"): Promise<AdminPlanView> {
    const plan = await plans.get(id);
    if (!plan || plan.archived || plan.tier === "free") {
      throw new ServiceError(
        "PLAN_UNAVAILABLE",
        plan?.archived
          ? `The plan "${plan.name}" is no longer offered: choose another on /pricing.`
          : plan
            ? `The plan "${plan.name}" is free: there is nothing to buy.`
            : `There is no plan "${id}": choose one on /pricing.`,
        { [field]: "not an available plan" },
      );
    }
    return plan;
  }

  /** The live paid rows of an owner scope: personal rows, or an organisation's. */
  async function liveRows(scope: { userId: string; tenantId: string | null }): Promise<UserSubscription[]> {
    const rows = scope.tenantId
      ? await subscriptions.listByTenant(scope.tenantId)
      : (await subscriptions.listByUserId(scope.userId)).filter((r) => r.tenantId === null);
    return rows.filter(
      (r) => LIVE_STATUSES.includes(r.status) && planTierOf(r.tier) !== "free" && (r.planId ?? "") !== "free",
    );
  }

  /** The subscription that grants for an owner scope now (paid, live), or null. */
  async function currentRow(scope: {
    userId: string;
    tenantId: string | null;
  }): Promise<UserSubscription | null> {
    return effectiveSubscription(await liveRows(scope), new Date(deps.now()));
  }

  /** The subscription the viewer sees on /subscription: their organisation's, else their own. */
  async function viewerRow(
    standing: Standing,
  ): Promise<{ row: UserSubscription; canManage: boolean } | null> {
    if (standing.org) {
      const orgRow = await currentRow({ userId: standing.userId, tenantId: standing.org.id });
      if (orgRow) return { row: orgRow, canManage: standing.isOrgAdmin };
    }
    const own = await currentRow({ userId: standing.userId, tenantId: null });
    return own ? { row: own, canManage: true } : null;
  }

  /** The row the actor may change, with its version checked. */
  async function managedRow(actor: Actor, version: number) {
    const standing = await standingOf(actor);
    const found = await viewerRow(standing);
    if (!found)
      throw new NotFoundError("subscription", "You have no paid subscription: choose a plan on /pricing");
    if (!found.canManage) {
      throw new ForbiddenError("Only your organisation's administrators can change its subscription.");
    }
    if (found.row.version !== version) {
      throw new StaleVersionError(
        "The subscription changed since you loaded it (another tab or an administrator): reload and try again.",
      );
    }
    return { standing, row: found.row };
  }

  const toState = (version: number) => (error: unknown) => {
    if (error instanceof ConflictError) {
      throw new StaleVersionError(
        "The subscription changed since you loaded it (another tab or an administrator): reload and try again.",
        { details: { version } },
      );
    }
    throw error;
  };

  async function recordManualReceipt(
    row: { id: string; userId: string; tenantId: string | null; providerSubscriptionId: string | null },
    input: {
      key: string;
      amountCents: number;
      currency: string;
      description: string;
      periodStart: string | null;
      periodEnd: string | null;
    },
  ) {
    const receipt = manual.receipt({
      id: input.key,
      providerSubscriptionId: row.providerSubscriptionId,
      ...input,
    });
    await repo.upsertInvoice("manual", receipt, {
      userId: row.userId,
      tenantId: row.tenantId,
      subscriptionId: row.id,
    });
  }

  const intervalWord = (interval: string | null) => (interval === "year" ? "yearly" : "monthly");
  const seatWord = (plan: AdminPlanView, seats: number) => (plan.perSeat ? `, ${seats} seats` : "");
  const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

  /** An upgrade made now: the provider's new state applied, and the manual provider's prorated receipt. */
  async function upgradeNow(
    row: UserSubscription,
    target: { plan: AdminPlanView; interval: BillingInterval; seats: number },
    cause: Pick<ApplyCause, "actorId" | "reason">,
  ) {
    const managing = providerFor(row);
    const before = stateOfRow(row);
    const state = await managing.changeSubscription({
      providerSubscriptionId: before.providerSubscriptionId,
      planId: target.plan.id,
      providerPriceId:
        target.interval === "year" ? target.plan.stripeYearlyPriceId : target.plan.stripeMonthlyPriceId,
      interval: target.interval,
      seats: target.seats,
      when: "now",
    });
    const result = await applier
      .apply(state, {
        ...cause,
        provider: managing.kind,
        sourceEventId: null,
        subscriptionId: row.id,
        expectedVersion: row.version,
        patch: { pendingPlanId: null, pendingInterval: null, pendingSeats: null },
      })
      .catch(toState(row.version));
    if (managing === manual) {
      const currentPlan = (await plans.get(before.planId)) ?? target.plan;
      const { amountCents, fraction } = prorate({
        currentPeriodCents: periodPrice(currentPlan, before.interval, before.seats),
        newPeriodCents: periodPrice(target.plan, target.interval, target.seats),
        intervalChanges: before.interval !== target.interval,
        periodStart: before.periodStart!,
        periodEnd: before.periodEnd!,
        now: nowIso(),
      });
      await recordManualReceipt(result.subscription, {
        key: `${row.id}_${deps.now()}`,
        amountCents,
        currency: target.plan.currency,
        description: `${currentPlan.name} → ${target.plan.name} (${intervalWord(target.interval)}${seatWord(target.plan, target.seats)}), prorated for ${Math.round(fraction * 100)}% of the period left`,
        periodStart: nowIso(),
        periodEnd: result.subscription.periodEnd,
      });
    }
    return result;
  }

  async function amountOfCheckout(row: CheckoutRow, plan: AdminPlanView): Promise<number> {
    if (!row.subscriptionId) return periodPrice(plan, row.billingInterval as BillingInterval, row.seats);
    const sub = await subscriptions.getById(row.subscriptionId);
    if (!sub) return periodPrice(plan, row.billingInterval as BillingInterval, row.seats);
    const before = stateOfRow(sub);
    const currentPlan = (await plans.get(before.planId)) ?? plan;
    return prorate({
      currentPeriodCents: periodPrice(currentPlan, before.interval, before.seats),
      newPeriodCents: periodPrice(plan, row.billingInterval as BillingInterval, row.seats),
      intervalChanges: before.interval !== row.billingInterval,
      periodStart: before.periodStart!,
      periodEnd: before.periodEnd!,
      now: nowIso(),
    }).amountCents;
  }

  async function viewOfCheckout(row: CheckoutRow): Promise<CheckoutView> {
    const plan = await plans.get(row.planId);
    if (!plan) throw new NotFoundError("plan", row.planId);
    const amountCents =
      row.status === "open" || row.status === "awaiting_approval"
        ? await amountOfCheckout(row, plan)
        : undefined;
    return checkoutView(row, plan, { takesPayments: provider.takesPayments, selfServe, amountCents });
  }

  /** A checkout the actor may see: their own, or (organisation checkouts) their organisation's as its admin. */
  async function ownCheckout(actor: Actor, id: string): Promise<{ standing: Standing; row: CheckoutRow }> {
    const standing = await standingOf(actor);
    const row = z.uuid().safeParse(id).success ? await repo.getCheckout(id) : null;
    const mine =
      row &&
      (row.tenantId
        ? standing.isOrgAdmin && standing.org?.id === row.tenantId
        : row.userId === standing.userId);
    if (!row || !mine) throw new NotFoundError("checkout", id);
    return { standing, row };
  }

  /**
   * Grants what a checkout bought, once: the conditional UPDATE to completed lets one caller
   * through (two confirmations grant once); if granting fails the checkout goes back to where it was.
   */
  async function completeCheckout(
    row: CheckoutRow,
    cause: {
      actorId: string | null;
      reason: string;
      sourceEventId?: string | null;
      state?: ProviderSubscriptionState;
    },
  ): Promise<CheckoutRow> {
    const from = row.status as CheckoutStatus;
    const won = await repo.transitionCheckout(row.id, ["open", "awaiting_approval"], "completed", {
      completedAt: nowIso(),
    });
    if (!won) return (await repo.getCheckout(row.id)) ?? row;
    try {
      const plan = await plans.get(row.planId);
      if (!plan) throw new NotFoundError("plan", row.planId);
      const interval = row.billingInterval as BillingInterval;
      let subscriptionId: string;
      if (row.subscriptionId) {
        const sub = await subscriptions.getById(row.subscriptionId);
        if (!sub || !LIVE_STATUSES.includes(sub.status)) {
          throw new ConflictError(
            "The subscription this checkout upgrades has ended: start again from /pricing.",
          );
        }
        const result = await upgradeNow(sub, { plan, interval, seats: row.seats }, cause);
        subscriptionId = result.subscription.id;
      } else if (row.provider === "manual") {
        const state = manual.newSubscription({
          checkoutId: row.id,
          planId: plan.id,
          interval,
          seats: row.seats,
          userId: row.userId,
          tenantId: row.tenantId,
          providerCustomerId: await repo.customerId("manual", ownerKeyOf(row)),
        });
        const result = await applier.apply(state, {
          reason: cause.reason,
          actorId: cause.actorId,
          provider: "manual",
          sourceEventId: null,
        });
        subscriptionId = result.subscription.id;
        await recordManualReceipt(result.subscription, {
          key: row.id,
          amountCents: periodPrice(plan, interval, row.seats),
          currency: plan.currency,
          description: `${plan.name} (${intervalWord(interval)}${seatWord(plan, row.seats)}), ${day(state.periodStart)} to ${day(state.periodEnd)}`,
          periodStart: state.periodStart,
          periodEnd: state.periodEnd,
        });
      } else {
        if (!cause.state) throw new ConflictError("The payment has not been confirmed by the provider yet.");
        const result = await applier.apply(
          {
            ...cause.state,
            userId: cause.state.userId ?? row.userId,
            tenantId: cause.state.tenantId ?? row.tenantId,
          },
          {
            reason: cause.reason,
            actorId: cause.actorId,
            provider: "stripe",
            sourceEventId: cause.sourceEventId ?? null,
          },
        );
        subscriptionId = result.subscription.id;
      }
      await db.updateTable("billing_checkout").set({ subscriptionId }).where("id", "=", row.id).execute();
    } catch (error) {
      await repo.transitionCheckout(row.id, ["completed"], from, { completedAt: null });
      throw error;
    }
    return (await repo.getCheckout(row.id)) ?? row;
  }

  /** A Stripe checkout the reader came back from: completed from the provider's state if the webhook is late. */
  async function syncStripeCheckout(row: CheckoutRow): Promise<CheckoutRow> {
    if (
      row.provider !== "stripe" ||
      row.status !== "open" ||
      !row.providerSessionId ||
      provider.kind !== "stripe"
    ) {
      return row;
    }
    const session = await provider.readCheckout(row.providerSessionId);
    if (session.status === "expired") {
      await repo.transitionCheckout(row.id, ["open"], "expired");
      return (await repo.getCheckout(row.id)) ?? row;
    }
    if (session.status !== "complete" || !session.providerSubscriptionId) return row;
    const state = await provider.fetchSubscription(session.providerSubscriptionId);
    return completeCheckout(row, { actorId: row.userId, reason: "checkout", state });
  }

  async function expireIfDue(row: CheckoutRow): Promise<CheckoutRow> {
    if ((row.status === "open" || row.status === "awaiting_approval") && row.expiresAt <= nowIso()) {
      await repo.transitionCheckout(row.id, ["open", "awaiting_approval"], "expired");
      return (await repo.getCheckout(row.id)) ?? row;
    }
    return row;
  }

  async function overviewFor(standing: Standing): Promise<SubscriptionOverview> {
    const found = await viewerRow(standing);
    let subscription: SubscriptionOverview["subscription"] = null;
    if (found) {
      const { row, canManage } = found;
      const state = stateOfRow(row);
      const plan = (await plans.get(state.planId)) ?? null;
      if (plan) {
        const pendingPlan = row.pendingPlanId ? await plans.get(row.pendingPlanId) : null;
        const org = row.tenantId ? await orgs.getById(row.tenantId) : null;
        const used = org ? await orgs.countMembers(org.slug) : 0;
        const pending = org ? (await orgs.pendingForOrg(org.id, nowIso())).length : 0;
        subscription = {
          id: row.id,
          scope: row.tenantId ? "organization" : "personal",
          plan: publicPlan(plan),
          interval: state.interval,
          status: row.status as SubscriptionStatus,
          startedAt: row.startedAt,
          periodStart: row.periodStart,
          periodEnd: row.periodEnd ?? state.periodEnd,
          cancelAtPeriodEnd: row.cancelAtPeriodEnd,
          pendingChange:
            pendingPlan && row.periodEnd
              ? {
                  plan: publicPlan(pendingPlan),
                  interval: (row.pendingInterval as BillingInterval | null) ?? state.interval,
                  seats: row.pendingSeats,
                  at: row.periodEnd,
                }
              : null,
          graceUntil: row.status === "past_due" ? row.graceUntil : null,
          seats: row.tenantId ? { total: row.seats ?? 0, used, pending } : null,
          amountCents: periodPrice(plan, state.interval, row.seats ?? 1),
          currency: plan.currency,
          version: row.version,
          canManage,
        };
      }
    }
    const openRow =
      (standing.org && standing.isOrgAdmin
        ? await repo.openCheckoutFor({ userId: standing.userId, tenantId: standing.org.id }, nowIso())
        : null) ?? (await repo.openCheckoutFor({ userId: standing.userId, tenantId: null }, nowIso()));
    return {
      provider: provider.kind,
      takesPayments: provider.takesPayments,
      // Read now, not from the request's claims: a change just made counts.
      currentTier: await applier.ownerTier({ userId: standing.userId, tenantId: null }, nowIso()),
      subscription,
      openCheckout: openRow ? await viewOfCheckout(openRow) : null,
      invoices: await invoicesFor(standing),
      portalAvailable: provider.takesPayments && found !== null && isStripeRow(found.row) && found.canManage,
    };
  }

  async function invoicesFor(standing: Standing): Promise<InvoiceView[]> {
    const rows = await repo.listInvoices({
      userId: standing.userId,
      tenantIds: standing.org && standing.isOrgAdmin ? [standing.org.id] : [],
    });
    return rows.map(invoiceView);
  }

  const webhooks = createWebhookHandler({
    db,
    provider,
    repo,
    applier,
    nowIso,
    completeCheckout: (row, cause) => completeCheckout(row, cause),
  });
  const recordInvoice = webhooks.recordInvoice;

  const sweep = createBillingSweep({
    db,
    plans,
    applier,
    manual,
    stateOfRow,
    recordManualReceipt,
    expireCheckouts: (at) => repo.expireCheckouts(at),
    now: deps.now,
    logger: deps.logger,
  });

  async function ownerOf(standing: Standing, tenant: Standing["org"]): Promise<BillingOwner> {
    return {
      userId: standing.userId,
      email: standing.email,
      name: tenant?.name ?? standing.name,
      tenantId: tenant?.id ?? null,
    };
  }

  return {
    provider,

    /** The plans on offer (active), in display order: the checkout and change-plan screens list them. */
    async plans(): Promise<PlanView[]> {
      return (await plans.list()).map(publicPlan);
    },

    /**
     * What each plan would do to the viewer's subscription now: upgrade (with the prorated amount
     * due now), downgrade (at the period end) or the same plan. Empty without a subscription the
     * viewer manages.
     */
    async changeQuotes(actor: Actor): Promise<ChangeQuote[]> {
      const standing = await standingOf(actor);
      const found = await viewerRow(standing);
      if (!found?.canManage) return [];
      const row = found.row;
      const before = stateOfRow(row);
      const currentPlan = await plans.get(before.planId);
      if (!currentPlan) return [];
      return changeQuotesFor(row, before, currentPlan, await plans.list(), nowIso());
    },

    async overview(actor: Actor): Promise<SubscriptionOverview> {
      const standing = await standingOf(actor);
      return overviewFor(standing);
    },

    async startCheckout(actor: Actor, input: unknown): Promise<CheckoutView> {
      const standing = await standingOf(actor);
      const data = parse(checkoutInputSchema, input);
      const returnTo = validReturnTo(data.returnTo);
      const plan = await planOrThrow(data.planId);
      let seats = 1;
      let tenant: Standing["org"] = null;
      if (plan.kind === "organization") {
        if (!standing.org || !standing.isOrgAdmin) {
          throw new ForbiddenError(
            "Only an organisation's administrator can buy seats: create your organisation first.",
          );
        }
        tenant = standing.org;
        seats = data.seats ?? plan.minSeats;
        if (seats < plan.minSeats || (plan.maxSeats !== null && seats > plan.maxSeats)) {
          const range =
            plan.maxSeats === null ? `at least ${plan.minSeats}` : `${plan.minSeats} to ${plan.maxSeats}`;
          throw new BadInputError(`Invalid seats: ${plan.name} is sold for ${range} seats.`, {
            field: { seats: `expected ${range}` },
          });
        }
        const members = await orgs.countMembers(tenant.slug);
        if (seats < members) {
          throw new BadInputError(
            `Invalid seats: your organisation has ${members} members; buy at least that many.`,
            {
              field: { seats: `expected at least ${members}` },
            },
          );
        }
      }
      const scope = { userId: standing.userId, tenantId: tenant?.id ?? null };
      const current = await currentRow(scope);
      if (current && planRank(current.tier) >= planRank(plan.tier)) {
        throw new ConflictError(
          `${tenant ? "Your organisation already has" : "You already have"} ${planTierOf(current.tier) === plan.tier ? "this plan" : "a higher plan"}: change it on /subscription.`,
          { details: { manage: "/subscription" } },
        );
      }
      const at = nowIso();
      const upgrades = current !== null;
      const kind: ProviderKind = upgrades ? providerFor(current).kind : provider.kind;
      // One open checkout per owner (a unique index): a checkout past its time is closed first so
      // it cannot block a new one, and a request that loses a race to another tab looks again.
      await repo.expireCheckouts(at);
      let row: CheckoutRow | null = null;
      for (let attempt = 0; row === null; attempt++) {
        const open = await repo.openCheckoutFor(scope, at);
        if (open) {
          if (
            open.planId === plan.id &&
            open.billingInterval === data.interval &&
            open.seats === seats &&
            open.status === "open"
          ) {
            if (returnTo && returnTo !== open.returnTo) {
              await db.updateTable("billing_checkout").set({ returnTo }).where("id", "=", open.id).execute();
              return viewOfCheckout({ ...open, returnTo });
            }
            return viewOfCheckout(open);
          }
          if (open.status === "awaiting_approval") {
            throw new ServiceError(
              "PAYMENT_PENDING",
              "A checkout is waiting for an administrator's approval: cancel it on /subscription before starting another.",
            );
          }
          await repo.transitionCheckout(open.id, ["open"], "canceled");
        }
        if (attempt >= 3) {
          throw new ConflictError("Another checkout was started at the same time: try again.");
        }
        row = await repo.insertCheckout({
          userId: standing.userId,
          tenantId: scope.tenantId,
          organizationName: tenant?.name ?? null,
          planId: plan.id,
          billingInterval: data.interval,
          seats,
          provider: kind,
          returnTo,
          subscriptionId: current?.id ?? null,
          createdAt: at,
          expiresAt: new Date(deps.now() + CHECKOUT_TTL_MS).toISOString(),
        });
      }
      if (upgrades) return viewOfCheckout(row);
      try {
        const owner = await ownerOf(standing, tenant);
        const ownerKey = ownerKeyOf(scope);
        const existing = await repo.customerId(provider.kind, ownerKey);
        const customer = await provider.ensureCustomer(owner, existing);
        if (customer !== existing) {
          await repo.saveCustomer({
            provider: provider.kind,
            ownerKey,
            userId: standing.userId,
            tenantId: scope.tenantId,
            providerCustomerId: customer,
            createdAt: at,
          });
        }
        const base = deps.baseUrl.replace(/\/+$/, "");
        const session = await provider.startCheckout({
          checkoutId: row.id,
          owner,
          providerCustomerId: customer,
          planId: plan.id,
          providerPriceId: data.interval === "year" ? plan.stripeYearlyPriceId : plan.stripeMonthlyPriceId,
          interval: data.interval,
          seats,
          successUrl: `${base}/checkout/${row.id}?session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${base}/checkout/${row.id}?canceled=1`,
        });
        await repo.setCheckoutSession(row.id, session.providerSessionId, session.url);
        return viewOfCheckout({ ...row, providerSessionId: session.providerSessionId, url: session.url });
      } catch (error) {
        // Nothing was bought: the attempt is closed, so a retry starts cleanly.
        await repo.transitionCheckout(row.id, ["open"], "canceled");
        throw error;
      }
    },

    async getCheckout(actor: Actor, id: string): Promise<CheckoutView> {
      const { row } = await ownCheckout(actor, id);
      return viewOfCheckout(await syncStripeCheckout(await expireIfDue(row)));
    },

    async confirmCheckout(actor: Actor, id: string): Promise<CheckoutView> {
      const found = await ownCheckout(actor, id);
      const row = await expireIfDue(found.row);
      if (row.status === "completed" || row.status === "awaiting_approval") return viewOfCheckout(row);
      if (row.status !== "open") {
        throw new ConflictError(
          row.status === "expired"
            ? "This checkout expired: start again from /pricing."
            : "This checkout was canceled: start again from /pricing.",
        );
      }
      if (row.provider === "stripe" && !row.subscriptionId) {
        return viewOfCheckout(await syncStripeCheckout(row));
      }
      if (row.provider === "manual" && !selfServe) {
        await repo.transitionCheckout(row.id, ["open"], "awaiting_approval");
        return viewOfCheckout((await repo.getCheckout(row.id)) ?? row);
      }
      return viewOfCheckout(
        await completeCheckout(row, { actorId: found.standing.userId, reason: "checkout" }),
      );
    },

    async cancelCheckout(actor: Actor, id: string): Promise<CheckoutView> {
      const { row } = await ownCheckout(actor, id);
      if (row.status === "completed") {
        throw new ConflictError(
          "This checkout is complete: cancel the subscription on /subscription instead.",
        );
      }
      await repo.transitionCheckout(row.id, ["open", "awaiting_approval"], "canceled");
      return viewOfCheckout((await repo.getCheckout(row.id)) ?? row);
    },

    async approveCheckout(actor: Actor, id: string): Promise<CheckoutView> {
      const adminId = requirePlatformAdmin(actor);
      const row = z.uuid().safeParse(id).success ? await repo.getCheckout(id) : null;
      if (!row) throw new NotFoundError("checkout", id);
      const current = await expireIfDue(row);
      if (current.status === "completed") return viewOfCheckout(current);
      if (current.status !== "open" && current.status !== "awaiting_approval") {
        throw new ConflictError(`This checkout is ${current.status}: nothing to approve.`);
      }
      if (current.provider !== "manual") {
        throw new ConflictError("Only manual checkouts are approved here; Stripe confirms its own payments.");
      }
      return viewOfCheckout(await completeCheckout(current, { actorId: adminId, reason: "approved" }));
    },

    async listCheckouts(actor: Actor, status: string | null): Promise<AdminCheckoutView[]> {
      requirePlatformAdmin(actor);
      const parsed = z
        .enum(["open", "awaiting_approval", "completed", "expired", "canceled"])
        .nullable()
        .safeParse(status || null);
      if (!parsed.success) {
        throw new BadInputError(
          "Invalid status: expected open, awaiting_approval, completed, expired or canceled",
          {
            field: { status: "unknown status" },
          },
        );
      }
      const rows = await repo.listCheckouts(parsed.data);
      const ids = [...new Set(rows.map((r) => r.userId))];
      const users = ids.length
        ? await db.selectFrom("user").select(["id", "name", "email"]).where("id", "in", ids).execute()
        : [];
      const byId = new Map(users.map((u) => [u.id, u]));
      return Promise.all(
        rows.map(async (row) => ({
          ...(await viewOfCheckout(row)),
          // Who asked: the administrator matches it with the payment received outside.
          customer: { name: byId.get(row.userId)?.name ?? "", email: byId.get(row.userId)?.email ?? "" },
        })),
      );
    },

    async change(actor: Actor, input: unknown): Promise<SubscriptionOverview> {
      const data = parse(changeInputSchema, input);
      const { standing, row } = await managedRow(actor, data.version);
      if (data.planId === "free") return this.cancel(actor, { version: data.version });
      const plan = await planOrThrow(data.planId);
      const organization = row.tenantId !== null;
      if ((plan.kind === "organization") !== organization) {
        throw new BadInputError(
          organization
            ? "Invalid planId: an organisation changes between seat plans (Team Pro, Business)."
            : "Invalid planId: seat plans are for organisations; choose an individual plan.",
          { field: { planId: "not a plan for this subscription" } },
        );
      }
      const before = stateOfRow(row);
      const seats = plan.perSeat ? (data.seats ?? before.seats) : 1;
      if (plan.perSeat && (seats < plan.minSeats || (plan.maxSeats !== null && seats > plan.maxSeats))) {
        throw new BadInputError(`Invalid seats: ${plan.name} needs ${plan.minSeats} seats or more.`, {
          field: { seats: `expected at least ${plan.minSeats}` },
        });
      }
      const from = { tier: planTierOf(row.tier), interval: before.interval, seats: before.seats };
      let direction = changeDirection(from, { tier: plan.tier, interval: data.interval, seats });
      if (direction === "same" && plan.id !== before.planId) direction = "downgrade";
      if (direction === "same") {
        if (row.pendingPlanId === null && row.pendingInterval === null && row.pendingSeats === null) {
          throw new ConflictError("You are already on this plan.");
        }
        // "Keep Pro": the pending downgrade is dropped (at Stripe too: its schedule is released by
        // asking for the current plan at the period end).
        const keeping = providerFor(row);
        if (keeping.kind === "stripe") {
          const state = await keeping.changeSubscription({
            providerSubscriptionId: before.providerSubscriptionId,
            planId: plan.id,
            providerPriceId:
              before.interval === "year" ? plan.stripeYearlyPriceId : plan.stripeMonthlyPriceId,
            interval: before.interval,
            seats: before.seats,
            when: "period_end",
          });
          await applier
            .apply(state, {
              reason: "keep",
              actorId: standing.userId,
              provider: "stripe",
              sourceEventId: null,
              subscriptionId: row.id,
              expectedVersion: row.version,
              patch: { pendingPlanId: null, pendingInterval: null, pendingSeats: null },
            })
            .catch(toState(row.version));
          return overviewFor(standing);
        }
        await subscriptions
          .update(row.id, { pendingPlanId: null, pendingInterval: null, pendingSeats: null }, row.version)
          .catch(toState(row.version));
        return overviewFor(standing);
      }
      if (row.status === "past_due") {
        throw new ServiceError(
          "PAYMENT_PENDING",
          "Your last payment failed: update your payment method before changing the plan.",
        );
      }
      if (
        organization &&
        seats < (await orgs.countMembers((await orgs.getById(row.tenantId!))?.slug ?? ""))
      ) {
        throw new ConflictError("Your organisation has more members than that: remove members first.");
      }
      if (direction === "upgrade") {
        await upgradeNow(
          row,
          { plan, interval: data.interval, seats },
          {
            actorId: standing.userId,
            reason: "upgrade",
          },
        );
        return overviewFor(standing);
      }
      const scope = { userId: standing.userId, tenantId: row.tenantId };
      if (await repo.openCheckoutFor(scope, nowIso())) {
        throw new ServiceError(
          "PAYMENT_PENDING",
          "A checkout is still open: finish or cancel it before downgrading.",
        );
      }
      if (row.cancelAtPeriodEnd) {
        throw new ConflictError(
          "Your subscription ends at the end of this period: resume it before changing the plan.",
        );
      }
      const managing = providerFor(row);
      if (managing.kind === "stripe") {
        const state = await managing.changeSubscription({
          providerSubscriptionId: before.providerSubscriptionId,
          planId: plan.id,
          providerPriceId: data.interval === "year" ? plan.stripeYearlyPriceId : plan.stripeMonthlyPriceId,
          interval: data.interval,
          seats,
          when: "period_end",
        });
        await applier
          .apply(state, {
            reason: "downgrade",
            actorId: standing.userId,
            provider: "stripe",
            sourceEventId: null,
            subscriptionId: row.id,
            expectedVersion: row.version,
            patch: {
              pendingPlanId: plan.id,
              pendingInterval: data.interval,
              pendingSeats: plan.perSeat ? seats : null,
            },
          })
          .catch(toState(row.version));
      } else {
        await subscriptions
          .update(
            row.id,
            {
              providerSubscriptionId: before.providerSubscriptionId,
              periodStart: before.periodStart,
              periodEnd: before.periodEnd,
              billingInterval: before.interval,
              pendingPlanId: plan.id,
              pendingInterval: data.interval,
              pendingSeats: plan.perSeat ? seats : null,
            },
            row.version,
          )
          .catch(toState(row.version));
      }
      return overviewFor(standing);
    },

    async cancel(actor: Actor, input: unknown): Promise<SubscriptionOverview> {
      const data = parse(versionInputSchema, input);
      const { standing, row } = await managedRow(actor, data.version);
      if (!row.cancelAtPeriodEnd) {
        const managing = providerFor(row);
        const state = await managing.cancelAtPeriodEnd(stateOfRow(row).providerSubscriptionId);
        await applier
          .apply(state, {
            reason: "cancel",
            actorId: standing.userId,
            provider: managing.kind,
            sourceEventId: null,
            subscriptionId: row.id,
            expectedVersion: row.version,
            patch: { pendingPlanId: null, pendingInterval: null, pendingSeats: null },
          })
          .catch(toState(row.version));
      }
      return overviewFor(standing);
    },

    async resume(actor: Actor, input: unknown): Promise<SubscriptionOverview> {
      const data = parse(versionInputSchema, input);
      const { standing, row } = await managedRow(actor, data.version);
      if (row.cancelAtPeriodEnd) {
        const managing = providerFor(row);
        const state = await managing.resume(stateOfRow(row).providerSubscriptionId);
        await applier
          .apply(state, {
            reason: "resume",
            actorId: standing.userId,
            provider: managing.kind,
            sourceEventId: null,
            subscriptionId: row.id,
            expectedVersion: row.version,
          })
          .catch(toState(row.version));
      }
      return overviewFor(standing);
    },

    async setSeats(actor: Actor, input: unknown): Promise<SubscriptionOverview> {
      const data = parse(seatsInputSchema, input);
      const { row } = await managedRow(actor, data.version);
      if (row.tenantId === null) {
        throw new ConflictError("Seats belong to an organisation's subscription; yours is personal.");
      }
      const org = await orgs.getById(row.tenantId);
      const used = org ? await orgs.countMembers(org.slug) : 0;
      // Pending invitations hold their seats too (the organisations service's seat rule).
      const pending = org ? (await orgs.pendingForOrg(org.id, nowIso())).length : 0;
      if (data.seats < used + pending) {
        throw new ServiceError(
          "NO_SEATS",
          `Your organisation needs at least ${used + pending} seats (${used} members, ${pending} pending invitations): remove a member or cancel an invitation first.`,
          { seats: `expected at least ${used + pending}` },
        );
      }
      const state = stateOfRow(row);
      return this.change(actor, {
        planId: state.planId,
        interval: state.interval,
        seats: data.seats,
        version: data.version,
      });
    },

    async portal(actor: Actor, returnTo: unknown): Promise<{ url: string }> {
      const standing = await standingOf(actor);
      const back = validReturnTo(typeof returnTo === "string" ? returnTo : null) ?? "/subscription";
      const found = await viewerRow(standing);
      if (!provider.takesPayments || !found || !isStripeRow(found.row)) {
        throw new ConflictError("This installation takes no payments: there is no payment method to manage.");
      }
      if (!found.canManage)
        throw new ForbiddenError("Only your organisation's administrators manage its payments.");
      const customer = await repo.customerId("stripe", ownerKeyOf(found.row));
      if (!customer) throw new ConflictError("No payment details are on file yet.");
      const url = await provider.portalUrl(customer, `${deps.baseUrl.replace(/\/+$/, "")}${back}`);
      if (!url) throw new ConflictError("The payment provider offers no portal.");
      return { url };
    },

    async invoices(actor: Actor): Promise<InvoiceView[]> {
      return invoicesFor(await standingOf(actor));
    },

    /**
     * A provider's webhook: verified (BadSignatureError → 400), recorded once per (provider, event
     * id), then acted on by re-reading the provider's state (order and replays do not matter).
     */
    handleWebhook: webhooks.handleWebhook,

    applyProviderState: (state: ProviderSubscriptionState, cause: ApplyCause) => applier.apply(state, cause),

    recordInvoice,

    /** One pass of the scheduler (billing-scheduler.ts): renewals, period ends, grace ends, expired checkouts. */
    runDue: () => sweep.runDue(),

    /** Platform admins (billing-admin.ts): listSubscriptions, grant, extend, adminCancel. */
    ...createBillingAdmin({ db, plans, applier, providerFor, now: deps.now }),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
export type { AdminCheckoutView, ChangeQuote };
export { validReturnTo };
