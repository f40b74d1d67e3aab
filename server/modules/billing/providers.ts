/**
 * The provider choice (decision 019): Stripe when STRIPE_SECRET_KEY is set (STRIPE_WEBHOOK_SECRET
 * is then required: a ConfigError at start otherwise), else the manual provider. The Stripe SDK is
 * imported only when Stripe is chosen.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { ConfigError, type Env } from "../../env.ts";
import type { BillingProvider } from "./billing.types.ts";
import { createManualProvider } from "./manual-provider.ts";
import { createPlansRepo } from "./plans.repo.ts";

export interface BillingProviderDeps {
  db: Kysely<DB>;
  now(): number;
}

type BillingEnv = Pick<
  Env,
  "BILLING_PROVIDER" | "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_API_URL"
>;

export async function createBillingProvider(
  env: BillingEnv,
  deps: BillingProviderDeps,
): Promise<BillingProvider> {
  const wantsStripe =
    env.BILLING_PROVIDER === "stripe" || (env.BILLING_PROVIDER !== "manual" && !!env.STRIPE_SECRET_KEY);
  if (!wantsStripe) {
    // The manual checkout page is this site's own: a same-site path works behind any address.
    return createManualProvider({ db: deps.db, now: deps.now, baseUrl: "" });
  }
  if (!env.STRIPE_SECRET_KEY) throw new ConfigError("BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY.");
  if (!env.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(
      "STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: Stripe's webhooks could not be verified.",
    );
  }
  const plans = createPlansRepo(deps.db);
  const { createStripeProvider } = await import("./stripe-provider.ts");
  return createStripeProvider({
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    apiUrl: env.STRIPE_API_URL,
    resolvePrice: async (priceId) => {
      const found = await plans.byStripePrice(priceId);
      return found ? { planId: found.plan.id, interval: found.interval } : null;
    },
    now: deps.now,
  });
}

/** Readers confirm their own manual checkouts: BILLING_MANUAL_SELF_SERVE, else the demo seed's setting. */
export function manualSelfServe(env: Pick<Env, "BILLING_MANUAL_SELF_SERVE" | "SEED_DEMO">): boolean {
  return (env.BILLING_MANUAL_SELF_SERVE ?? env.SEED_DEMO) === "1";
}
