/**
 * The subscription e-mails (issue 13): started, changed, renewal failed (with the grace end and
 * what to do) and ended. Plain text; sent through the Mailer by the billing write path.
 */
import type { PlanTier } from "./billing.types.ts";

export type SubscriptionMailKind = "started" | "changed" | "renewal_failed" | "ended";

export interface SubscriptionMailInput {
  kind: SubscriptionMailKind;
  name: string;
  planName: string;
  fromTier: PlanTier;
  toTier: PlanTier;
  interval: string | null;
  periodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  graceUntil: string | null;
  organization: boolean;
  baseUrl: string;
}

const TIER_NAMES: Record<PlanTier, string> = {
  free: "Free",
  basic: "Basic",
  pro: "Pro",
  enterprise: "Enterprise",
};

/** "24 Dec 2026" (UTC). */
export function formatDay(iso: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(iso));
}

export function subscriptionMail(input: SubscriptionMailInput): { subject: string; text: string } {
  const manage = `${input.baseUrl.replace(/\/+$/, "")}/subscription`;
  const whose = input.organization ? "Your organisation's" : "Your";
  const hello = `Hello ${input.name},`;
  const renews = input.periodEnd
    ? input.cancelAtPeriodEnd
      ? `It ends on ${formatDay(input.periodEnd)}.`
      : `It renews on ${formatDay(input.periodEnd)}${input.interval ? ` (billed ${input.interval === "year" ? "yearly" : "monthly"})` : ""}.`
    : "";
  switch (input.kind) {
    case "started":
      return {
        subject: `${whose} ${input.planName} plan has started`,
        text: `${hello}\n\n${whose} ${input.planName} plan is active: everything marked ${TIER_NAMES[input.toTier]} is open now. ${renews}\n\nManage the subscription: ${manage}\n`,
      };
    case "changed":
      return {
        subject: `${whose} plan changed to ${input.planName}`,
        text: `${hello}\n\n${whose} plan changed from ${TIER_NAMES[input.fromTier]} to ${TIER_NAMES[input.toTier]} (${input.planName}). ${renews}\n\nManage the subscription: ${manage}\n`,
      };
    case "renewal_failed":
      return {
        subject: `${whose} ${input.planName} renewal payment failed`,
        text: `${hello}\n\nThe payment for ${input.planName} did not go through. ${
          input.graceUntil ? `You keep ${TIER_NAMES[input.toTier]} until ${formatDay(input.graceUntil)}.` : ""
        } To keep the plan after that, update the payment method: ${manage}\n`,
      };
    case "ended":
      return {
        subject: `${whose} ${input.planName} plan has ended`,
        text: `${hello}\n\n${whose} ${input.planName} plan has ended; ${
          input.organization ? "its members now read" : "you now read"
        } with ${TIER_NAMES[input.toTier]}. Choose a plan again at any time: ${input.baseUrl.replace(/\/+$/, "")}/pricing\n`,
      };
  }
}
