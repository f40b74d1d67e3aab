/**
 * The start-up rule of the Stripe configuration (decision 019), without the SDK: `server/env.ts`
 * applies it when parsing the configuration, and the billing package's provider choice may call it
 * too (re-exported by `stripe-provider.ts`). One line naming the variable and what it needs.
 */

/** The configuration fields the rule reads (structural: `Env` satisfies it). */
export interface StripeConfigFields {
  BILLING_PROVIDER?: "manual" | "stripe" | undefined;
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  STRIPE_API_URL?: string | undefined;
}

/** What is wrong with the Stripe configuration, as one line, or null when it can start. */
export function stripeConfigProblem(env: StripeConfigFields): string | null {
  const key = env.STRIPE_SECRET_KEY;
  if (env.BILLING_PROVIDER === "stripe" && !key) {
    return "Invalid configuration: BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY (sk_test_… or sk_live_…) and STRIPE_WEBHOOK_SECRET (whsec_…)";
  }
  if (env.BILLING_PROVIDER === "manual") return null;
  if (key && !env.STRIPE_WEBHOOK_SECRET) {
    return "Invalid configuration: STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not — set the signing secret (whsec_…) of the webhook endpoint /api/billing/webhooks/stripe, without it no Stripe event can be verified";
  }
  if (key && env.STRIPE_API_URL && /^(sk|rk)_live_/.test(key) && !env.STRIPE_API_URL.startsWith("https://")) {
    return `Invalid configuration: STRIPE_API_URL=${JSON.stringify(env.STRIPE_API_URL)} — a live Stripe key is only sent over https`;
  }
  return null;
}
