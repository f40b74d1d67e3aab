/**
 * Provider webhooks (decision 019): verified by the provider (BadSignatureError → 400), recorded
 * once per (provider, event id) in `billing_event` (a replay does nothing; a failed event is
 * retried on its next delivery), then acted on by re-reading the subscription from the provider,
 * so the order events arrive in does not matter. Invoices are upserted by provider + id.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { NotFoundError } from "../../errors.ts";
import { createSubscriptionsRepo, type UserSubscription } from "../subscriptions/subscriptions.repo.ts";
import type { BillingRepo, CheckoutRow } from "./billing.repo.ts";
import type {
  BillingProvider,
  ProviderInvoice,
  ProviderKind,
  ProviderSubscriptionState,
} from "./billing.types.ts";
import type { Applier, ApplyCause } from "./billing-apply.ts";
import { invoiceView } from "./billing-views.ts";

export interface WebhookDeps {
  db: Kysely<DB>;
  provider: BillingProvider;
  repo: BillingRepo;
  applier: Applier;
  nowIso(): string;
  /** Grants what a checkout bought, once (billing.service.ts). */
  completeCheckout(
    row: CheckoutRow,
    cause: {
      actorId: string | null;
      reason: string;
      sourceEventId?: string | null;
      state?: ProviderSubscriptionState;
    },
  ): Promise<CheckoutRow>;
}

export function createWebhookHandler(deps: WebhookDeps) {
  const { db, provider, repo, applier, nowIso, completeCheckout } = deps;
  const subscriptions = createSubscriptionsRepo(db);

  /** Records a provider's invoice (upsert by provider + id) for the subscription it belongs to. */
  async function recordInvoice(invoice: ProviderInvoice, kind: ProviderKind = provider.kind) {
    let row: UserSubscription | null = null;
    if (invoice.providerSubscriptionId) {
      const found = await db
        .selectFrom("user_subscription")
        .select("id")
        .where("providerSubscriptionId", "=", invoice.providerSubscriptionId)
        .where("source", kind === "stripe" ? "=" : "<>", "stripe")
        .executeTakeFirst();
      row = found ? await subscriptions.getById(found.id) : null;
    }
    return invoiceView(
      await repo.upsertInvoice(kind, invoice, {
        userId: row?.userId ?? null,
        tenantId: row?.tenantId ?? null,
        subscriptionId: row?.id ?? null,
      }),
    );
  }

  async function handleWebhook(
    kind: ProviderKind,
    rawBody: string,
    signature: string | null,
  ): Promise<{ received: true; duplicate?: true }> {
    if (kind !== provider.kind || kind !== "stripe") throw new NotFoundError("webhook", kind);
    const event = provider.parseWebhook(rawBody, signature);
    const claim = await repo.claimEvent(kind, event.id, event.type, nowIso());
    if (claim === "duplicate") return { received: true, duplicate: true };
    try {
      const acted = await processEvent(kind, event);
      await repo.finishEvent(kind, event.id, acted ? "processed" : "ignored", nowIso());
      return { received: true };
    } catch (error) {
      await repo.finishEvent(
        kind,
        event.id,
        "failed",
        nowIso(),
        error instanceof Error ? error.message.slice(0, 500) : "failed",
      );
      throw error;
    }
  }

  async function processEvent(
    kind: ProviderKind,
    event: ReturnType<BillingProvider["parseWebhook"]>,
  ): Promise<boolean> {
    const cause = (reason: string): ApplyCause => ({
      reason,
      actorId: null,
      provider: kind,
      sourceEventId: event.id,
    });
    switch (event.kind) {
      case "checkout.completed": {
        const checkout = event.checkoutId
          ? await repo.getCheckout(event.checkoutId)
          : await repo.checkoutBySession(kind, event.providerSessionId);
        if (!event.providerSubscriptionId) return false;
        const state = await provider.fetchSubscription(event.providerSubscriptionId);
        if (checkout && (checkout.status === "open" || checkout.status === "awaiting_approval")) {
          await completeCheckout(checkout, {
            actorId: null,
            reason: "checkout",
            sourceEventId: event.id,
            state,
          });
        } else {
          await applier.apply(
            {
              ...state,
              userId: state.userId ?? checkout?.userId ?? null,
              tenantId: state.tenantId ?? checkout?.tenantId ?? null,
            },
            cause("checkout"),
          );
        }
        return true;
      }
      case "checkout.expired": {
        const checkout = event.checkoutId
          ? await repo.getCheckout(event.checkoutId)
          : await repo.checkoutBySession(kind, event.providerSessionId);
        if (checkout) await repo.transitionCheckout(checkout.id, ["open"], "expired");
        return true;
      }
      case "subscription.changed": {
        const state = await provider.fetchSubscription(event.providerSubscriptionId);
        await applier.apply(state, cause("provider_update"));
        return true;
      }
      case "invoice.paid":
      case "invoice.payment_failed": {
        await recordInvoice(event.invoice, kind);
        const subId = event.invoice.providerSubscriptionId;
        if (!subId) return true;
        const state = await provider.fetchSubscription(subId);
        if (event.kind === "invoice.payment_failed" && state.status === "active") {
          // The provider may not have marked it yet: a failed renewal is past_due unless a later invoice was paid.
          const newer = await db
            .selectFrom("billing_invoice")
            .select("id")
            .where("provider", "=", kind)
            .where("status", "=", "paid")
            .where("createdAt", ">", event.invoice.createdAt)
            .where(
              "subscriptionId",
              "in",
              db.selectFrom("user_subscription").select("id").where("providerSubscriptionId", "=", subId),
            )
            .executeTakeFirst();
          await applier.apply(newer ? state : { ...state, status: "past_due" }, cause("payment_failed"));
        } else {
          await applier.apply(state, cause(event.kind === "invoice.paid" ? "payment" : "payment_failed"));
        }
        return true;
      }
      default:
        return false;
    }
  }

  return { handleWebhook, recordInvoice };
}
