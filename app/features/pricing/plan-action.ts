/**
 * The one call to action of each plan on /pricing, by who is looking (pure, unit-tested):
 * - a visitor: Free → "Create free account"; a paid plan → "Get Pro" through sign-in to the
 *   checkout's review step (`/checkout?plan=pro&interval=month`);
 * - a signed-in reader: a plan above theirs → the POST form to /checkout ("Upgrade to Pro"); their
 *   own → "Manage subscription"; a plan below → "Change on your subscription page";
 * - an organisation's seat plan: its admin → /business/dashboard; a visitor → the business sign-up;
 *   a signed-in individual → /business/start (create an organisation; a member of one is sent on
 *   to its dashboard) with a note.
 */
import { parseTier, signInUrl, tierLevel } from "../../../core/index.ts";
import type { BillingInterval, PlanView } from "../../../server/modules/billing/billing.types.ts";
import type { PricingViewer } from "./pricing-data.ts";

export type PlanAction =
  | { kind: "link"; to: string; label: string; primary: boolean; note?: string }
  | { kind: "checkout"; planId: string; interval: BillingInterval; returnTo: string; label: string };

export const CHECKOUT_PATH = "/checkout";
export const SUBSCRIPTION_PATH = "/subscription";
export const BUSINESS_DASHBOARD_PATH = "/business/dashboard";
export const BUSINESS_SIGNUP_PATH = "/auth/signup?account=business";
/** Where a signed-in individual creates an organisation (a member of one is redirected to its dashboard). */
export const BUSINESS_START_PATH = "/business/start";

/** The review step of the checkout for a plan (visitors reach it after sign-in). */
export function checkoutReviewPath(planId: string, interval: BillingInterval): string {
  return `${CHECKOUT_PATH}?plan=${encodeURIComponent(planId)}&interval=${interval}`;
}

export function planAction(
  plan: PlanView,
  viewer: PricingViewer,
  interval: BillingInterval,
  returnTo = "/pricing",
): PlanAction {
  if (plan.kind === "organization") {
    if (viewer.orgAdmin) {
      return { kind: "link", to: BUSINESS_DASHBOARD_PATH, label: `Buy ${plan.name} seats`, primary: true };
    }
    if (!viewer.signedIn) {
      return { kind: "link", to: BUSINESS_SIGNUP_PATH, label: "Create a business account", primary: false };
    }
    return {
      kind: "link",
      to: BUSINESS_START_PATH,
      label: "Set up your organisation",
      primary: false,
      note: "Seats are bought by an organisation's administrator. Your personal plan stays as it is.",
    };
  }
  const planTier = parseTier(plan.tier) ?? "Enterprise";
  if (!viewer.signedIn) {
    if (planTier === "Free") {
      return { kind: "link", to: "/auth/signup", label: "Create free account", primary: true };
    }
    return {
      kind: "link",
      to: signInUrl(checkoutReviewPath(plan.id, interval)),
      label: `Get ${plan.name}`,
      primary: planTier === "Pro",
    };
  }
  const mine = tierLevel(viewer.tier ?? "Free");
  const theirs = tierLevel(planTier);
  if (theirs > mine) {
    return { kind: "checkout", planId: plan.id, interval, returnTo, label: `Upgrade to ${plan.name}` };
  }
  if (theirs === mine) {
    return { kind: "link", to: SUBSCRIPTION_PATH, label: "Manage subscription", primary: false };
  }
  return { kind: "link", to: SUBSCRIPTION_PATH, label: "Change on your subscription page", primary: false };
}
