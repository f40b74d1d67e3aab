/**
 * The Stripe provider (decision 019), over the official `stripe` SDK.
 * Built in the Stripe work package; until then, choosing Stripe fails at start with this message.
 */
import type { BillingInterval, BillingProvider } from "./billing.types.ts";

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API host (tests: a local server that answers the SDK's calls). */
  apiUrl?: string;
  /** Our plan and interval for a Stripe price id (from the plan table), or null when unknown. */
  resolvePrice(priceId: string): Promise<{ planId: string; interval: BillingInterval } | null>;
  now(): number;
}

export function createStripeProvider(_options: StripeProviderOptions): BillingProvider {
  throw new Error("The Stripe provider is not available in this build.");
}
