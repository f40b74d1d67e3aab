/**
 * Plan badges and labels (spec §2 Sidebar, Paywall panel).
 */
import type { AccountType } from "./claims.ts";
import { type AuthTier, isTier, type Tier } from "./tiers.ts";

export type PlanBadge = "basic" | "pro" | "Business" | "MultiSeatPro";

/**
 * The badge for a plan (spec: "basic, pro, Business, MultiSeatPro; Enterprise maps to Business"):
 * - Basic → "basic";
 * - Pro → "pro", or "MultiSeatPro" for a business account (Pro bought for several seats);
 * - Enterprise → "Business" (whatever the account type);
 * - Free, Visitor or none → null (no badge).
 */
export function planBadge(
  tier: Tier | AuthTier | null | undefined,
  accountType?: AccountType | null,
): PlanBadge | null {
  switch (tier) {
    case "Basic":
      return "basic";
    case "Pro":
      return accountType === "business" ? "MultiSeatPro" : "pro";
    case "Enterprise":
      return "Business";
    default:
      return null;
  }
}

/** Text shown for each badge. */
export const PLAN_BADGE_TEXT: Readonly<Record<PlanBadge, string>> = Object.freeze({
  basic: "Basic",
  pro: "Pro",
  Business: "Business",
  MultiSeatPro: "Multi-seat Pro",
});

/**
 * The sidebar's plan label, shown only when the plan is not free: "Basic plan", "Pro plan",
 * "Enterprise plan"; null for Free, Visitor or no plan.
 */
export function planLabel(tier: Tier | AuthTier | null | undefined): string | null {
  if (!isTier(tier) || tier === "Free") return null;
  return `${tier} plan`;
}

/** Paywall panel wording for a required tier (spec §2 "Paywall panel"). */
export function paywallCopy(requiredTier: Tier): { title: string; message: string; upgradeLabel: string } {
  return {
    title: "Premium Content",
    message: `This content requires a ${requiredTier} subscription or higher.`,
    upgradeLabel: `Upgrade to ${requiredTier}`,
  };
}
