/**
 * The billing tables of migration 023 (decision 019): checkouts, invoices and receipts, the
 * providers' customers and the webhook events received. Plans: plans.repo.ts; the subscription
 * rows: subscriptions.repo.ts.
 */
import type { Kysely, Selectable } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { BillingCheckoutTable, BillingInvoiceTable, DB } from "../../db/schema.ts";
import { isUniqueViolation } from "../../errors.ts";
import type { CheckoutStatus, ProviderInvoice, ProviderKind } from "./billing.types.ts";

export type CheckoutRow = Selectable<BillingCheckoutTable>;
export type InvoiceRow = Selectable<BillingInvoiceTable>;

/** Whose bill: a reader ("user:<id>") or an organisation ("org:<id>"). */
export const ownerKeyOf = (owner: { userId: string; tenantId: string | null }) =>
  owner.tenantId ? `org:${owner.tenantId}` : `user:${owner.userId}`;

export interface NewCheckout {
  userId: string;
  tenantId: string | null;
  organizationName: string | null;
  planId: string;
  billingInterval: string;
  seats: number;
  provider: ProviderKind;
  returnTo: string | null;
  /** Set when the checkout upgrades an existing subscription (confirm changes that row). */
  subscriptionId: string | null;
  createdAt: string;
  expiresAt: string;
}

export function createBillingRepo(db: Kysely<DB>) {
  return {
    // --- customers ---------------------------------------------------------------------------
    async customerId(provider: ProviderKind, ownerKey: string): Promise<string | null> {
      const row = await db
        .selectFrom("billing_customer")
        .select("providerCustomerId")
        .where("provider", "=", provider)
        .where("ownerKey", "=", ownerKey)
        .executeTakeFirst();
      return row?.providerCustomerId ?? null;
    },

    /** Records the owner's customer; a concurrent insert of the same owner keeps the first. */
    async saveCustomer(input: {
      provider: ProviderKind;
      ownerKey: string;
      userId: string;
      tenantId: string | null;
      providerCustomerId: string;
      createdAt: string;
    }): Promise<string> {
      try {
        await db
          .insertInto("billing_customer")
          .values({ id: uuidv7(), ...input })
          .execute();
        return input.providerCustomerId;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        return (await this.customerId(input.provider, input.ownerKey)) ?? input.providerCustomerId;
      }
    },

    // --- checkouts ---------------------------------------------------------------------------
    async getCheckout(id: string): Promise<CheckoutRow | null> {
      return (
        (await db.selectFrom("billing_checkout").selectAll().where("id", "=", id).executeTakeFirst()) ?? null
      );
    },

    async checkoutBySession(provider: ProviderKind, sessionId: string): Promise<CheckoutRow | null> {
      return (
        (await db
          .selectFrom("billing_checkout")
          .selectAll()
          .where("provider", "=", provider)
          .where("providerSessionId", "=", sessionId)
          .executeTakeFirst()) ?? null
      );
    },

    /** The owner's open (or awaiting) checkout that has not expired: the newest, or the oldest. */
    async openCheckoutFor(
      owner: { userId: string; tenantId: string | null },
      nowIso: string,
      which: "newest" | "oldest" = "newest",
    ): Promise<CheckoutRow | null> {
      let query = db
        .selectFrom("billing_checkout")
        .selectAll()
        .where("status", "in", ["open", "awaiting_approval"])
        .where("expiresAt", ">", nowIso);
      query = owner.tenantId
        ? query.where("tenantId", "=", owner.tenantId)
        : query.where("userId", "=", owner.userId).where("tenantId", "is", null);
      const dir = which === "newest" ? "desc" : "asc";
      return (await query.orderBy("createdAt", dir).orderBy("id", dir).executeTakeFirst()) ?? null;
    },

    /**
     * Inserts an open checkout, or returns null when the owner already has one open (a unique
     * partial index allows one per owner, so two tabs or processes racing get one row).
     */
    async insertCheckout(input: NewCheckout): Promise<CheckoutRow | null> {
      try {
        return await db
          .insertInto("billing_checkout")
          .values({ id: uuidv7(), ...input, status: "open", version: 1 })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    async setCheckoutSession(id: string, providerSessionId: string, url: string): Promise<void> {
      await db.updateTable("billing_checkout").set({ providerSessionId, url }).where("id", "=", id).execute();
    },

    /**
     * Moves a checkout from one of `from` to `to` with one conditional UPDATE: true for the one
     * caller that made the move (two confirmations: one wins, the other changes nothing).
     */
    async transitionCheckout(
      id: string,
      from: CheckoutStatus[],
      to: CheckoutStatus,
      extra: { completedAt?: string | null; subscriptionId?: string | null } = {},
    ): Promise<boolean> {
      const result = await db
        .updateTable("billing_checkout")
        .set({ status: to, ...extra })
        .set((eb) => ({ version: eb("version", "+", 1) }))
        .where("id", "=", id)
        .where("status", "in", from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async listCheckouts(status: CheckoutStatus | null, limit = 100): Promise<CheckoutRow[]> {
      let query = db.selectFrom("billing_checkout").selectAll();
      if (status) query = query.where("status", "=", status);
      return query.orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).execute();
    },

    /** Open checkouts past their expiry: each moved to expired by one conditional UPDATE. */
    async expireCheckouts(nowIso: string): Promise<number> {
      const result = await db
        .updateTable("billing_checkout")
        .set({ status: "expired" })
        .set((eb) => ({ version: eb("version", "+", 1) }))
        .where("status", "in", ["open", "awaiting_approval"])
        .where("expiresAt", "<=", nowIso)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    // --- invoices ----------------------------------------------------------------------------
    /** Inserts or updates the invoice (provider + providerInvoiceId): a replay changes nothing new. */
    async upsertInvoice(
      provider: ProviderKind,
      invoice: ProviderInvoice,
      owner: { userId: string | null; tenantId: string | null; subscriptionId: string | null },
    ): Promise<InvoiceRow> {
      const values = {
        userId: owner.userId,
        tenantId: owner.tenantId,
        subscriptionId: owner.subscriptionId,
        number: invoice.number,
        status: invoice.status,
        amountCents: invoice.amountCents,
        currency: invoice.currency.toLowerCase(),
        description: invoice.description,
        periodStart: invoice.periodStart,
        periodEnd: invoice.periodEnd,
        hostedUrl: invoice.hostedUrl,
        paidAt: invoice.paidAt,
      };
      const existing = await db
        .selectFrom("billing_invoice")
        .selectAll()
        .where("provider", "=", provider)
        .where("providerInvoiceId", "=", invoice.providerInvoiceId)
        .executeTakeFirst();
      if (existing) {
        return db
          .updateTable("billing_invoice")
          .set(values)
          .where("id", "=", existing.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      }
      try {
        return await db
          .insertInto("billing_invoice")
          .values({
            id: uuidv7(),
            provider,
            providerInvoiceId: invoice.providerInvoiceId,
            createdAt: invoice.createdAt,
            ...values,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        return db
          .selectFrom("billing_invoice")
          .selectAll()
          .where("provider", "=", provider)
          .where("providerInvoiceId", "=", invoice.providerInvoiceId)
          .executeTakeFirstOrThrow();
      }
    },

    async listInvoices(owners: { userId: string; tenantIds: string[] }, limit = 50): Promise<InvoiceRow[]> {
      return db
        .selectFrom("billing_invoice")
        .selectAll()
        .where((eb) =>
          owners.tenantIds.length
            ? eb.or([
                eb.and([eb("userId", "=", owners.userId), eb("tenantId", "is", null)]),
                eb("tenantId", "in", owners.tenantIds),
              ])
            : eb.and([eb("userId", "=", owners.userId), eb("tenantId", "is", null)]),
        )
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },

    async countInvoices(): Promise<number> {
      const row = await db
        .selectFrom("billing_invoice")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    // --- events ------------------------------------------------------------------------------
    /**
     * Claims a webhook event for processing: "new" (first time), "retry" (failed before),
     * "duplicate" (processed, ignored or being processed).
     */
    async claimEvent(
      provider: ProviderKind,
      eventId: string,
      type: string,
      nowIso: string,
    ): Promise<"new" | "retry" | "duplicate"> {
      try {
        await db
          .insertInto("billing_event")
          .values({ provider, eventId, type, status: "processing", receivedAt: nowIso, attempts: 1 })
          .execute();
        return "new";
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const result = await db
        .updateTable("billing_event")
        .set({ status: "processing", error: null })
        .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
        .where("provider", "=", provider)
        .where("eventId", "=", eventId)
        .where("status", "=", "failed")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0 ? "retry" : "duplicate";
    },

    async finishEvent(
      provider: ProviderKind,
      eventId: string,
      status: "processed" | "ignored" | "failed",
      nowIso: string,
      error: string | null = null,
    ): Promise<void> {
      await db
        .updateTable("billing_event")
        .set({ status, processedAt: nowIso, error })
        .where("provider", "=", provider)
        .where("eventId", "=", eventId)
        .execute();
    },

    async getEvent(provider: ProviderKind, eventId: string) {
      return db
        .selectFrom("billing_event")
        .selectAll()
        .where("provider", "=", provider)
        .where("eventId", "=", eventId)
        .executeTakeFirst();
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
